"""Pipeline benchmark: the ``mqlearn pipeline`` commands as users run them, against an I/O floor.

Run from the repository root::

    python3 benchmarks/bench_pipeline.py                 # 1M and 5M events, both trace shapes
    python3 benchmarks/bench_pipeline.py --huge          # 20M and 100M (the cli shape) too
    python3 benchmarks/bench_pipeline.py --events 20000000 --shapes cli --rounds 2
    python3 benchmarks/bench_pipeline.py --quick         # 20k events over 50 queues (a smoke test)

What is timed is what a user runs, each command a subprocess of its own, start-up included
(the interpreter, the imports, loading the compiled code, Spark's JVM and Python workers):

- generate: ``python -m mqlearn.cli pipeline generate --out DIR --events N --queues Q [...]``
  (reported, once per trace: traces are cached under ``--data`` by what made them);
- local: ``python -m mqlearn.cli pipeline run --engine local --trace T --queues Q --out O``;
- spark: ``python -m mqlearn.cli pipeline run --master local[2] --trace T --queues Q --out O``,
  with the settings the CLI chooses (its log line is kept in the results).

Each is judged against the **I/O floor** measured in the same round on the same machine: a
child process that reads the trace with pyarrow (every column, in record batches) and writes the
five output tables of that trace with pyarrow's defaults (``pq.ParquetWriter``, snappy), without
any replay; only the reading of the trace and the writing of the tables are timed (the tables are
streamed from the local run's outputs and their reading is not counted). A ratio below 1 means
the command replays the trace in less time than reading it and writing its results with pyarrow's
defaults takes. Ratios hold from one machine to the next where absolute rates do not (the same
code ran 1.9x apart on two machines, issue 27); the ratios of the previous results file are
printed beside the new ones.

Traces: ``cli`` is the CLI's default shape at the given size (``generate --events N --queues
1000``: seed 0, 6 virtual hours, 2 queue managers); ``bench`` is this benchmark's own (seed 2026,
24 hours, 4 queue managers, 1000 queues). Both are laid out as the generator writes them (files
of whole queues), so the streaming replay cuts few queues. Two more are laid out as a queue
manager records a trace, one Parquet file in seq (time) order, where every piece of the
streaming replay cuts every queue and carries its queued messages over: ``seq`` is the CLI's
shape so laid out, ``backlog`` the same with deep backlogs (``--outage-share 1``: every queue's
consumer stops for an hour and a half, then catches up in a burst). Their ratio, local seconds
per event on ``backlog`` over those on ``seq`` in the same round, is the cost of carrying deep
backlogs (1.0: none); the messages queued across the cuts are counted from the outputs. They are
run with the local engine only (Spark would replay their one file in one task), over
``--backlog-rounds`` rounds (min and median printed). Rounds are interleaved (every trace of a
size: local, floor, spark, then the next round) and the 1-minute load average is recorded beside
every figure: on a shared machine only figures of one round compare.

Memory: the summed RSS of each command's process tree (the JVM and Spark's Python workers
included), sampled every 0.2 s; CPU: user + system seconds of every process of the tree.
Start-up: the local engine on a 20k-event trace, with the compiled-code cache warm and cold
(``NUMBA_CACHE_DIR`` pointed at an empty directory: the first run after a bare ``pip install``),
``mqlearn pipeline compile`` into an empty cache (what ``make lab`` pays once) and the first run
after it (not in ``--quick``), and ``mqlearn pipeline --help``.

Targets (issue 27): local <= 0.8x the floor and Spark local[2] <= 1.2x at 20M events, the same
ratios at 100M; peaks <= 2 GiB local, <= 4 GiB for Spark's process tree. It is a report, not a
test: one PASS/FAIL line per target that the sizes run can judge, exit code 0 either way. Results
go to ``benchmarks/results/pipeline.json`` (tables rendered into docs/performance.md).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import results

from mqlearn.pipeline.stream import BATCH_ROWS

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "pipeline.json"
SAMPLE_S = 0.2
GIB = 1024**3
MASTER = "local[2]"
QUEUES = 1000
SIZES = (1_000_000, 5_000_000)
HUGE_SIZES = (*SIZES, 20_000_000, 100_000_000)
QUICK_SIZES = (20_000,)
QUICK_QUEUES = 50
STARTUP_EVENTS = 20_000
# the trace shapes: generate options beyond --events/--queues (none: the CLI's defaults)
SHAPES: dict[str, list[str]] = {
    "cli": [],
    "bench": ["--seed", "2026", "--hours", "24", "--qmgrs", "4"],
    "seq": [],
    "backlog": ["--outage-share", "1"],
}
IN_SEQ_ORDER = ("seq", "backlog")  # rewritten as one file in seq order; local engine only
SEQ_SLICE_ROWS = 4_000_000  # rows taken and written at a time by that rewrite
COMMANDS = ("local", "spark")
TARGETS = {"local": 0.8, "spark": 1.2}  # seconds / floor seconds, at 20M and 100M events
TARGET_SIZES = (20_000_000, 100_000_000)
HUNDRED_M = 100_000_000
PEAK_TARGETS = {"local": 2 * GIB, "spark": 4 * GIB}


# ---------------------------------------------------------------------------------------------
# Child side: the I/O floor.
# ---------------------------------------------------------------------------------------------


def child_floor(trace: Path, outputs: Path, scratch: Path) -> dict[str, Any]:
    """Read the trace (every column, pyarrow's defaults) and write the five tables found in
    ``outputs`` with pyarrow's defaults; only the reading and the writing are timed."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    start = time.perf_counter()
    rows = 0
    for batch in ds.dataset(trace, format="parquet").to_batches():
        rows += batch.num_rows
    read_s = time.perf_counter() - start
    write_s = 0.0
    scratch.mkdir(parents=True, exist_ok=True)
    for table in ("messages", "calls", "depth", "summary", "rejects"):
        source = ds.dataset(outputs / table, format="parquet")
        writer = None
        for batch in source.to_batches():  # reading the outputs back is not counted
            begin = time.perf_counter()
            if writer is None:
                writer = pq.ParquetWriter(scratch / f"{table}.parquet", batch.schema)
            writer.write_batch(batch)
            write_s += time.perf_counter() - begin
        begin = time.perf_counter()
        if writer is None:
            pq.write_table(source.schema.empty_table(), scratch / f"{table}.parquet")
        else:
            writer.close()
        write_s += time.perf_counter() - begin
    return {"rows": rows, "read_s": read_s, "write_s": write_s, "seconds": read_s + write_s}


# ---------------------------------------------------------------------------------------------
# Parent side: subprocesses, their process trees, the report.
# ---------------------------------------------------------------------------------------------


def load() -> float:
    return os.getloadavg()[0]


class Tree(threading.Thread):
    """Samples a process and its descendants: the peak of their summed RSS, and the CPU seconds
    of every process seen (its last sample: a process is sampled until it exits); every SAMPLE_S,
    after a few shorter periods at the start."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.root = psutil.Process(pid)
        self.peak = 0
        self.cpu: dict[int, float] = {}
        self.done = threading.Event()

    def sample(self) -> None:
        try:
            processes = [self.root, *self.root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return
        total = 0
        for process in processes:
            try:
                with process.oneshot():
                    total += process.memory_info().rss
                    times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            self.cpu[process.pid] = times.user + times.system
        self.peak = max(self.peak, total)

    def run(self) -> None:
        wait = SAMPLE_S / 8  # sooner at first, so that a short command is sampled too
        while not self.done.wait(wait):
            self.sample()
            wait = min(2 * wait, SAMPLE_S)


def timed(command: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run a command to its end: wall seconds, peak RSS and CPU of its process tree, its output;
    RuntimeError with its stderr when it fails.

    The tree is sampled every SAMPLE_S (the JVM and Spark's Python workers included), which
    misses the CPU a process spends after its last sample, and all of a command shorter than one
    period. The kernel's own account of the command (``os.wait4``: its CPU and that of the
    descendants it waited for) misses no time but only counts processes that were waited for:
    the CPU is the larger of the two. (The kernel's peak RSS is no help: a child's starts as
    its parent's, this benchmark's, before the command is executed.)"""
    load_before = load()
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err, text=True)
        tree = Tree(process.pid)
        tree.start()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        tree.done.set()
        tree.join()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{stderr[-4000:]}")
    return {
        "seconds": seconds,
        "peak_rss_bytes": tree.peak,
        "cpu_s": max(sum(tree.cpu.values()), usage.ru_utime + usage.ru_stime),
        "load": [round(load_before, 2), round(load(), 2)],
        "stdout": stdout,
        "stderr": stderr,
    }


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "mqlearn.cli", "pipeline", *args]


