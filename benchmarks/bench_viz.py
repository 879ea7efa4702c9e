"""Widget benchmark: one workbench action on a queue of 1 000 messages, model call plus the
redraw of the plotly charts (the workbench's charts section open).

Run from the repository root::

    python3 benchmarks/bench_viz.py             # 1 000 messages, 30 timed actions of each kind
    python3 benchmarks/bench_viz.py --quick     # 200 messages, 3 of each (smoke test)
    python3 benchmarks/bench_viz.py --json results.json

It is a report, not a test: it prints its tables and a PASS/FAIL line per target and exits 0 either
way. Targets (issue 4): an action (put, get, advance; a replay move too) re-renders in ≤ 50 ms of
Python time with 1 000 messages on the queue; a notebook opens its widgets in ≤ 2 s. Python time
means what the kernel spends: the model call, the figure specs and their serialisation into the
widgets' outputs (the charts section is opened first: closed, it redraws nothing; the queue view's
own click-to-paint is benchmarks/bench_browser.py's), measured as this process's CPU time
(``time.process_time``) so that other processes on a shared machine do not count; wall-clock medians
are printed next to them. The browser's drawing is not included.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # measure this checkout, installed or not
    sys.path.insert(0, str(ROOT))

from mqlearn import CMQC  # noqa: E402
from mqlearn.viz import Workbench, figures  # noqa: E402

ACTION_TARGET_MS = 50.0
OPEN_TARGET_S = 2.0
SEED = 20260101
LONG_EXPIRY = 100_000_000  # tenths: never reached
# The primed queue: Expiry 5 s for a third of the messages, so that part of them have expired.
PRIME_EXPIRIES = (CMQC.MQEI_UNLIMITED, 50, 600, LONG_EXPIRY)
PRIME_STEP_MS = 100  # virtual time between two groups of 10 puts
QUEUE = "APP.IN"

# The first Workbench in a fresh interpreter: imports included, as a notebook's first cell pays.
# Its charts are opened then: that loads plotly (and, for its renderers, nbformat) on first use.
COLD_SCRIPT = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
w0, t0 = time.perf_counter(), time.process_time()
from mqlearn.viz import Workbench
t1 = time.process_time()
wb = Workbench()
t2 = time.process_time()
wb.charts.selected_index = 0
import nbformat  # what plotly.io imports to display a figure (its renderers)
t3, w3 = time.process_time(), time.perf_counter()
Workbench()
t4 = time.process_time()
print(json.dumps({"import_viz": t1 - t0, "first_workbench": t2 - t1,
                  "open_charts": t3 - t2, "second_workbench": t4 - t3,
                  "cold_wall": w3 - w0}))
"""


@dataclass
class Settings:
    depth: int
    reps: int
    open_reps: int


FULL = Settings(depth=1_000, reps=30, open_reps=3)
QUICK = Settings(depth=200, reps=3, open_reps=1)


@dataclass
class ActionTiming:
    action: str
    model_ms: list[float]  # CPU time of the model call
    views_ms: list[float]  # CPU time of the redraw
    wall_ms: list[float]  # wall-clock time of both

    @property
    def total_ms(self) -> float:
        """Median CPU time of model + views over the repetitions."""
        return statistics.median(m + v for m, v in zip(self.model_ms, self.views_ms, strict=True))


def primed_workbench(depth: int) -> Workbench:
    """A workbench on a PRIORITY queue holding ``depth`` messages, some of them expired."""
    wb = Workbench(msgdlvsq="PRIORITY")
    rng = random.Random(SEED)
    model = wb.model
    for n in range(depth):
        model.put(b"msg-%06d" % n, expiry=rng.choice(PRIME_EXPIRIES), priority=rng.randrange(10))
        if n % 10 == 9:
            model.advance(PRIME_STEP_MS)
    wb.charts.selected_index = 0  # the charts section open: every refresh redraws the charts
    wb.refresh(None)
    return wb


