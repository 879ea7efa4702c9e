"""The ``mqlearn`` command: the Spark pipeline from a shell, and pymqi/ibmmq programs run unchanged.

    mqlearn run [--qmgr NAME] [--port N] [--channel NAME ...] [--mqsc FILE] [--realtime SPEED]
        [--library pymqi|ibmmq] [--events] PROGRAM.py [ARGS ...]
    mqlearn pipeline generate --out DIR [--seed S --events N --queues N ...]
    mqlearn pipeline run --trace T --queues Q --out DIR [--master URL]
        [--driver-memory 4g] [--conf KEY=VALUE ...] [--partitions N] [--strategy auto|shuffle]
    mqlearn pipeline run --engine local --trace T --queues Q --out DIR [--batch-rows N]
        [--schema-version 1|2]
    mqlearn pipeline sweep --out FILE.csv [--outage-s 0 300 --ttl short minute ...]
    mqlearn pipeline compile
    mqlearn pipeline import-activity --format amqsevt-json|amqsact PATH OUT.parquet [--rejects R]

``compile`` compiles and caches the local replay's code (``make lab`` runs it after installing),
so that the first run does not spend about 15 s doing it.

Every subcommand but ``import-activity``, ``compile`` and ``run --engine local`` (which need no
Spark) runs on an embedded ``local[*]`` Spark unless ``--master`` names a cluster, and prints what
it does on stderr; on a terminal, a progress bar (rows/s or Spark tasks, ETA) shows how far it
is. Spark's driver memory and shuffle partitions are chosen from the machine and the trace
(:mod:`mqlearn.pipeline.spark_settings`, logged in one line on stderr with the strategy);
``--driver-memory``, ``--conf``, ``--partitions`` and ``--strategy`` override them. Exit codes:
0 done, 2 bad input (the message says what), 1 the job itself failed.

``run`` runs a program as ``python PROGRAM.py ARGS`` would, its ``import pymqi`` and ``import
ibmmq`` answered by mqlearn's shims, and exits with the program's exit code (2 for bad input
found before the program starts: docs/compat.md, "Run it unchanged").

Only what the chosen command needs is imported: ``run --engine local`` loads no pyspark, a Spark
driver no numba (its tasks do), ``--help`` neither.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mqlearn.checks import course_cli
from mqlearn.pipeline import activity_cli
from mqlearn.pipeline.schema import OPS_OF_VERSION, SCHEMA_VERSION
from mqlearn.pipeline.spark_settings import STRATEGIES, Machine, TraceFiles, choose, parse_conf

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from mqlearn.pipeline.progress_bar import Progress
    from mqlearn.pipeline.spark_settings import SparkSettings

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
ENGINES = ("spark", "local")
DEFAULT_MASTER = "local[*]"  # as mqlearn.pipeline.spark names it (a test holds them equal)


def _given(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Any]:
    """The options of ``names`` the user gave (their defaults live in the dataclass they fill)."""
    return {name: getattr(args, name) for name in names if hasattr(args, name)}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mqlearn", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pipeline = commands.add_parser("pipeline", help="generate, replay and sweep MQ traces on Spark")
    actions = pipeline.add_subparsers(dest="action", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--master", default=DEFAULT_MASTER, help="Spark master URL (%(default)s)")
    common.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    common.add_argument(
        "--driver-memory", help="Spark driver heap, e.g. 4g (default: chosen, see the log line)"
    )
    common.add_argument(
        "--conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Spark setting (repeatable); wins over the chosen ones",
    )
    # options whose defaults belong to a dataclass (TraceSpec, SweepGrid) are absent unless given
    unset = argparse.SUPPRESS

    run = actions.add_parser("run", parents=[common], help="replay a trace (Parquet or .csv)")
    run.add_argument("--trace", required=True, help="trace: Parquet file/directory or .csv")
    run.add_argument("--queues", required=True, help="queue definitions: Parquet or .csv")
    run.add_argument("--out", required=True, help="output directory (one subdirectory a table)")
    run.add_argument("--partitions", type=int, help="Spark tasks (default: from the row count)")
    run.add_argument(
        "--strategy",
        choices=STRATEGIES,
        help="auto (the default): tasks read whole files when every queue lies in one file, "
        "else shuffle",
    )
    run.add_argument(
        "--engine",
        choices=ENGINES,
        default="spark",
        help="spark, or local: this process alone, streaming, in bounded memory",
    )
    run.add_argument("--batch-rows", type=int, default=unset, help="local: rows replayed at a time")
    run.add_argument(
        "--schema-version",
        type=int,
        choices=list(OPS_OF_VERSION),
        default=SCHEMA_VERSION,
        help="the trace schema the trace was written to (default %(default)s); 1: ARRIVE rows "
        "are rejects naming the version they need",
    )

    generate = actions.add_parser("generate", parents=[common], help="write a synthetic trace")
    generate.add_argument("--out", required=True, help="directory for trace/ and queues/")
    generate.add_argument("--seed", type=int, default=unset)
    generate.add_argument("--events", type=int, default=unset, help="about this many rows")
    generate.add_argument("--queues", type=int, default=unset)
    generate.add_argument("--qmgrs", type=int, default=unset)
    generate.add_argument("--hours", type=float, default=unset, help="virtual time span")
    generate.add_argument("--bursty-share", type=float, default=unset)
    generate.add_argument(
        "--outage-share",
        type=float,
        default=unset,
        help="share of queues whose consumer stops for a quarter of the span (deep backlogs)",
    )

    sweep = actions.add_parser("sweep", parents=[common], help="what-if grid of simulations")
    sweep.add_argument("--out", required=True, help="result table: .csv or .parquet file")
    sweep.add_argument("--outage-s", type=float, nargs="+", default=unset)
    sweep.add_argument("--ttl", nargs="+", default=unset, help="named TTL distributions")
    sweep.add_argument("--priority-mix", nargs="+", default=unset)
    sweep.add_argument("--expiry-interval-s", type=int, nargs="+", default=unset)
    sweep.add_argument("--capexpry", type=int, nargs="+", default=unset)
    sweep.add_argument("--rate-per-s", type=float, default=unset)
    sweep.add_argument("--hours", type=float, default=unset)
    sweep.add_argument("--seed", type=int, default=unset)

    actions.add_parser(
        "compile", help="compile the local replay's code now, so the first run does not (no Spark)"
    )
    activity_cli.add_parser(actions)
    _add_run_parser(commands)
    course_cli.add_parser(commands)  # mqlearn course progress|show|assign|grade (no Spark)
    return parser


RUN_HELP = """Run a pymqi or ibmmq program unchanged on mqlearn's simulated queue manager: as
'python PROGRAM.py ARGS' would run it, but its 'import pymqi' and 'import ibmmq' (and pymqi 1.x's
'import CMQC') give mqlearn's shims. Without options the program finds IBM's MQ developer
container: queue manager QM1 listening on port 1414 (any host), channels DEV.APP.SVRCONN (user
app) and DEV.ADMIN.SVRCONN (user admin), queues DEV.QUEUE.1-3. The options describe the
environment a program was written for instead, so that it needs no edit. Exit code: the
program's; 2 for bad input found before it starts."""