def environment() -> dict[str, str]:
    """This checkout first on the path (installed or not), as every child sees it."""
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{path}" if path else str(ROOT))


def ensure_trace(data: Path, shape: str, events: int, queues: int) -> tuple[Path, Any]:
    """The trace of this shape and size, generated by the CLI when not cached; the generate
    run's figures (None when cached)."""
    options = [*SHAPES[shape], "--events", str(events), "--queues", str(queues)]
    made_by = options + (["in seq order"] if shape in IN_SEQ_ORDER else [])
    directory = data / f"{shape}-{events}-{queues}"
    key = directory / "made-by.json"
    if key.exists() and json.loads(key.read_text()) == made_by:
        return directory, None
    shutil.rmtree(directory, ignore_errors=True)
    print(f"generating the {shape} trace of {events:,} events ...", flush=True)
    run = timed(cli("generate", "--out", str(directory), "--quiet", *options), environment())
    if shape in IN_SEQ_ORDER:
        in_seq_order(directory / "trace")
    key.write_text(json.dumps(made_by))
    return directory, run


def in_seq_order(trace: Path) -> None:
    """Rewrite a generated trace as one Parquet file in seq order (the generator's seq is time
    order across queues), as a queue manager records its calls."""
    table = ds.dataset(trace, format="parquet").to_table()
    schema = table.schema
    # a take joins each column's chunks first: text past 2 GiB needs 64-bit offsets for that
    wide = pa.schema(
        [f.with_type(pa.large_string()) if f.type == pa.string() else f for f in schema]
    )
    table = table.cast(wide)
    order = pc.sort_indices(table["seq"])
    staged = trace.with_name(trace.name + ".seq")
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir()
    with pq.ParquetWriter(staged / "part-00000.parquet", schema) as writer:
        for lo in range(0, table.num_rows, SEQ_SLICE_ROWS):
            writer.write_table(table.take(order.slice(lo, SEQ_SLICE_ROWS)).cast(schema))
    del table
    shutil.rmtree(trace)
    staged.rename(trace)


