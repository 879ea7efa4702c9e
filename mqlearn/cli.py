"""The ``mqlearn`` command: the Spark pipeline from a shell.

    mqlearn pipeline generate --out DIR [--seed S --events N --queues N ...]
    mqlearn pipeline run --trace T --queues Q --out DIR [--master URL]
    mqlearn pipeline run --engine local --trace T --queues Q --out DIR [--batch-rows N]
    mqlearn pipeline sweep --out FILE.csv [--outage-s 0 300 --ttl short minute ...]
    mqlearn pipeline import-activity --format amqsevt-json|amqsact PATH OUT.parquet [--rejects R]

Every subcommand but ``import-activity`` and ``run --engine local`` (which need no Spark) runs on
an embedded ``local[*]`` Spark unless ``--master`` names a cluster, and prints what it does on
stderr; on a terminal, a progress bar (rows/s or Spark tasks, ETA) shows how far it is. Exit
codes: 0 done, 2 bad input (the message says what), 1 the job itself failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mqlearn.checks import course_cli
from mqlearn.pipeline import activity_cli
from mqlearn.pipeline.generate import TraceSpec
from mqlearn.pipeline.progress import Progress, SparkStages, reporter
from mqlearn.pipeline.replay import ReconcileError
from mqlearn.pipeline.spark import DEFAULT_MASTER, spark_session
from mqlearn.pipeline.spark_replay import STRATEGIES
from mqlearn.pipeline.stream import BATCH_ROWS
from mqlearn.pipeline.sweep import TTL_PROFILES, SweepGrid

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
ENGINES = ("spark", "local")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mqlearn", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pipeline = commands.add_parser("pipeline", help="generate, replay and sweep MQ traces on Spark")
    actions = pipeline.add_subparsers(dest="action", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--master", default=DEFAULT_MASTER, help="Spark master URL (%(default)s)")
    common.add_argument("--quiet", action="store_true", help="no progress bar on stderr")

    run = actions.add_parser("run", parents=[common], help="replay a trace (Parquet or .csv)")
    run.add_argument("--trace", required=True, help="trace: Parquet file/directory or .csv")
    run.add_argument("--queues", required=True, help="queue definitions: Parquet or .csv")
    run.add_argument("--out", required=True, help="output directory (one subdirectory a table)")
    run.add_argument("--partitions", type=int, help="Spark tasks (default: from the row count)")
    run.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="auto",
        help="auto: tasks read whole files when every queue lies in one file, else shuffle",
    )
    run.add_argument(
        "--engine",
        choices=ENGINES,
        default="spark",
        help="spark, or local: this process alone, streaming, in bounded memory",
    )
    run.add_argument(
        "--batch-rows", type=int, default=BATCH_ROWS, help="local: rows replayed at a time"
    )

    spec = TraceSpec()
    generate = actions.add_parser("generate", parents=[common], help="write a synthetic trace")
    generate.add_argument("--out", required=True, help="directory for trace/ and queues/")
    generate.add_argument("--seed", type=int, default=spec.seed)
    generate.add_argument("--events", type=int, default=spec.events, help="about this many rows")
    generate.add_argument("--queues", type=int, default=spec.queues)
    generate.add_argument("--qmgrs", type=int, default=spec.qmgrs)
    generate.add_argument("--hours", type=float, default=spec.hours, help="virtual time span")
    generate.add_argument("--bursty-share", type=float, default=spec.bursty_share)

    grid = SweepGrid()
    sweep = actions.add_parser("sweep", parents=[common], help="what-if grid of simulations")
    sweep.add_argument("--out", required=True, help="result table: .csv or .parquet file")
    sweep.add_argument("--outage-s", type=float, nargs="+", default=list(grid.outage_s))
    sweep.add_argument("--ttl", nargs="+", choices=list(TTL_PROFILES), default=list(grid.ttl))
    sweep.add_argument("--priority-mix", nargs="+", default=list(grid.priority_mix))
    sweep.add_argument(
        "--expiry-interval-s", type=int, nargs="+", default=list(grid.expiry_interval_s)
    )
    sweep.add_argument("--capexpry", type=int, nargs="+", default=list(grid.capexpry))
    sweep.add_argument("--rate-per-s", type=float, default=grid.rate_per_s)
    sweep.add_argument("--hours", type=float, default=grid.hours)
    sweep.add_argument("--seed", type=int, default=grid.seed)

    activity_cli.add_parser(actions)
    course_cli.add_parser(commands)  # mqlearn course progress|show|assign|grade (no Spark)
    return parser


def _print_tables(out: Path, rows: dict[str, int]) -> None:
    """Where each output table of a replay went, and its row count."""
    for name, count in rows.items():
        print(f"  {out / name}: {count} rows")


def _run(spark: SparkSession, args: argparse.Namespace, err: TextIO) -> None:
    from mqlearn.pipeline.spark_replay import replay_spark

    print(f"replaying {args.trace} with {args.queues} on {args.master}", file=err)
    result = replay_spark(
        spark,
        args.trace,
        args.queues,
        args.out,
        partitions=args.partitions,
        strategy=args.strategy,
    )
    print(
        f"{result.input_rows} rows: {result.accepted} accepted, {result.rejected} rejected "
        f"({result.partitions} tasks, strategy {result.strategy})"
    )
    _print_tables(result.out, result.rows)


def _run_local(args: argparse.Namespace, err: TextIO, progress: Progress) -> None:
    from mqlearn.pipeline.stream import replay_files

    print(f"replaying {args.trace} with {args.queues} in this process", file=err)
    result = replay_files(
        args.trace, args.queues, args.out, batch_rows=args.batch_rows, progress=progress
    )
    regrouped = ", regrouped by queue" if result.regrouped else ""
    print(
        f"{result.input_rows} rows: {result.accepted} accepted, {result.rejected} rejected "
        f"({result.pieces} pieces{regrouped})"
    )
    _print_tables(result.out, result.rows)


def _generate(spark: SparkSession, args: argparse.Namespace, err: TextIO) -> None:
    from mqlearn.pipeline.generate import generate

    spec = TraceSpec(
        seed=args.seed,
        events=args.events,
        queues=args.queues,
        qmgrs=args.qmgrs,
        hours=args.hours,
        bursty_share=args.bursty_share,
    )
    print(f"generating about {spec.events} rows over {spec.queues} queues", file=err)
    written = generate(spark, spec, args.out)
    print(f"{written.rows} rows in {written.trace}; queue definitions in {written.queues}")


def _sweep(spark: SparkSession, args: argparse.Namespace, err: TextIO) -> None:
    from mqlearn.pipeline.sweep import sweep

    out = Path(args.out)
    if out.suffix not in (".csv", ".parquet"):
        raise ValueError(f"--out {out}: the result table is written as .csv or .parquet")
    grid = SweepGrid(
        outage_s=tuple(args.outage_s),
        ttl=tuple(args.ttl),
        priority_mix=tuple(args.priority_mix),
        expiry_interval_s=tuple(args.expiry_interval_s),
        capexpry=tuple(args.capexpry),
        rate_per_s=args.rate_per_s,
        hours=args.hours,
        seed=args.seed,
    )
    print(f"running {len(grid.scenarios())} scenarios", file=err)
    table = sweep(spark, grid)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix == ".csv":
        table.to_csv(out, index=False)
    else:
        table.to_parquet(out, index=False)
    print(f"{len(table)} scenarios in {out}")


ACTIONS = {"run": _run, "generate": _generate, "sweep": _sweep}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (argparse itself exits 2 on bad options)."""
    from pyspark.errors import PySparkException

    args = _parser().parse_args(argv)
    err = sys.stderr
    if args.command == course_cli.COMMAND:
        return course_cli.run(args, sys.stdout, err)
    if args.action == activity_cli.ACTION:  # in this process, no Spark
        try:
            activity_cli.run(args, err)
        except (ValueError, OSError) as error:
            print(f"mqlearn: error: {error}", file=err)
            return EXIT_BAD_INPUT
        return EXIT_OK
    progress = Progress() if args.quiet else reporter(err)
    try:
        if args.action == "run" and args.engine == "local":
            _run_local(args, err, progress)
        else:
            with (
                spark_session(args.master) as spark,
                SparkStages(spark.sparkContext.statusTracker(), progress),
            ):
                ACTIONS[args.action](spark, args, err)
    except (ValueError, FileNotFoundError) as error:  # bad input, found before any job ran
        print(f"mqlearn: error: {error}", file=err)
        return EXIT_BAD_INPUT
    except (ReconcileError, PySparkException) as error:
        print(f"mqlearn: the job failed: {error}", file=err)
        return EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