def _add_run_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = commands.add_parser(
        "run",
        help="run a pymqi or ibmmq program unchanged on the simulated queue manager",
        description=RUN_HELP,
    )
    run.add_argument(
        "--qmgr",
        default="QM1",
        metavar="NAME",
        help="the queue manager's name (default %(default)s); it has the developer container's "
        "objects and is the one --port, --channel, --mqsc and --realtime set up",
    )
    run.add_argument(
        "--port",
        type=int,
        metavar="N",
        help="the port its listener takes (default 1414); the host in a CONNAME is not checked",
    )
    run.add_argument(
        "--channel",
        action="append",
        default=[],
        metavar="NAME",
        help="a server-connection channel (repeatable; DEV.APP.SVRCONN may be redefined) on "
        "which every client acts as admin, whatever user it gives: MCAUSER an administrator, "
        "no CHLAUTH or CONNAUTH rule, as on a developer's private queue manager",
    )
    run.add_argument(
        "--mqsc",
        metavar="FILE",
        help="MQSC commands (mqlearn's subset: docs/interop.md) to run on the queue manager "
        "before the program starts, e.g. DEFINE QLOCAL(TEST.1)",
    )
    run.add_argument(
        "--realtime",
        type=float,
        metavar="SPEED",
        help="the virtual clock follows the wall clock, SPEED virtual seconds a second (for "
        "programs that sleep or run threads); default: virtual time, moved only by MQGMO_WAIT",
    )
    run.add_argument(
        "--library",
        choices=("pymqi", "ibmmq"),
        help="give this library's shim whichever of the two the program imports (default: the "
        "one it imports)",
    )
    run.add_argument(
        "--events",
        action="store_true",
        help="after the program ends, print each queue manager's event log (puts, gets, "
        "expiries, discards ...) with virtual times",
    )
    run.add_argument("program", metavar="PROGRAM.py", help="the program file")
    run.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="its arguments")