def queued_across_cuts(trace: Path, outputs: Path) -> list[int]:
    """Messages queued across each cut of the streaming replay of a trace in seq order (a
    piece is about BATCH_ROWS rows): put before the cut's time and not gone before it."""
    time = ds.dataset(trace, format="parquet").to_table(columns=["time_ms"])["time_ms"]
    cuts = time.to_numpy()[BATCH_ROWS::BATCH_ROWS]
    messages = ds.dataset(outputs / "messages", format="parquet")
    ends = messages.to_table(columns=["put_ms", "end_ms"])
    put = np.sort(ends["put_ms"].to_numpy())
    end = np.sort(ends["end_ms"].drop_null().to_numpy())
    queued = np.searchsorted(put, cuts, "left") - np.searchsorted(end, cuts, "left")
    return [int(n) for n in queued]


def rows_of(stdout: str) -> tuple[int, int, int]:
    """(input, accepted, rejected) from a run's ``N rows: A accepted, R rejected`` line."""
    for line in stdout.splitlines():
        if " rows: " in line and " accepted, " in line:
            head, tail = line.split(" rows: ", 1)
            accepted, rest = tail.split(" accepted, ", 1)
            return int(head), int(accepted), int(rest.split(" rejected", 1)[0])
    raise RuntimeError(f"no row counts in:\n{stdout}")


