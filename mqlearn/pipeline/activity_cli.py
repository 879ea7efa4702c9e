"""``mqlearn pipeline import-activity``: an IBM MQ activity trace file as a trace (no Spark).

    mqlearn pipeline import-activity --format amqsevt-json|amqsact PATH OUT.parquet
        [--rejects REJECTS] [--queues-out QUEUES] [--queues DEFINITIONS] [--start TIME]
        [--get-match none|msg_id|correl_id] [--profile P --expiry-interval-s S --msgdlvsq M
         --defprty N --maxdepth N --capexpry T | --no-defaults]

Writes the trace (Parquet, or CSV by the file's suffix) with the ``observed_*`` columns, and
when asked the rejected operations and the queue definitions the replay needs. Bad input (an
unreadable file, malformed JSON, a line amqsact does not print) is a ValueError or OSError whose
message names the file and line; the caller turns it into exit code 2.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mqlearn.pipeline.activity_options import FORMATS, GET_MATCH, QueueDefaults
from mqlearn.pipeline.schema import QUEUE_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

ACTION = "import-activity"


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``import-activity`` subcommand to ``mqlearn pipeline``."""
    defaults = QueueDefaults()
    parser = actions.add_parser(
        ACTION,
        help="import an IBM MQ activity trace (amqsevt -o json, amqsact -v) as a trace",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--format", required=True, choices=list(FORMATS), dest="fmt")
    parser.add_argument("path", help="the activity trace: amqsevt/amqsevtg JSON or amqsact -v text")
    parser.add_argument("out", help="the trace to write: .parquet or .csv")
    parser.add_argument("--rejects", help="write the operations that are not rows here")
    parser.add_argument("--queues-out", help="write the definitions of the traced queues here")
    parser.add_argument("--queues", help="queue definitions (QUEUE_COLUMNS): .parquet or .csv")
    parser.add_argument(
        "--start",
        help="time 0, when the queue manager started: ISO 8601 (UTC unless it says) or "
        "microseconds since 1970 (default: the first row)",
    )
    parser.add_argument("--get-match", choices=GET_MATCH, default="none")
    parser.add_argument("--no-defaults", action="store_true", help="reject undefined queues")
    for name in ("profile", "msgdlvsq"):
        parser.add_argument(f"--{name}", default=getattr(defaults, name))
    for name in ("expiry_interval_s", "defprty", "maxdepth", "capexpry"):
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, dest=name, type=int, default=getattr(defaults, name))


def _start(value: str | None) -> datetime | int | None:
    if value is None:
        return None
    if value.lstrip("-").isdigit():
        return int(value)
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"--start {value!r}: not ISO 8601 nor microseconds since 1970") from None


def _read_table(path: str) -> pd.DataFrame:
    import pandas as pd
    import pyarrow.parquet as pq

    if Path(path).suffix == ".csv":
        return pd.read_csv(path, dtype={"qmgr": "string", "queue": "string"})
    return pq.read_table(path).to_pandas()


def _write(frame: pd.DataFrame, path: str) -> Path:
    target = Path(path)
    if target.suffix not in (".parquet", ".csv"):
        raise ValueError(f"{path}: written as .parquet or .csv")
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix == ".csv":
        frame.to_csv(target, index=False)
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), target)
    return target


def run(args: argparse.Namespace, err: TextIO) -> None:
    """Import, write, and print what became of the operations."""
    from mqlearn.pipeline.activity import import_activity  # pandas: only when importing

    for path in (args.out, args.rejects, args.queues_out):
        if path is not None and Path(path).suffix not in (".parquet", ".csv"):
            raise ValueError(f"{path}: written as .parquet or .csv")
    queues = None
    if args.queues is not None:
        queues = _read_table(args.queues)
        missing = [c for c in QUEUE_COLUMNS if c not in queues.columns]
        if missing:
            raise ValueError(f"--queues {args.queues}: column(s) {', '.join(missing)} missing")
        queues = queues[list(QUEUE_COLUMNS)].astype(QUEUE_COLUMNS)
    defaults = None
    if not args.no_defaults:
        defaults = QueueDefaults(
            msgdlvsq=args.msgdlvsq,
            defprty=args.defprty,
            maxdepth=args.maxdepth,
            capexpry=args.capexpry,
            profile=args.profile,
            expiry_interval_s=args.expiry_interval_s,
        )
    print(f"importing {args.path} ({args.fmt})", file=err)
    imported = import_activity(
        args.path,
        args.fmt,
        queues=queues,
        defaults=defaults,
        start=_start(args.start),
        get_match=args.get_match,
    )
    trace, rejects = imported.trace, imported.rejects
    print(
        f"{imported.operations} operations: {len(trace)} trace rows on {len(imported.queues)} "
        f"queues, {len(rejects)} rejected"
    )
    for category, count in rejects["category"].value_counts(sort=False).items():
        print(f"  rejected, {category}: {count}")
    print(f"trace in {_write(trace, args.out)}")
    if args.rejects is not None:
        print(f"rejects in {_write(rejects, args.rejects)}")
    if args.queues_out is not None:
        print(f"queue definitions in {_write(imported.queues, args.queues_out)}")
