"""Pipeline benchmark: the streaming single-process replay against the pandas one and Spark.

Run from the repository root::

    python3 benchmarks/bench_pipeline.py            # 1M and 5M events over 1 000 queues
    python3 benchmarks/bench_pipeline.py --huge     # also 20M and 100M events (not single)
    python3 benchmarks/bench_pipeline.py --events 1000000 --spark-events 1000000
    python3 benchmarks/bench_pipeline.py --quick    # 20k events over 50 queues (a smoke test)
    python3 benchmarks/bench_pipeline.py --json results.json --data /big/disk/mqlearn-bench

Traces are generated once (by the Spark generator, seed 2026, 24 virtual hours) and cached under
``--data`` (default: the temp directory's ``mqlearn-bench``). Every measurement runs in a child
process while this one samples the resident memory of the child's whole process tree (the JVM
and Spark's Python workers included) every 0.2 s, so each run's peak is its own.

- stream: ``replay_files`` path to path (``mqlearn pipeline run --engine local``): read the
  Parquet trace, validate, replay and write the five tables, in pieces of BATCH_ROWS rows.
- single (the baseline): read the Parquet trace into pandas, ``replay_local``, write the five
  tables as Parquet with pyarrow: everything in memory at once, so not run above SINGLE_MAX.
- spark: ``replay_spark`` on ``local[2]`` with a 4 GB JVM heap (``spark.driver.memory``; in local
  mode the executors live in the driver's JVM). Tasks send back one row of counts each: nothing
  else is collected to the driver.

Not counted in events/s: the interpreter's start, imports, the Spark session's start (reported;
it counts in the 100M-in-90-s target), and a warm-up replay of the first rows of two files
(compiled code loaded, both Python workers started). single and stream run ``--repeat`` times
(the fastest run counts, the highest peak); spark once. Generation time is reported, not counted.

Targets (issue 14): streaming replay >= 2M events/s end to end at 20M events (the largest size
run up to that) with a peak RSS <= 2 GiB, the same peak at the largest size as at the one before
(within 25 %: 100M against 20M with --huge); Spark local[2] >= 1.5M events/s end to end at the
largest size, not falling as the trace grows, JVM heap and process tree <= 4 GiB, 100M events
in <= 90 s with the session start, and at least as fast as the single-process run. An older
check of the benchmark's own, from before issue 14: replay_local >= 1M events/s. It is a
report, not a test: it prints a PASS/FAIL line per target and exits 0 either way.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # measure this checkout, installed or not
    sys.path.insert(0, str(ROOT))

SEED = 2026
HOURS = 24.0
QMGRS = 4
SIZES = (1_000_000, 5_000_000)
HUGE_SIZES = (*SIZES, 20_000_000, 100_000_000)
SINGLE_MAX = 5_000_000  # replay_local holds the whole trace in pandas: 16.8 GiB at 20M events
QUEUES = 1000
QUICK_SIZES = (20_000,)
QUICK_QUEUES = 50
MODES = ("stream", "single", "spark")
MASTER = "local[2]"
HEAP = "4g"
HEAP_BYTES = 4 * 1024**3
SAMPLE_S = 0.2
WARM_UP_ROWS = 5000
STREAM_TARGET = 2_000_000  # events/s end to end
STREAM_RSS_TARGET = 2 * 1024**3
FLAT_RSS_TARGET = 1.25  # peak at the largest size / peak at the smallest
SINGLE_TARGET = 1_000_000  # events/s of replay_local
STREAM_TARGET_EVENTS = 20_000_000  # issue 14 sets the streaming rate at 20M events
SPARK_RATIO_TARGET = 1.0  # Spark end-to-end / single end-to-end at the largest size
SPARK_TARGET = 1_500_000  # events/s end to end on local[2]
SPARK_TREE_TARGET = 4 * 1024**3  # process tree (JVM and Python workers)
FLAT_RATE_TARGET = 0.9  # events/s at the largest size / at the one before
HUNDRED_M = 100_000_000
HUNDRED_M_SECONDS = 90.0  # session start included


# ---------------------------------------------------------------------------------------------
# Child side: one measurement, results as JSON on the last stdout line.
# ---------------------------------------------------------------------------------------------


def _cache_key(events: int, queues: int) -> dict[str, Any]:
    """What a cached trace was made from; any change regenerates it."""
    from mqlearn.pipeline.generate import FILE_ROWS

    return {"events": events, "queues": queues, "seed": SEED, "file_rows": FILE_ROWS}


def spec_for(events: int, queues: int) -> Any:
    from mqlearn.pipeline.generate import TraceSpec

    return TraceSpec(seed=SEED, events=events, queues=queues, qmgrs=QMGRS, hours=HOURS)


def tree_cpu() -> float:
    """CPU seconds (user + system) used so far by this process and its live descendants (the
    JVM and Spark's Python workers): less sensitive than wall time to other work on the machine."""
    total = 0.0
    for process in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def child_generate(directory: Path, events: int, queues: int) -> dict[str, Any]:
    from mqlearn.pipeline.generate import generate
    from mqlearn.pipeline.spark import session

    spark = session(MASTER, conf={"spark.driver.memory": HEAP})
    start = time.perf_counter()
    written = generate(spark, spec_for(events, queues), directory)
    seconds = time.perf_counter() - start
    (directory / "spec.json").write_text(json.dumps(_cache_key(events, queues)))
    return {"rows": written.rows, "seconds": seconds}


def child_single(directory: Path, out: Path) -> dict[str, Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mqlearn.pipeline import OUTPUT_COLUMNS, TRACE_COLUMNS, replay_local
    from mqlearn.pipeline.spark import arrow_schema, arrow_to_pandas

    start, cpu = time.perf_counter(), tree_cpu()
    trace = arrow_to_pandas(pq.read_table(directory / "trace"), TRACE_COLUMNS)
    queues = pq.read_table(directory / "queues").to_pandas()
    read_s, cpu = time.perf_counter() - start, tree_cpu() - cpu
    replay_local(trace.head(1000), queues)  # load the compiled kernel before timing
    start, cpu = time.perf_counter(), tree_cpu() - cpu
    result = replay_local(trace, queues)
    replay_s = time.perf_counter() - start
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in result.tables().items():
        table = pa.Table.from_pandas(frame, schema=arrow_schema(OUTPUT_COLUMNS[name]))
        pq.write_table(table, out / f"{name}.parquet")
    write_s, cpu = time.perf_counter() - start, tree_cpu() - cpu
    return {
        "rows": len(trace),
        "read_s": read_s,
        "replay_s": replay_s,
        "write_s": write_s,
        "seconds": read_s + replay_s + write_s,
        "cpu_s": cpu,
    }


def warm_up_trace(directory: Path, out: Path) -> Path:
    """The first rows of the trace's first two files (which hold different queues), as two
    files, for a warm-up replay: two Spark tasks, so both Python workers of local[2] start and
    load the compiled code."""
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    sample = out / "warm-up"
    sample.mkdir(parents=True, exist_ok=True)
    for k, path in enumerate(ds.dataset(directory / "trace").files[:2]):
        rows = pq.ParquetFile(path).iter_batches(batch_size=WARM_UP_ROWS // 2)
        pq.write_table(pa.Table.from_batches([next(rows)]), sample / f"part-{k}.parquet")
    return sample


def child_stream(directory: Path, out: Path) -> dict[str, Any]:
    import resource

    from mqlearn.pipeline.stream import BATCH_ROWS, replay_files

    replay_files(warm_up_trace(directory, out), directory / "queues", out / "warm-up-out")
    start, cpu = time.perf_counter(), tree_cpu()
    result = replay_files(directory / "trace", directory / "queues", out / "replay")
    seconds, cpu = time.perf_counter() - start, tree_cpu() - cpu
    return {
        "rows": result.input_rows,
        "accepted": result.accepted,
        "rejected": result.rejected,
        "pieces": result.pieces,
        "batch_rows": BATCH_ROWS,
        "regrouped": result.regrouped,
        "seconds": seconds,
        "cpu_s": cpu,
        "max_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def child_spark(directory: Path, out: Path) -> dict[str, Any]:
    from mqlearn.pipeline.spark import session
    from mqlearn.pipeline.spark_replay import replay_spark

    start = time.perf_counter()
    spark = session(MASTER, conf={"spark.driver.memory": HEAP})
    session_s = time.perf_counter() - start
    heap = spark.sparkContext._jvm.java.lang.Runtime.getRuntime().maxMemory()  # type: ignore[union-attr]
    # warm up as the single-process runs do: Python workers started, the kernel loaded
    start = time.perf_counter()
    replay_spark(spark, warm_up_trace(directory, out), directory / "queues", out / "warm-up-out")
    warm_up_s = time.perf_counter() - start
    start, cpu = time.perf_counter(), tree_cpu()
    result = replay_spark(spark, directory / "trace", directory / "queues", out / "replay")
    replay_s, cpu = time.perf_counter() - start, tree_cpu() - cpu
    spark.stop()
    return {
        "rows": result.input_rows,
        "accepted": result.accepted,
        "rejected": result.rejected,
        "tasks": result.partitions,
        "session_s": session_s,
        "warm_up_s": warm_up_s,
        "seconds": replay_s,
        "cpu_s": cpu,
        "heap_max_bytes": int(heap),
        "collected_rows": result.partitions,  # one row of counts per task
    }


CHILDREN = {"stream": child_stream, "single": child_single, "spark": child_spark}


def child_main(args: argparse.Namespace) -> None:
    directory = Path(args.dir)
    out = Path(args.scratch)
    if args.child == "generate":
        result = child_generate(directory, args.events[0], args.queues)
    else:
        result = CHILDREN[args.child](directory, out)
    print(json.dumps(result))


# ---------------------------------------------------------------------------------------------
# Parent side: children, memory sampling, the report.
# ---------------------------------------------------------------------------------------------


class TreeMemory(threading.Thread):
    """Samples the summed RSS of a process and all its descendants; keeps the peak."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.root = psutil.Process(pid)
        self.peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(SAMPLE_S):
            try:
                processes = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            total = 0
            for process in processes:
                try:
                    total += process.memory_info().rss
                except psutil.NoSuchProcess:
                    continue
            self.peak = max(self.peak, total)


def run_child(kind: str, directory: Path, scratch: Path, **extra: Any) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", kind, "--dir", str(directory)]
    command += ["--scratch", str(scratch)]
    for key, value in extra.items():
        command += [f"--{key}", str(value)]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    sampler = TreeMemory(process.pid)
    sampler.start()
    stdout, stderr = process.communicate()
    sampler.done.set()
    sampler.join()
    if process.returncode != 0:
        raise RuntimeError(f"{kind} run failed ({process.returncode}):\n{stderr[-4000:]}")
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    result["peak_rss_bytes"] = sampler.peak
    return result


def ensure_trace(data: Path, events: int, queues: int) -> tuple[Path, dict[str, Any] | None]:
    """The cached trace directory for this size, generated first if missing."""
    directory = data / f"trace-{events}-{queues}"
    spec = directory / "spec.json"
    if spec.exists() and json.loads(spec.read_text()) == _cache_key(events, queues):
        return directory, None
    print(f"generating {events:,} events over {queues} queues into {directory} ...", flush=True)
    return directory, run_child("generate", directory, directory, events=events, queues=queues)


def gib(n: float) -> str:
    return f"{n / 1024**3:.2f} GiB"


def rate(rows: int, seconds: float) -> float:
    return rows / seconds if seconds > 0 else float("inf")


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The fastest of repeated runs, with the highest peak RSS of them all."""
    fastest = dict(min(runs, key=lambda run: run["seconds"]))
    fastest["peak_rss_bytes"] = max(run["peak_rss_bytes"] for run in runs)
    fastest["repeats"] = len(runs)
    return fastest


def measure(
    data: Path, events: int, queues: int, modes: tuple[str, ...], repeat: int
) -> dict[str, Any]:
    directory, generated = ensure_trace(data, events, queues)
    entry: dict[str, Any] = {"events": events, "queues": queues, "generated": generated}
    for mode in modes:
        runs = []
        for k in range(1 if mode == "spark" else repeat):
            print(f"  {mode} replay of {events:,} events ({k + 1}) ...", flush=True)
            with tempfile.TemporaryDirectory(dir=data) as scratch:
                runs.append(run_child(mode, directory, Path(scratch)))
            print(f"    {json.dumps(runs[-1])}", flush=True)
        entry[mode] = best(runs)
    return entry


def _row(label: str, values: list[str]) -> str:
    return f"{label:>16} " + " ".join(f"{v:>14}" for v in values)


def report(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Print the tables and the verdicts; returns the verdicts."""
    for entry in entries:
        for mode in MODES:
            if mode in entry:
                run = entry[mode]
                run["end_to_end_eps"] = rate(run["rows"], run["seconds"])
    sizes = [f"{entry['events']:,}" for entry in entries]

    def per_size(mode: str, show: Any) -> list[str]:
        return [show(entry[mode]) if mode in entry else "-" for entry in entries]

    print("\n== Events/s end to end (read, validate, replay, write the five tables) ==")
    print(_row("events", sizes))
    for mode in MODES:
        print(_row(mode, per_size(mode, lambda run: f"{run['end_to_end_eps']:,.0f}")))
    replay_only = per_size("single", lambda run: f"{rate(run['rows'], run['replay_s']):,.0f}")
    print(_row("(replay_local)", replay_only))
    generated = [
        f"{entry['generated']['seconds']:,.0f} s" if entry.get("generated") else "cached"
        for entry in entries
    ]
    print(_row("(generation)", generated))
    print("\n== CPU seconds per 1M events (the process tree: JVM and Python workers included) ==")
    print(_row("events", sizes))
    for mode in MODES:
        print(_row(mode, per_size(mode, lambda run: f"{run['cpu_s'] / run['rows'] * 1e6:.2f}")))
    print("\n== Peak RSS of the process tree ==")
    print(_row("events", sizes))
    for mode in MODES:
        print(_row(mode, per_size(mode, lambda run: gib(run["peak_rss_bytes"]))))
    print("\n== Ratios (end to end) ==")
    print(_row("events", sizes))
    for top, bottom in (("stream", "single"), ("spark", "single"), ("spark", "stream")):
        ratios = [
            f"{entry[top]['end_to_end_eps'] / entry[bottom]['end_to_end_eps']:.2f}"
            if top in entry and bottom in entry
            else "-"
            for entry in entries
        ]
        print(_row(f"{top} / {bottom}", ratios))
    return verdicts(entries)


def rate_at_largest(
    runs: list[dict[str, Any]], mode: str, target: int, at_most: int | None = None
) -> tuple[bool, str]:
    """The end-to-end rate target of one mode, judged at the largest size it ran (up to
    ``at_most`` events when given: the size the issue names)."""
    within = [e for e in runs if at_most is None or e["events"] <= at_most]
    last = (within or runs)[-1]
    eps = last[mode]["end_to_end_eps"]
    text = f"{mode} {eps:,.0f} events/s end to end >= {target / 1e6:g}M (at {last['events']:,})"
    return eps >= target, text


def verdicts(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One PASS/FAIL line per target that these runs can judge."""
    found: list[tuple[bool, str]] = []
    streamed = [e for e in entries if "stream" in e]
    if streamed:
        last = streamed[-1]
        found.append(rate_at_largest(streamed, "stream", STREAM_TARGET, STREAM_TARGET_EVENTS))
        peak = max(e["stream"]["peak_rss_bytes"] for e in streamed)
        found.append((peak <= STREAM_RSS_TARGET, f"streaming replay peak RSS {gib(peak)} <= 2 GiB"))
        if len(streamed) > 1:
            before = streamed[-2]
            growth = last["stream"]["peak_rss_bytes"] / before["stream"]["peak_rss_bytes"]
            text = (
                f"streaming peak RSS at {last['events']:,} events is {growth:.2f}x the peak at "
                f"{before['events']:,} (target <= {FLAT_RSS_TARGET})"
            )
            found.append((growth <= FLAT_RSS_TARGET, text))
    single = [e for e in entries if "single" in e]
    if single:
        last = single[-1]
        eps = rate(last["single"]["rows"], last["single"]["replay_s"])
        text = f"replay_local {eps:,.0f} events/s >= 1M (at {last['events']:,})"
        found.append((eps >= SINGLE_TARGET, text))
    compared = [e for e in entries if "single" in e and "spark" in e]
    if compared:
        last = compared[-1]
        ratio = last["spark"]["end_to_end_eps"] / last["single"]["end_to_end_eps"]
        text = (
            f"Spark local[2] at {last['events']:,} is {ratio:.2f}x the single-process run "
            "(target >= 1)"
        )
        found.append((ratio >= SPARK_RATIO_TARGET, text))
    sparked = [e for e in entries if "spark" in e]
    if sparked:
        last = sparked[-1]
        found.append(rate_at_largest(sparked, "spark", SPARK_TARGET))
        if len(sparked) > 1:
            ratio = last["spark"]["end_to_end_eps"] / sparked[-2]["spark"]["end_to_end_eps"]
            text = (
                f"Spark events/s at {last['events']:,} is {ratio:.2f}x the rate at "
                f"{sparked[-2]['events']:,} (target >= {FLAT_RATE_TARGET}: no fall as it grows)"
            )
            found.append((ratio >= FLAT_RATE_TARGET, text))
    for entry in sparked:
        run = entry["spark"]
        within = (
            run["heap_max_bytes"] <= HEAP_BYTES
            and run["peak_rss_bytes"] <= SPARK_TREE_TARGET
            and run["rows"] == run["accepted"] + run["rejected"]
        )
        text = (
            f"{entry['events']:,} events replayed by Spark with a {gib(run['heap_max_bytes'])} "
            f"JVM heap (<= 4 GiB), process tree {gib(run['peak_rss_bytes'])} (<= 4 GiB), "
            f"{run['collected_rows']} rows collected (task counts)"
        )
        found.append((within, text))
        if entry["events"] >= HUNDRED_M:
            total = run["session_s"] + run["seconds"]
            text = f"{entry['events']:,} events in {total:.0f} s with the session start (<= 90 s)"
            found.append((total <= HUNDRED_M_SECONDS, text))
    print("\n== Targets ==")
    for ok, text in found:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return [{"ok": ok, "target": text} for ok, text in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small traces: a smoke test")
    parser.add_argument("--huge", action="store_true", help="also 20M and 100M events")
    parser.add_argument("--events", type=int, nargs="+", help="trace sizes (default 1M 5M)")
    parser.add_argument("--spark-events", type=int, nargs="*", help="sizes Spark runs at (all)")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--repeat", type=int, default=3, help="runs of stream and single")
    parser.add_argument("--data", default=str(Path(tempfile.gettempdir()) / "mqlearn-bench"))
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--child", choices=("generate", *MODES), help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)
    parser.add_argument("--queues", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    if args.quick:
        sizes, queues = QUICK_SIZES, QUICK_QUEUES
    else:
        sizes, queues = tuple(args.events or (HUGE_SIZES if args.huge else SIZES)), QUEUES
    spark_sizes = set(sizes if args.spark_events is None else args.spark_events)
    print(
        f"Pipeline benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, traces of {queues} queues over {HOURS:g} virtual hours "
        f"(seed {SEED}), cached in {data}"
    )
    entries = []
    for events in sizes:
        modes = tuple(
            mode
            for mode in args.modes
            if (mode != "single" or events <= SINGLE_MAX)
            and (mode != "spark" or events in spark_sizes)
        )
        entries.append(measure(data, events, queues, modes, args.repeat))
    found = report(entries)
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": entries, "targets": found}, indent=2))


if __name__ == "__main__":
    main()