def run_command(kind: str, trace: Path, out: Path) -> dict[str, Any]:
    shutil.rmtree(out, ignore_errors=True)
    options = ["--trace", str(trace / "trace"), "--queues", str(trace / "queues")]
    options += ["--out", str(out), "--quiet"]
    engine = ["--engine", "local"] if kind == "local" else ["--master", MASTER]
    result = timed(cli("run", *engine, *options), environment())
    result["rows"], result["accepted"], result["rejected"] = rows_of(result.pop("stdout"))
    settings = [line for line in result.pop("stderr").splitlines() if "spark settings:" in line]
    if settings:
        result["settings"] = settings[0]
    return result


def run_floor(trace: Path, outputs: Path, scratch: Path) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child-floor", str(trace / "trace"), str(outputs)]
    result = timed([*command, str(scratch)], environment())
    result.update(json.loads(result.pop("stdout").strip().splitlines()[-1]))
    result.pop("stderr")
    shutil.rmtree(scratch, ignore_errors=True)
    return result


def measure(
    data: Path,
    shapes: list[str],
    events: int,
    queues: int,
    rounds: dict[str, int],
    commands: tuple[str, ...],
) -> list[dict[str, Any]]:
    """Rounds of floor, local and spark on the traces of these shapes at one size, interleaved
    (round k of every trace before round k + 1 of any; ``rounds`` per shape); every run kept."""
    entries = []
    for shape in shapes:
        directory, generated = ensure_trace(data, shape, events, queues)
        entries.append(
            {"shape": shape, "events": events, "generated": generated, "runs": [], "dir": directory}
        )
    with tempfile.TemporaryDirectory(dir=data) as scratch:
        work = Path(scratch)
        for k in range(max(rounds.values())):
            for entry in entries:
                shape = entry["shape"]
                if k >= rounds[shape]:
                    continue
                found: dict[str, Any] = {}
                # the local run first: the floor writes the tables that run wrote
                found["local"] = run_command("local", entry["dir"], work / "local")
                if shape in IN_SEQ_ORDER and k == 0:
                    entry["queued"] = queued_across_cuts(entry["dir"] / "trace", work / "local")
                found["floor"] = run_floor(entry["dir"], work / "local", work / "floor")
                if "spark" in commands and shape not in IN_SEQ_ORDER:
                    found["spark"] = run_command("spark", entry["dir"], work / "spark")
                if "local" not in commands:
                    del found["local"]
                shown = ", ".join(
                    f"{name} {run['seconds']:.1f} s (load {run['load'][0]}-{run['load'][1]})"
                    for name, run in found.items()
                )
                print(f"  {shape} {events:,} round {k + 1}: {shown}", flush=True)
                entry["runs"].append(found)
    for entry in entries:
        del entry["dir"]
    return entries


def startup(data: Path, queues: int, cold: bool) -> dict[str, Any]:
    """The local engine on a small trace with the compiled-code cache warm (then cold: an empty
    cache, as on the first run after an install), and ``--help``."""
    directory, _ = ensure_trace(data, "cli", STARTUP_EVENTS, queues)
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(dir=data) as scratch:
        run_command("local", directory, Path(scratch) / "out")  # the cache filled, if it was not
        found["warm"] = run_command("local", directory, Path(scratch) / "out")
        if cold:
            options = ["--trace", str(directory / "trace"), "--queues", str(directory / "queues")]
            command = cli("run", "--engine", "local", *options, "--quiet", "--out")
            cache = {"cold": "numba-cold", "compile": "numba-compiled"}
            env = {
                k: dict(environment(), NUMBA_CACHE_DIR=str(Path(scratch) / v))
                for k, v in cache.items()
            }
            found["cold"] = timed([*command, str(Path(scratch) / "cold")], env["cold"])
            found["compile"] = timed(cli("compile"), env["compile"])
            found["first"] = timed([*command, str(Path(scratch) / "first")], env["compile"])
        found["help"] = timed(cli("--help"), environment())
    return found


