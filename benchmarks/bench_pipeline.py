"""Pipeline benchmark: single-process replay against Spark ``local[2]`` on generated traces.

Run from the repository root::

    python3 benchmarks/bench_pipeline.py            # 1M, 5M and 20M events over 1 000 queues
    python3 benchmarks/bench_pipeline.py --huge     # also 100M events, JVM heap 4 GB
    python3 benchmarks/bench_pipeline.py --quick    # 20k events over 50 queues (a smoke test)
    python3 benchmarks/bench_pipeline.py --json results.json --data /big/disk/mqlearn-bench

Traces are generated once (by the Spark generator, seed 2026, 24 virtual hours) and cached under
``--data`` (default: the temp directory's ``mqlearn-bench``). Every measurement runs in a child
process while this one samples the resident memory of the child's whole process tree (the JVM
and Spark's Python workers included) every 0.2 s, so each run's peak is its own.

- single: read the Parquet trace into pandas, ``replay_local``, write the five tables as Parquet
  with pyarrow. Events/s of the replay alone and of the whole run.
- spark: ``replay_spark`` on ``local[2]`` with a 4 GB JVM heap (``spark.driver.memory``; in local
  mode the executors live in the driver's JVM). Not counted: the session's start-up and a
  warm-up replay of the trace's first rows (Python workers started, kernel loaded), as the
  single-process run loads its kernel before it is timed. Tasks send back one
  row of counts each: nothing else is collected to the driver.

Targets: single-process replay >= 1M events/s; Spark local[2] at 20M at least as fast as the
single-process run end to end; the 100M trace replays within a 4 GB heap. It is a report, not a
test: it prints a PASS/FAIL line per target and exits 0 either way.
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
SIZES = (1_000_000, 5_000_000, 20_000_000)
HUGE = 100_000_000
QUEUES = 1000
QUICK_SIZES = (20_000,)
QUICK_QUEUES = 50
MASTER = "local[2]"
HEAP = "4g"
HEAP_BYTES = 4 * 1024**3
SAMPLE_S = 0.2
WARM_UP_ROWS = 5000
SINGLE_TARGET = 1_000_000  # events/s
SPARK_RATIO_TARGET = 1.0  # Spark end-to-end / single end-to-end at the largest size


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

    start = time.perf_counter()
    trace = arrow_to_pandas(pq.read_table(directory / "trace"), TRACE_COLUMNS)
    queues = pq.read_table(directory / "queues").to_pandas()
    read_s = time.perf_counter() - start
    replay_local(trace.head(1000), queues)  # load the compiled kernel before timing
    start = time.perf_counter()
    result = replay_local(trace, queues)
    replay_s = time.perf_counter() - start
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in result.tables().items():
        table = pa.Table.from_pandas(frame, schema=arrow_schema(OUTPUT_COLUMNS[name]))
        pq.write_table(table, out / f"{name}.parquet")
    write_s = time.perf_counter() - start
    return {"rows": len(trace), "read_s": read_s, "replay_s": replay_s, "write_s": write_s}


def child_spark(directory: Path, out: Path) -> dict[str, Any]:
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    from mqlearn.pipeline.spark import session
    from mqlearn.pipeline.spark_replay import replay_spark

    start = time.perf_counter()
    spark = session(MASTER, conf={"spark.driver.memory": HEAP})
    session_s = time.perf_counter() - start
    heap = spark.sparkContext._jvm.java.lang.Runtime.getRuntime().maxMemory()  # type: ignore[union-attr]
    # warm up as the single-process run does: Python workers started, the kernel loaded
    start = time.perf_counter()
    sample = out / "warm-up.parquet"
    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(ds.dataset(directory / "trace").head(WARM_UP_ROWS), sample)
    replay_spark(spark, sample, directory / "queues", out / "warm-up")
    warm_up_s = time.perf_counter() - start
    start = time.perf_counter()
    result = replay_spark(spark, directory / "trace", directory / "queues", out / "replay")
    replay_s = time.perf_counter() - start
    spark.stop()
    return {
        "rows": result.input_rows,
        "accepted": result.accepted,
        "rejected": result.rejected,
        "tasks": result.partitions,
        "session_s": session_s,
        "warm_up_s": warm_up_s,
        "replay_s": replay_s,
        "heap_max_bytes": int(heap),
        "collected_rows": result.partitions,  # one row of counts per task
    }


def child_main(args: argparse.Namespace) -> None:
    directory = Path(args.dir)
    out = Path(args.scratch)
    if args.child == "generate":
        result = child_generate(directory, args.events, args.queues)
    elif args.child == "single":
        result = child_single(directory, out)
    else:
        result = child_spark(directory, out)
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


def measure(data: Path, events: int, queues: int, modes: tuple[str, ...]) -> dict[str, Any]:
    directory, generated = ensure_trace(data, events, queues)
    entry: dict[str, Any] = {"events": events, "queues": queues, "generated": generated}
    with tempfile.TemporaryDirectory(dir=data) as scratch:
        for mode in modes:
            print(f"  {mode} replay of {events:,} events ...", flush=True)
            entry[mode] = run_child(mode, directory, Path(scratch) / mode)
            print(f"    {json.dumps(entry[mode])}", flush=True)
    return entry


def report(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Print the tables and the verdicts; returns the verdicts."""
    print("\n== Replay throughput (events/s) and peak RSS of the process tree ==")
    print(
        f"{'events':>12} {'mode':>7} {'replay ev/s':>13} {'end-to-end ev/s':>16} {'peak RSS':>11}"
    )
    for entry in entries:
        for mode in ("single", "spark"):
            if mode not in entry:
                continue
            run = entry[mode]
            rows = run["rows"]
            if mode == "single":
                total = run["read_s"] + run["replay_s"] + run["write_s"]
                replay_rate = rate(rows, run["replay_s"])
            else:
                total = run["replay_s"]
                replay_rate = rate(rows, total)
            run["end_to_end_eps"] = rate(rows, total)
            run["replay_eps"] = replay_rate
            print(
                f"{rows:>12,} {mode:>7} {replay_rate:>13,.0f} {run['end_to_end_eps']:>16,.0f}"
                f" {gib(run['peak_rss_bytes']):>11}"
            )
    print("\n== Ratios (Spark local[2] end-to-end / single-process end-to-end) ==")
    for entry in entries:
        if "single" in entry and "spark" in entry:
            entry["ratio"] = entry["spark"]["end_to_end_eps"] / entry["single"]["end_to_end_eps"]
            print(f"{entry['events']:>12,}  {entry['ratio']:.2f}")

    verdicts = []
    compared = [e for e in entries if "single" in e and "spark" in e]
    if compared:
        largest = max(compared, key=lambda e: e["events"])
        single = largest["single"]["replay_eps"]
        verdicts.append(
            (
                single >= SINGLE_TARGET,
                f"single-process replay {single:,.0f} events/s >= 1M (at {largest['events']:,})",
            )
        )
        verdicts.append(
            (
                largest["ratio"] >= SPARK_RATIO_TARGET,
                f"Spark local[2] at {largest['events']:,} "
                f"is {largest['ratio']:.2f}x the single-process run (target >= 1)",
            )
        )
    for entry in entries:
        if "spark" in entry and "single" not in entry:  # the huge run
            run = entry["spark"]
            within = (
                run["heap_max_bytes"] <= HEAP_BYTES
                and run["rows"] == run["accepted"] + run["rejected"]
            )
            verdicts.append(
                (
                    within,
                    f"{entry['events']:,} events replayed with a {gib(run['heap_max_bytes'])}"
                    f" JVM heap (<= 4 GiB), {run['collected_rows']} rows collected (task counts)",
                )
            )
    print("\n== Targets ==")
    for ok, text in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return [{"ok": ok, "target": text} for ok, text in verdicts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small traces: a smoke test")
    parser.add_argument("--huge", action="store_true", help="also replay 100M events on Spark")
    parser.add_argument("--data", default=str(Path(tempfile.gettempdir()) / "mqlearn-bench"))
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--child", choices=("generate", "single", "spark"), help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)
    parser.add_argument("--events", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--queues", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    sizes, queues = (QUICK_SIZES, QUICK_QUEUES) if args.quick else (SIZES, QUEUES)
    print(
        f"Pipeline benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, traces of {queues} queues over {HOURS:g} virtual hours "
        f"(seed {SEED}), cached in {data}"
    )
    entries = [measure(data, events, queues, ("single", "spark")) for events in sizes]
    if args.huge and not args.quick:
        entries.append(measure(data, HUGE, QUEUES, ("spark",)))
    verdicts = report(entries)
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": entries, "targets": verdicts}, indent=2))


if __name__ == "__main__":
    main()