def _run_program(args: argparse.Namespace) -> int:
    """``mqlearn run``: the program's exit code, or 2 for bad input."""
    from mqlearn import program_runner as runner

    environment = runner.Environment(
        qmgr=args.qmgr,
        port=args.port,
        channels=tuple(args.channel),
        mqsc=args.mqsc,
        realtime=args.realtime,
        library=args.library,
    )
    try:
        code = runner.run(args.program, args.args, environment)
    except runner.RunError as error:
        print(f"mqlearn run: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.events:
        print(runner.event_log())
    return code


def _print_tables(out: Path, rows: dict[str, int]) -> None:
    """Where each output table of a replay went, and its row count."""
    for name, count in rows.items():
        print(f"  {out / name}: {count} rows")


def _settings(args: argparse.Namespace) -> SparkSettings:
    """The Spark settings for this command: chosen from the machine (and the trace, for
    ``run``), the user's options winning."""
    trace = TraceFiles.at(args.trace) if args.action == "run" else None
    return choose(
        args.master,
        Machine.here(),
        trace,
        driver_memory=args.driver_memory,
        conf=parse_conf(args.conf),
        strategy=getattr(args, "strategy", None),
        partitions=getattr(args, "partitions", None),
    )


def _run(
    spark: SparkSession, args: argparse.Namespace, settings: SparkSettings, err: TextIO
) -> None:
    from mqlearn.pipeline.spark_replay import replay_spark

    print(f"replaying {args.trace} with {args.queues} on {args.master}", file=err)
    result = replay_spark(
        spark,
        args.trace,
        args.queues,
        args.out,
        partitions=settings.partitions,
        strategy=settings.strategy,
        schema_version=args.schema_version,
    )
    print(
        f"{result.input_rows} rows: {result.accepted} accepted, {result.rejected} rejected "
        f"({result.partitions} tasks, strategy {result.strategy})"
    )
    _print_tables(result.out, result.rows)


def _run_local(args: argparse.Namespace, err: TextIO, progress: Progress) -> None:
    if sys.platform in ("linux", "darwin"):  # pyarrow's wheels there have jemalloc
        # Arrow's allocator for everything it allocates, the Parquet reader too: read when
        # pyarrow loads, as it does next when the CLI runs as a command (docs/pipeline.md)
        os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "jemalloc")
    from mqlearn.pipeline.stream import prefer_jemalloc, replay_files

    prefer_jemalloc()  # for what pyarrow allocates itself, when it was loaded before
    print(f"replaying {args.trace} with {args.queues} in this process", file=err)
    result = replay_files(
        args.trace,
        args.queues,
        args.out,
        progress=progress,
        schema_version=args.schema_version,
        **_given(args, ["batch_rows"]),
    )
    regrouped = ", regrouped by queue" if result.regrouped else ""
    print(
        f"{result.input_rows} rows: {result.accepted} accepted, {result.rejected} rejected "
        f"({result.pieces} pieces{regrouped})"
    )
    _print_tables(result.out, result.rows)