# ---------------------------------------------------------------------------------------------
# The report: ratios, previous ratios, targets, the results file.
# ---------------------------------------------------------------------------------------------


def ratio(run: dict[str, Any], floor: dict[str, Any]) -> float:
    return float(run["seconds"] / floor["seconds"])


def summary(entry: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """One command on one trace over its rounds: median ratio to its round's floor, every
    ratio, the highest peak, CPU per 1M events, the load range."""
    pairs = [(round_[kind], round_["floor"]) for round_ in entry["runs"] if kind in round_]
    if not pairs:
        return None
    ratios = [ratio(run, floor) for run, floor in pairs]
    loads = [value for run, _ in pairs for value in run["load"]]
    rows = pairs[0][0].get("rows", pairs[0][1]["rows"])
    return {
        "ratio": statistics.median(ratios),
        "ratios": ratios,
        "seconds": statistics.median(run["seconds"] for run, _ in pairs),
        "floor_s": statistics.median(floor["seconds"] for _, floor in pairs),
        "peak": max(run["peak_rss_bytes"] for run, _ in pairs),
        "cpu_per_m": statistics.median(run["cpu_s"] for run, _ in pairs) / rows * 1e6,
        "rows": rows,
        "load": f"{min(loads):.1f}-{max(loads):.1f}",
        "settings": pairs[0][0].get("settings", ""),
    }


def previous_ratios(path: Path) -> dict[tuple[str, int, str], float]:
    """(shape, events, command) -> ratio to the floor, from an earlier results file."""
    if not path.exists():
        return {}
    try:
        document = json.loads(path.read_text())
        table = next(t for t in document["tables"] if t["title"].startswith("CLI end to end"))
        at = {name: k for k, name in enumerate(table["columns"])}
        return {
            (row[at["trace"]], int(row[at["events"]]), row[at["command"]]): float(
                row[at["x floor"]]
            )
            for row in table["rows"]
            if row[at["command"]] in COMMANDS
        }
    except (KeyError, ValueError, StopIteration, json.JSONDecodeError):
        return {}


def gib(n: float) -> str:
    return f"{n / GIB:.2f}"


def report(
    entries: list[dict[str, Any]], boot: dict[str, Any] | None, before: dict[Any, float]
) -> tuple[list[dict[str, Any]], list[tuple[bool, str]]]:
    """Print the tables and the verdicts; the tables in the results file's shape."""
    columns = ["trace", "events", "command", "seconds", "x floor", "previous x floor", "rounds"]
    columns += ["peak GiB", "CPU s per 1M events", "load"]
    rows: list[list[Any]] = []
    for entry in entries:
        floor = summary(entry, "floor")
        assert floor is not None
        shape, events = entry["shape"], entry["events"]
        rows.append(
            [
                shape,
                events,
                "floor",
                round(floor["seconds"], 2),
                1.0,
                None,
                len(entry["runs"]),
                gib(floor["peak"]),
                round(floor["cpu_per_m"], 2),
                floor["load"],
            ]
        )
        for kind in COMMANDS:
            found = summary(entry, kind)
            if found is None:
                continue
            shown = ", ".join(f"{r:.2f}" for r in found["ratios"])
            rows.append(
                [
                    shape,
                    events,
                    kind,
                    round(found["seconds"], 2),
                    round(found["ratio"], 3),
                    before.get((shape, events, kind)),
                    shown,
                    gib(found["peak"]),
                    round(found["cpu_per_m"], 2),
                    found["load"],
                ]
            )
    print("\n== CLI end to end against the I/O floor (ratio: seconds / floor seconds) ==")
    widths = [6, 12, 6, 9, 8, 17, 18, 9, 20, 9]
    print(" ".join(f"{name:>{w}}" for name, w in zip(columns, widths, strict=True)))
    for row in rows:
        cells = ["-" if v is None else f"{v:,}" if isinstance(v, int) else str(v) for v in row]
        print(" ".join(f"{cell:>{w}}" for cell, w in zip(cells, widths, strict=True)))
    settings = {
        (e["shape"], e["events"]): s["settings"]
        for e in entries
        if (s := summary(e, "spark")) is not None
    }
    if settings:
        print("\nSpark settings the CLI chose:")
        for (shape, events), line in settings.items():
            print(f"  {shape} {events:,}: {line}")
    generated = [
        [
            e["shape"],
            e["events"],
            round(e["generated"]["seconds"], 1),
            gib(e["generated"]["peak_rss_bytes"]),
        ]
        for e in entries
        if e.get("generated")
    ]
    if generated:
        print("\nGenerated now (`pipeline generate`, Spark, end to end):")
        for shape, events, seconds, peak in generated:
            print(f"  {shape} {events:,}: {seconds} s, peak {peak} GiB")
    tables = [
        {
            "title": "CLI end to end against the I/O floor",
            "columns": columns,
            "rows": rows,
            "notes": (
                "Each command a subprocess, start-up included; 'x floor' is its median over the "
                "rounds of seconds / the I/O floor's seconds in the same round (reading the trace "
                "and writing the five output tables with pyarrow's defaults, no replay); "
                f"'rounds' lists each round's ratio. Spark runs on {MASTER} with the settings the "
                "CLI chose. Load: the 1-minute load average before and after the runs."
            ),
        }
    ]
    if generated:
        tables.append(
            {
                "title": "Trace generation (pipeline generate, end to end)",
                "columns": ["trace", "events", "seconds", "peak GiB"],
                "rows": generated,
                "notes": "Only traces generated in this run (the others were cached).",
            }
        )
    if boot is not None:
        boot_rows = [
            [
                name,
                round(run["seconds"], 2),
                round(run["cpu_s"], 2),
                gib(run["peak_rss_bytes"]),
                f"{run['load'][0]}-{run['load'][1]}",
            ]
            for name, run in boot.items()
        ]
        print(f"\n== Start-up: run --engine local on {STARTUP_EVENTS:,} events, and --help ==")
        for row in boot_rows:
            print(
                f"  {row[0]:>7}: {row[1]} s wall, {row[2]} CPU s, peak {row[3]} GiB, load {row[4]}"
            )
        tables.append(
            {
                "title": "Start-up (a small trace: the fixed cost of every run)",
                "columns": ["run", "seconds", "CPU s", "peak GiB", "load"],
                "rows": boot_rows,
                "notes": (
                    f"warm: run --engine local on {STARTUP_EVENTS:,} events with the compiled "
                    "code cached; cold: the same with an empty NUMBA_CACHE_DIR (the first run "
                    "after a bare pip install compiles); compile: mqlearn pipeline compile into "
                    "an empty cache (make lab and Binder run it once, after installing); first: "
                    "the first run after it; help: mqlearn pipeline --help."
                ),
            }
        )
    backlog = backlog_rows(entries)
    if backlog:
        tables.append(backlog_table(backlog))
    found = verdicts(entries)
    print("\n== Targets ==")
    for ok, text in found:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    tables.append(
        {
            "title": "Targets (issue 27)",
            "columns": ["verdict", "target"],
            "rows": [["PASS" if ok else "FAIL", text] for ok, text in found],
            "notes": "Judged at the sizes this run measured.",
        }
    )
    return tables, found


BACKLOG_COLUMNS = [
    "events",
    "queued across a cut, mean",
    "max",
    "seq s (min / median)",
    "backlog s (min / median)",
    "backlog / seq per event (min / median)",
    "backlog / seq CPU per event (min / median)",
    "backlog x floor",
]


def backlog_rows(entries: list[dict[str, Any]]) -> list[list[Any]]:
    """Per size run with both the seq and the backlog traces: the messages queued across the
    cuts of the backlog trace, the local seconds on each (min and median over the rounds), and
    per round the cost per event on the backlog trace over that on the seq trace."""
    by = {(entry["shape"], entry["events"]): entry for entry in entries}
    rows = []
    for (shape, events), entry in by.items():
        plain = by.get(("seq", events))
        if shape != "backlog" or plain is None:
            continue
        pairs = [
            (deep["local"], flat["local"])
            for deep, flat in zip(entry["runs"], plain["runs"], strict=False)
            if "local" in deep and "local" in flat
        ]
        if not pairs:
            continue
        per_event = [
            (deep["seconds"] / deep["rows"]) / (flat["seconds"] / flat["rows"])
            for deep, flat in pairs
        ]
        cpu_per_event = [
            (deep["cpu_s"] / deep["rows"]) / (flat["cpu_s"] / flat["rows"]) for deep, flat in pairs
        ]
        queued = entry.get("queued") or [0]
        floor = summary(entry, "local")
        rows.append(
            [
                events,
                round(statistics.mean(queued)),
                max(queued),
                spread([flat["seconds"] for _, flat in pairs], 2),
                spread([deep["seconds"] for deep, _ in pairs], 2),
                spread(per_event, 3),
                spread(cpu_per_event, 3),
                None if floor is None else round(floor["ratio"], 3),
            ]
        )
    return rows


def spread(values: list[float], digits: int) -> str:
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f}"