def measure_actions(wb: Workbench, reps: int) -> list[ActionTiming]:
    """Time each action ``reps`` times, interleaved: the model call, then the redraw.

    put and get alternate so that the depth stays where it is; the replay moves the view to the
    middle of the history (then back to now, untimed).
    """
    model = wb.model
    rng = random.Random(SEED + 1)
    actions: dict[str, Callable[[], str | None]] = {
        "put": lambda: model.put(b"x", expiry=LONG_EXPIRY, priority=rng.randrange(10)),
        "get": lambda: model.get(),
        "advance +0.1 s": lambda: model.advance(100),
        "replay (slider)": lambda: None,
    }
    timings = {name: ActionTiming(name, [], [], []) for name in actions}
    for _ in range(reps):
        for name, action in actions.items():
            w0, t0 = time.perf_counter(), time.process_time()
            line = action()
            t1 = time.process_time()
            if line is None:  # the replay: no model call, the views drawn at another time
                wb.refresh(model.now_ms // 2)
            else:
                wb.show_results([line])
                wb.refresh(None)
            t2, w2 = time.process_time(), time.perf_counter()
            timings[name].model_ms.append((t1 - t0) * 1e3)
            timings[name].views_ms.append((t2 - t1) * 1e3)
            timings[name].wall_ms.append((w2 - w0) * 1e3)
        wb.refresh(None)
    return list(timings.values())


def measure_pure_figures(wb: Workbench, reps: int) -> dict[str, float]:
    """Median ms of each pure figure function (spec + go.Figure), as a notebook cell calls it."""
    qm = wb.model.qm
    calls: dict[str, Callable[[], Any]] = {
        "timeline": lambda: figures.timeline(qm, QUEUE),
        "shelf": lambda: figures.shelf(qm, QUEUE),
        "depth": lambda: figures.depth(qm, QUEUE),
        "event_table": lambda: figures.event_table(qm),
        "report_inbox": lambda: figures.report_inbox(qm, "REPLY.Q"),
    }
    result = {}
    for name, call in calls.items():
        samples = []
        for _ in range(max(3, reps // 3)):
            t0 = time.process_time()
            call()
            samples.append((time.process_time() - t0) * 1e3)
        result[name] = statistics.median(samples)
    return result


def measure_open(reps: int) -> dict[str, float]:
    """Seconds to build a Workbench: warm (imports done), and cold in a fresh interpreter."""
    Workbench()  # warm-up: imports, plotly's validators
    warm = []
    for _ in range(reps):
        t0 = time.process_time()
        Workbench()
        warm.append(time.process_time() - t0)
    cold = subprocess.run(
        [sys.executable, "-c", COLD_SCRIPT, str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return {"warm_workbench": statistics.median(warm), **json.loads(cold.stdout)}


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def heading(text: str) -> None:
    print(f"\n== {text} ==")


def reference_loop_ms() -> float:
    """CPU ms of a 10^6-step ``for`` loop: how fast this machine runs Python right now."""
    t0 = time.process_time()
    total = 0
    for n in range(1_000_000):
        total += n
    return (time.process_time() - t0) * 1e3


def print_intro(settings: Settings) -> float:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    reference = reference_loop_ms()
    print(
        f"bench_viz: a Workbench on a PRIORITY queue of {settings.depth} messages "
        f"(Expiry mixed, some expired), {settings.reps} timed actions of each kind.\n"
        f"Python {platform.python_version()}, {os.cpu_count()} CPU(s), load average {load}; "
        f"a 10^6-step for loop takes {reference:.0f} ms of CPU here\n"
        "(the absolute numbers depend on all three)."
    )
    return reference


def print_actions(timings: list[ActionTiming]) -> None:
    heading("Action re-render (ms of Python time, median)")
    print(f"{'action':<18}{'model':>9}{'views':>9}{'total':>9}{'/ 50 ms':>9}{'wall':>9}")
    for t in timings:
        total = t.total_ms
        print(
            f"{t.action:<18}{statistics.median(t.model_ms):>9.2f}"
            f"{statistics.median(t.views_ms):>9.2f}{total:>9.2f}"
            f"{total / ACTION_TARGET_MS:>9.2f}{statistics.median(t.wall_ms):>9.2f}"
        )


def print_figures(pure: dict[str, float]) -> None:
    heading("Pure figure functions (ms, median; spec + go.Figure, not used by the widgets)")
    for name, ms in pure.items():
        print(f"{name:<18}{ms:>9.2f}")


def print_open(opened: dict[str, float]) -> None:
    heading("Opening the widgets (s of CPU time)")
    print(
        f"Workbench() with imports done (a notebook's later cells): {opened['warm_workbench']:.2f}"
    )
    print(
        "first Workbench() in a fresh interpreter: "
        f"import mqlearn.viz {opened['import_viz']:.2f} + build {opened['first_workbench']:.2f} "
        f"= {cold_total(opened):.2f}; opening its charts then {opened['open_charts']:.2f} "
        f"(plotly's import; second build {opened['second_workbench']:.2f}; "
        f"wall clock {opened['cold_wall']:.2f})"
    )
    print(
        "plotly.io imports its renderers, which import nbformat and with it\n"
        "jsonschema's format checkers; where rfc3987-syntax is installed (Jupyter's jupyter-events\n"
        "asks for jsonschema[format-nongpl]) that import would compile a grammar, once per\n"
        "process; mqlearn.viz.plotly_setup imports jsonschema without it, so it is not paid here."
    )


def cold_total(opened: dict[str, float]) -> float:
    return opened["import_viz"] + opened["first_workbench"]


def evaluate(timings: list[ActionTiming], opened: dict[str, float]) -> list[dict[str, Any]]:
    targets = [
        {
            "target": f"{t.action}: model + redraw ≤ {ACTION_TARGET_MS:g} ms",
            "ok": t.total_ms <= ACTION_TARGET_MS,
            "detail": f"median {t.total_ms:.1f} ms = {t.total_ms / ACTION_TARGET_MS:.2f} × target",
        }
        for t in timings
    ]
    targets.append(
        {
            "target": f"Workbench() in a running notebook ≤ {OPEN_TARGET_S:g} s",
            "ok": opened["warm_workbench"] <= OPEN_TARGET_S,
            "detail": f"{opened['warm_workbench']:.2f} s",
        }
    )
    targets.append(
        {
            "target": f"first Workbench() in a fresh kernel, imports included ≤ {OPEN_TARGET_S:g} s",
            "ok": cold_total(opened) <= OPEN_TARGET_S,
            "detail": f"{cold_total(opened):.2f} s; its charts opened then: "
            f"{opened['open_charts']:.2f} s more",
        }
    )
    return targets


def print_targets(targets: list[dict[str, Any]]) -> None:
    heading("Targets")
    for t in targets:
        print(f"{verdict(t['ok'])}  {t['target']} ({t['detail']})")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 messages, 3 repetitions")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = QUICK if args.quick else FULL
    reference = print_intro(settings)
    wb = primed_workbench(settings.depth)
    timings = measure_actions(wb, settings.reps)
    print_actions(timings)
    pure = measure_pure_figures(wb, settings.reps)
    print_figures(pure)
    opened = measure_open(settings.open_reps)
    print_open(opened)
    targets = evaluate(timings, opened)
    print_targets(targets)
    if args.json:
        document = {
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
            "reference_loop_ms": reference,
            "settings": asdict(settings),
            "actions": [{**asdict(t), "total_ms": t.total_ms} for t in timings],
            "pure_figures_ms": pure,
            "open_s": opened,
            "targets": targets,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