SPEC_OPTIONS = ("seed", "events", "queues", "qmgrs", "hours", "bursty_share", "outage_share")


def _generate(
    spark: SparkSession, args: argparse.Namespace, settings: SparkSettings, err: TextIO
) -> None:
    from mqlearn.pipeline.generate import TraceSpec, generate

    spec = TraceSpec(**_given(args, SPEC_OPTIONS))
    print(f"generating about {spec.events} rows over {spec.queues} queues", file=err)
    written = generate(spark, spec, args.out)
    print(f"{written.rows} rows in {written.trace}; queue definitions in {written.queues}")


GRID_OPTIONS = (
    "outage_s",
    "ttl",
    "priority_mix",
    "expiry_interval_s",
    "capexpry",
    "rate_per_s",
    "hours",
    "seed",
)


def _sweep(
    spark: SparkSession, args: argparse.Namespace, settings: SparkSettings, err: TextIO
) -> None:
    from mqlearn.pipeline.sweep import SweepGrid, sweep

    out = Path(args.out)
    if out.suffix not in (".csv", ".parquet"):
        raise ValueError(f"--out {out}: the result table is written as .csv or .parquet")
    given: dict[str, Any] = {
        name: tuple(value) if isinstance(value, list) else value
        for name, value in _given(args, GRID_OPTIONS).items()
    }
    grid = SweepGrid(**given)
    print(f"running {len(grid.scenarios())} scenarios", file=err)
    table = sweep(spark, grid)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix == ".csv":
        table.to_csv(out, index=False)
    else:
        table.to_parquet(out, index=False)
    print(f"{len(table)} scenarios in {out}")


ACTIONS = {"run": _run, "generate": _generate, "sweep": _sweep}


def _on_spark(args: argparse.Namespace, err: TextIO, progress: Progress) -> None:
    """Start Spark with the chosen settings (logged), run the action, stop Spark."""
    from mqlearn.pipeline.progress_bar import SparkStages
    from mqlearn.pipeline.spark import spark_session

    settings = _settings(args)
    print(settings.describe(), file=err)
    with (
        spark_session(args.master, conf=settings.conf) as spark,
        SparkStages(spark.sparkContext.statusTracker(), progress),
    ):
        ACTIONS[args.action](spark, args, settings, err)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (argparse itself exits 2 on bad options)."""
    from mqlearn.pipeline.progress_bar import Progress, reporter
    from mqlearn.pipeline.schema import ReconcileError

    args = _parser().parse_args(argv)
    err = sys.stderr
    if args.command == "run":
        return _run_program(args)
    if args.command == course_cli.COMMAND:
        return course_cli.run(args, sys.stdout, err)
    if args.action == activity_cli.ACTION:  # in this process, no Spark
        try:
            activity_cli.run(args, err)
        except (ValueError, OSError) as error:
            print(f"mqlearn: error: {error}", file=err)
            return EXIT_BAD_INPUT
        return EXIT_OK
    if args.action == "compile":
        from mqlearn.pipeline.precompile import compile_replay

        seconds = compile_replay()
        print(f"mqlearn: the local replay's compiled code is cached ({seconds:.1f} s)", file=err)
        return EXIT_OK
    progress = Progress() if args.quiet else reporter(err)
    failures: tuple[type[BaseException], ...] = (ReconcileError,)
    try:
        if args.action == "run" and args.engine == "local":
            _run_local(args, err, progress)
        else:
            from pyspark.errors import PySparkException

            failures = (ReconcileError, PySparkException)
            _on_spark(args, err, progress)
    except (ValueError, FileNotFoundError) as error:  # bad input, found before any job ran
        print(f"mqlearn: error: {error}", file=err)
        return EXIT_BAD_INPUT
    except failures as error:
        print(f"mqlearn: the job failed: {error}", file=err)
        return EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