def backlog_table(rows: list[list[Any]]) -> dict[str, Any]:
    """Print the deep-backlog table; it in the results file's shape."""
    print(
        "\n== Deep backlogs: local, the backlog trace against the seq trace (both in seq order) =="
    )
    for row in rows:
        print(
            f"  {row[0]:,} events: {row[1]:,} messages queued across a cut on average, "
            f"{row[2]:,} at most; seq {row[3]} s, backlog {row[4]} s (min / median); "
            f"cost per event backlog / seq {row[5]} in seconds, {row[6]} in CPU seconds; "
            f"backlog {row[7]}x the floor"
        )
    return {
        "title": "Deep backlogs (local engine, traces in seq order)",
        "columns": BACKLOG_COLUMNS,
        "rows": rows,
        "notes": (
            "The seq trace is the CLI's shape and the backlog trace the same with every "
            "consumer stopped for a quarter of the span (--outage-share 1), both rewritten as "
            f"one Parquet file in seq order, so that every piece of about {BATCH_ROWS:,} rows "
            "cuts every queue. Queued across a cut: messages put before a cut's time and not "
            "gone before it (from the local run's outputs). The per-event ratio is taken round "
            "by round (the two traces run one after the other in each round), in wall seconds and "
            "in CPU seconds of the process (steadier on a shared machine); 1.0 means deep "
            "backlogs cost nothing per event."
        ),
    }


def verdicts(entries: list[dict[str, Any]]) -> list[tuple[bool, str]]:
    """One PASS/FAIL per target: the ratio at 20M and 100M (else at the largest size run), the
    peaks at every size."""
    found: list[tuple[bool, str]] = []
    for shape in dict.fromkeys(e["shape"] for e in entries):
        mine = [e for e in entries if e["shape"] == shape]
        judged = [e for e in mine if e["events"] in TARGET_SIZES] or mine[-1:]
        for entry in judged:
            for kind, limit in TARGETS.items():
                got = summary(entry, kind)
                if got is None:
                    continue
                label = "local" if kind == "local" else f"Spark {MASTER}"
                text = (
                    f"{label} on the {shape} trace of {entry['events']:,} events: "
                    f"{got['ratio']:.2f}x the I/O floor (target <= {limit}, load {got['load']})"
                )
                found.append((got["ratio"] <= limit, text))
        for kind, limit in PEAK_TARGETS.items():
            peaks = [(e["events"], s["peak"]) for e in mine if (s := summary(e, kind)) is not None]
            if peaks:
                events, peak = max(peaks, key=lambda p: p[1])
                text = (
                    f"{kind} peak on the {shape} traces: {gib(peak)} GiB at {events:,} events "
                    f"(target <= {gib(limit)} GiB{', process tree' if kind == 'spark' else ''})"
                )
                found.append((peak <= limit, text))
    return found


def machine() -> dict[str, Any]:
    """results.machine(), with the load at the start as numbers (each run prints its own)."""
    return results.machine() | {"load": [round(value, 2) for value in os.getloadavg()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small traces: a smoke test")
    parser.add_argument("--huge", action="store_true", help="also 20M and 100M events")
    parser.add_argument("--events", type=int, nargs="+", help="trace sizes (default 1M 5M)")
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    parser.add_argument(
        "--hundred-m-shapes",
        nargs="+",
        choices=list(SHAPES),
        default=["cli"],
        help="shapes run at 100M events and more (default: the CLI's only)",
    )
    parser.add_argument(
        "--hundred-m-rounds", type=int, default=1, help="rounds at 100M events and more"
    )
    parser.add_argument("--commands", nargs="+", choices=COMMANDS, default=list(COMMANDS))
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds per trace")
    parser.add_argument(
        "--backlog-rounds",
        type=int,
        default=5,
        help="rounds of the seq and backlog traces (min and median printed)",
    )
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up runs")
    parser.add_argument("--data", default=str(Path(tempfile.gettempdir()) / "mqlearn-bench"))
    parser.add_argument(
        "--results",
        help=f"results file (default {RESULTS.relative_to(ROOT)}; --quick writes none unless given)",
    )
    parser.add_argument("--json", help="every run's figures, as measured, to this file")
    parser.add_argument("--child-floor", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_floor:
        print(json.dumps(child_floor(*(Path(p) for p in args.child_floor))))
        return

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    if args.quick:
        sizes, queues = QUICK_SIZES, QUICK_QUEUES
    else:
        sizes, queues = tuple(args.events or (HUGE_SIZES if args.huge else SIZES)), QUEUES
    results = Path(args.results) if args.results else None if args.quick else RESULTS
    before = previous_ratios(results or RESULTS)
    about = machine()
    print(
        f"Pipeline benchmark (the CLI end to end): {about['cpu']}, {about['cores']} CPUs, "
        f"Python {about['python']}, load {about['load']}; traces cached in {data}"
    )
    boot = None if args.no_startup else startup(data, queues, cold=not args.quick)
    entries: list[dict[str, Any]] = []
    for events in sizes:
        shapes = args.shapes if events < HUNDRED_M else args.hundred_m_shapes
        rounds = {
            shape: args.hundred_m_rounds
            if events >= HUNDRED_M
            else args.backlog_rounds
            if shape in IN_SEQ_ORDER
            else args.rounds
            for shape in shapes
        }
        entries += measure(data, shapes, events, queues, rounds, tuple(args.commands))
        with contextlib.redirect_stdout(io.StringIO()):  # what is measured so far is kept
            save(results, args.json, about, report(entries, boot, before)[0], boot, entries)
    save(results, args.json, about, report(entries, boot, before)[0], boot, entries)
    if results is not None:
        print(f"\nresults in {results}")


def save(
    results: Path | None,
    runs: str | None,
    about: dict[str, Any],
    tables: list[dict[str, Any]],
    boot: dict[str, Any] | None,
    entries: list[dict[str, Any]],
) -> None:
    """The results file (the tables, in the shape tools/performance_doc.py renders) and, when
    asked, every run's figures."""
    if results is not None:
        results.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "benchmark": "pipeline",
            "measured": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "machine": about
            | {"load": {"start": about["load"], "end": [round(v, 2) for v in os.getloadavg()]}},
            "tables": tables,
        }
        results.write_text(json.dumps(document, indent=2) + "\n")
    if runs:
        Path(runs).write_text(json.dumps({"startup": boot, "traces": entries}, indent=2))


if __name__ == "__main__":
    main()
