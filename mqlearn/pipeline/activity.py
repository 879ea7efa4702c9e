"""IBM MQ application activity trace as trace schema v1 (docs/pipeline.md, "Importing real
activity traces").

``import_activity(path, "amqsevt-json" | "amqsact")`` reads what IBM's ``amqsevt -o json`` (or
the Go ``amqsevtg``) or ``amqsact -v`` printed, and turns every MQPUT, MQPUT1 and MQGET of the
trace into a trace row: the operations sorted by HighResTime, ``time_ms`` counted from
``start``, queues named by their resolved local name, one handle per (connection, Hobj).

What a trace does not tell is a parameter: the queue definitions (``queues``, and ``defaults``
for the queues not in it, profile and expiry interval included), the time the queue manager
started (``start``: background scans run at multiples of the interval from it) and the match
options of gets (``get_match``; the trace has them only inside the MQGMO structure dump).

A put's Expiry is what the application set, which is what the replay needs. A get's Expiry is
what the getter received, the remaining lifetime: it is not a trace value (GET rows have none)
but is kept with the MsgId and reason the trace recorded in ``observed_*`` columns, which the
replay ignores and :func:`check_replay` compares with what the replay returned.

Every operation becomes a row or a reject with its reason (``ActivityImport.reconcile``):
connection and handle calls change no queue, failed calls (but gets that found nothing, 2033)
changed nothing, and syncpoint, locks, cursors, message groups, topics and distribution lists
are beyond schema v1. Nothing is dropped silently.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.activity_fields import (
    MQOT_TOPIC,
    MQXF,
    OPERATION_NAMES,
    ActivityFormatError,
    Operation,
    Record,
    hex_id,
    integer,
    text,
)
from mqlearn.pipeline.activity_options import FORMATS, GET_MATCH, QueueDefaults
from mqlearn.pipeline.activity_text import NESTED
from mqlearn.pipeline.queues import queue_table
from mqlearn.pipeline.schema import QUEUE_COLUMNS, TRACE_COLUMNS

if TYPE_CHECKING:
    from mqlearn.pipeline.replay import Replay


# The columns an import adds to TRACE_COLUMNS: what the trace recorded (the replay ignores them)
# and where each row came from.
OBSERVED_COLUMNS: dict[str, str] = {
    "observed_comp": "Int32",
    "observed_reason": "Int32",
    "observed_msg_id": "string",
    "observed_expiry": "Int32",
    "highres_time_us": "int64",
    "connection": "string",
    "record": "int32",
    "source_line": "int64",
}
# null where a row's op does not use them (a GET has no Priority): nullable integers
_PUT_ONLY = ("priority", "expiry", "report", "persistence", "data_length")
IMPORT_COLUMNS: dict[str, str] = {
    **{name: "Int32" if name in _PUT_ONLY else dtype for name, dtype in TRACE_COLUMNS.items()},
    **OBSERVED_COLUMNS,
}
REJECT_COLUMNS: dict[str, str] = {
    "source_line": "int64",
    "record": "int32",
    "operation": "string",
    "qmgr": "string",
    "queue": "string",
    "highres_time_us": "Int64",
    "comp": "Int32",
    "reason_code": "Int32",
    "msg_id": "string",
    "category": "string",
    "reason": "string",
}
CATEGORIES = (
    "no queue change",
    "failed call",
    "not expressible",
    "incomplete",
    "malformed",
    "not a trace",
    "no definition",
    "before start",
)
CHECK_COLUMNS: dict[str, str] = {
    "seq": "int64",
    "time_ms": "int64",
    "qmgr": "string",
    "queue": "string",
    "op": "string",
    "source_line": "int64",
    "check": "string",
    "trace_value": "string",
    "replay_value": "string",
}

# IBM's names for the parameters, in reasons
_LABELS = {
    "operation": "OperationId",
    "highres_time": "HighResTime",
    "comp_code": "CompCode",
    "reason_code": "Reason",
    "hobj": "ObjectHandle (Hobj)",
    "put_options": "PutOptions",
    "get_options": "GetOptions",
    "msg_id": "MsgId",
    "correl_id": "CorrelId",
    "expiry": "Expiry",
    "priority": "Priority",
    "persistence": "Persistence",
    "report": "Report",
    "msg_length": "MsgLength",
    "recs_present": "RecsPresent",
    "object_type": "ObjectType",
}
# get options a trace row cannot carry, by name
_GMO_BEYOND: dict[int, str] = {
    C.MQGMO_MSG_UNDER_CURSOR: "MQGMO_MSG_UNDER_CURSOR",
    C.MQGMO_BROWSE_MSG_UNDER_CURSOR: "MQGMO_BROWSE_MSG_UNDER_CURSOR",
    C.MQGMO_LOCK: "MQGMO_LOCK",
    C.MQGMO_UNLOCK: "MQGMO_UNLOCK",
    C.MQGMO_LOGICAL_ORDER: "MQGMO_LOGICAL_ORDER",
    C.MQGMO_COMPLETE_MSG: "MQGMO_COMPLETE_MSG",
    C.MQGMO_ALL_MSGS_AVAILABLE: "MQGMO_ALL_MSGS_AVAILABLE",
    C.MQGMO_ALL_SEGMENTS_AVAILABLE: "MQGMO_ALL_SEGMENTS_AVAILABLE",
    C.MQGMO_MARK_BROWSE_HANDLE: "MQGMO_MARK_BROWSE_HANDLE",
    C.MQGMO_MARK_BROWSE_CO_OP: "MQGMO_MARK_BROWSE_CO_OP",
    C.MQGMO_UNMARK_BROWSE_CO_OP: "MQGMO_UNMARK_BROWSE_CO_OP",
    C.MQGMO_UNMARK_BROWSE_HANDLE: "MQGMO_UNMARK_BROWSE_HANDLE",
    C.MQGMO_UNMARKED_BROWSE_MSG: "MQGMO_UNMARKED_BROWSE_MSG",
}
_BROWSE = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT
_NAMES = ("object_name", "resolved_q", "resolved_qmgr", "resolved_local_q", "resolved_local_qmgr")
_PUTS = (MQXF["MQXF_PUT"], MQXF["MQXF_PUT1"])
_GET = MQXF["MQXF_GET"]


@dataclass(frozen=True)
class ActivityImport:
    """An imported activity trace: the trace rows, the definitions of their queues and the
    operations that are not rows, with their reasons."""

    trace: pd.DataFrame  # IMPORT_COLUMNS, in seq order
    queues: pd.DataFrame  # QUEUE_COLUMNS, one row per traced queue
    rejects: pd.DataFrame  # REJECT_COLUMNS, in file order
    operations: int  # operations (and non-trace events) read from the file
    start_us: int | None  # time_ms 0, in microseconds since 1970 (None: no row)

    @property
    def end_ms(self) -> int | None:
        """The time of the last row: the end of the period the trace covers."""
        return int(self.trace["time_ms"].max()) if len(self.trace) else None

    def reconcile(self) -> None:
        """Raise ActivityReconcileError unless every operation read is a row or a reject."""
        if self.operations != len(self.trace) + len(self.rejects):
            raise ActivityReconcileError(
                f"{self.operations} operations but {len(self.trace)} rows + "
                f"{len(self.rejects)} rejects"
            )


class ActivityReconcileError(RuntimeError):
    """Operations read != rows + rejects: an operation went missing or was counted twice."""


class _Reject(Exception):
    def __init__(self, category: str, reason: str) -> None:
        super().__init__(reason)
        self.category, self.reason = category, reason


@dataclass
class _Call:
    """An operation on its way to a trace row."""

    order: int
    line: int
    record: int
    hrt: int
    qmgr: str
    queue: str
    op: str
    handle: tuple[str, int] | None  # (connection id, Hobj); None for MQPUT1
    connection: str
    descriptor: dict[str, Any]
    observed: dict[str, Any]
    sync_default: bool  # neither SYNCPOINT nor NO_SYNCPOINT: the profile decides
    known: dict[str, Any] = field(repr=False, default_factory=dict)  # for a reject


def _get(fields: Mapping[str, Any], name: str, family: str | None = None) -> int:
    if name not in fields:
        raise _Reject("incomplete", f"no {_LABELS.get(name, name)} in the trace")
    try:
        return integer(fields[name], family)
    except ValueError as error:
        raise _Reject("malformed", f"{_LABELS.get(name, name)}: {error}") from None


def _id(fields: Mapping[str, Any], name: str, required: bool) -> str | None:
    if name not in fields:
        if required:
            raise _Reject("incomplete", f"no {_LABELS[name]} in the trace")
        return None
    try:
        value = hex_id(fields[name])
    except ValueError as error:
        raise _Reject("malformed", f"{_LABELS[name]}: {error}") from None
    if len(value) != 48:
        raise _Reject("malformed", f"{_LABELS[name]} {value!r} is not 24 bytes")
    return value


def _text(fields: Mapping[str, Any], name: str) -> str | None:
    value = text(fields[name]) if name in fields else ""
    return value or None


def _local_queue(fields: Mapping[str, Any], qmgr: str, opened: Mapping[str, str] | None) -> str:
    """The local queue a put or get used: ResolvedLocalQName (a remote put's transmission
    queue), else ResolvedQName when it is on this queue manager; the handle's MQOPEN tells
    them when the operation does not."""
    names = {name: _text(fields, name) for name in _NAMES}
    if opened is not None and not names["resolved_q"] and not names["resolved_local_q"]:
        names = {**names, **{k: v for k, v in opened.items() if v}}
    if "object_type" in fields and _get(fields, "object_type", "object_type") == MQOT_TOPIC:
        raise _Reject("not expressible", "a publication on a topic, not a put on a queue")
    local, local_qmgr = names["resolved_local_q"], names["resolved_local_qmgr"]
    if local:
        if local_qmgr and local_qmgr != qmgr:
            raise _Reject("incomplete", f"resolved to {local} on {local_qmgr}, not on {qmgr}")
        return local
    resolved, resolved_qmgr = names["resolved_q"], names["resolved_qmgr"]
    if resolved:
        if resolved_qmgr and resolved_qmgr != qmgr:
            raise _Reject(
                "incomplete",
                f"resolved to {resolved} at {resolved_qmgr}, and no ResolvedLocalQName names "
                "the transmission queue it went to",
            )
        return resolved
    raise _Reject(
        "incomplete",
        "no ResolvedQName (activity trace detail LOW?) and no MQOPEN of this handle in the trace",
    )


def _match(mode: str, msg_id: str | None, correl_id: str | None) -> dict[str, Any]:
    """msg_id, correl_id and match_options of a GET/BROWSE row for ``get_match`` mode."""
    if mode == "msg_id" and msg_id is not None and msg_id.strip("0"):
        return {"msg_id": msg_id, "match_options": C.MQMO_MATCH_MSG_ID}
    if mode == "correl_id" and correl_id is not None and correl_id.strip("0"):
        return {"correl_id": correl_id, "match_options": C.MQMO_MATCH_CORREL_ID}
    return {}


class _Importer:
    """Turns the records into calls and rejects, then calls into rows."""

    def __init__(self, get_match: str | Mapping[str, str]) -> None:
        modes = {"": get_match} if isinstance(get_match, str) else dict(get_match)
        for queue, mode in modes.items():
            if mode not in GET_MATCH:
                raise ValueError(
                    f"get_match for {queue or 'every queue'}: {mode!r} is not one of {GET_MATCH}"
                )
        self.modes = modes
        self.calls: list[_Call] = []
        self.rejects: list[dict[str, Any]] = []
        self.opened: dict[tuple[str, int], dict[str, str]] = {}
        self.operations = 0

    def mode(self, queue: str) -> str:
        return self.modes.get(queue, self.modes.get("", "none"))

    def reject(self, line: int, record: int, category: str, reason: str, **known: Any) -> None:
        self.rejects.append(
            {"source_line": line, "record": record, "category": category, "reason": reason, **known}
        )

    def record(self, index: int, record: Record) -> None:
        if record.not_trace is not None:
            self.operations += 1
            self.reject(record.line, index, "not a trace", f"{record.not_trace}: not imported")
            return
        header = record.header
        qmgr = text(header.get("qmgr", ""))
        appl = text(header.get("appl_name", "")) or "?"
        pid = text(header.get("process_id", "")) or "?"
        connection = f"{appl}[{pid}]"
        conn_id = text(header.get("connection_id", "")) or record.md_correl_id or connection
        for operation in record.operations:
            self.operations += 1
            self.operation(index, operation, qmgr, connection, conn_id)

    def operation(
        self, index: int, op: Operation, qmgr: str, connection: str, conn_id: str
    ) -> None:
        fields = op.fields
        known: dict[str, Any] = {"qmgr": qmgr or None, "queue": _text(fields, "object_name")}
        try:
            code = _get(fields, "operation", "operation")
            known["operation"] = OPERATION_NAMES.get(code, str(code))
            for name, column, family in (
                ("highres_time", "highres_time_us", None),
                ("comp_code", "comp", "comp_code"),
                ("reason_code", "reason_code", "reason_code"),
            ):
                with contextlib.suppress(_Reject):  # a reject shows what it can
                    known[column] = _get(fields, name, family)
            with contextlib.suppress(_Reject):
                msg_id = _id(fields, "msg_id", required=False)
                known["msg_id"] = msg_id if msg_id and msg_id.strip("0") else None
            if not qmgr:
                raise _Reject("incomplete", "no QueueManager in the trace record's header")
            call = self.call(code, op, qmgr, connection, conn_id, known)
        except _Reject as rejected:
            self.reject(op.line, index, rejected.category, rejected.reason, **known)
            return
        call.record = index
        self.calls.append(call)

    def call(
        self,
        code: int,
        op: Operation,
        qmgr: str,
        connection: str,
        conn_id: str,
        known: dict[str, Any],
    ) -> _Call:
        fields = op.fields
        name = OPERATION_NAMES.get(code, str(code))
        if code == MQXF["MQXF_OPEN"] or code == MQXF["MQXF_CLOSE"]:
            self.handles(code, fields, conn_id)
        if code not in (*_PUTS, _GET):
            why = {
                "MQXF_CMIT": "ends a unit of work, and schema v1 has none",
                "MQXF_BACK": "ends a unit of work, and schema v1 has none",
                "MQXF_CALLBACK": "delivered a message to a callback, whose get options the trace "
                "does not show",
            }.get(name, "changes no message on a queue")
            category = "no queue change" if name not in ("MQXF_CALLBACK",) else "not expressible"
            raise _Reject(category, f"{name} {why}")
        hobj = None if code == MQXF["MQXF_PUT1"] else _get(fields, "hobj")
        handle = None if hobj is None else (conn_id, hobj)
        comp = _get(fields, "comp_code", "comp_code")
        reason = _get(fields, "reason_code", "reason_code")
        if NESTED in fields:
            raise _Reject("not expressible", f"{fields[NESTED]}: a distribution list")
        if comp == C.MQCC_FAILED and (code != _GET or reason != C.MQRC_NO_MSG_AVAILABLE):
            what = "no message was put" if code in _PUTS else "no message was got"
            raise _Reject("failed call", f"{name} failed with reason {reason}: {what}")
        opened = self.opened.get(handle) if handle is not None else None
        queue = _local_queue(fields, qmgr, opened)
        known["queue"] = queue
        if code == _GET:
            descriptor, observed, op_name, sync_default = self.get(fields, comp, reason, queue)
        else:
            descriptor, observed, sync_default = self.put(name, fields, comp, reason)
            op_name = "PUT"
        known["msg_id"] = observed.get("observed_msg_id") or descriptor.get("msg_id")
        hrt = _get(fields, "highres_time")
        return _Call(
            order=len(self.calls) + len(self.rejects),
            line=op.line,
            record=-1,
            hrt=hrt,
            qmgr=qmgr,
            queue=queue,
            op=op_name,
            handle=handle,
            connection=connection,
            descriptor=descriptor,
            observed=observed,
            sync_default=sync_default,
            known=known,
        )

    def handles(self, code: int, fields: Mapping[str, Any], conn_id: str) -> None:
        """Remember what an MQOPEN resolved to, for the handle's later puts and gets."""
        try:
            hobj = integer(fields.get("hobj"))
            failed = integer(fields.get("comp_code", 0), "comp_code") == C.MQCC_FAILED
        except ValueError:
            return
        if code == MQXF["MQXF_CLOSE"]:
            self.opened.pop((conn_id, hobj), None)
        elif not failed:
            names = {name: _text(fields, name) for name in _NAMES}
            self.opened[(conn_id, hobj)] = {k: v for k, v in names.items() if v}

    def put(
        self, name: str, fields: Mapping[str, Any], comp: int, reason: int
    ) -> tuple[dict[str, Any], dict[str, Any], bool]:
        options = _get(fields, "put_options")
        if options & C.MQPMO_SYNCPOINT:
            raise _Reject("not expressible", "a put under syncpoint (MQPMO_SYNCPOINT): schema v1 "
                          "has no units of work")  # fmt: skip
        if "recs_present" in fields and _get(fields, "recs_present") > 0:
            raise _Reject("not expressible", "a put to a distribution list (RecsPresent > 0)")
        msg_id = _id(fields, "msg_id", required=True)
        assert msg_id is not None
        if not msg_id.strip("0"):
            raise _Reject("malformed", "MsgId is all zeros after the put")
        descriptor = {
            "msg_id": msg_id,
            "correl_id": _id(fields, "correl_id", required=False),
            "priority": _get(fields, "priority", "priority"),
            "expiry": _get(fields, "expiry", "expiry"),
            "report": _get(fields, "report", "report"),
            "reply_to_q": _text(fields, "reply_to_q"),
            "reply_to_qmgr": _text(fields, "reply_to_qmgr"),
            "persistence": _get(fields, "persistence", "persistence"),
            "data_length": _get(fields, "msg_length"),
        }
        observed = {"observed_comp": comp, "observed_reason": reason}
        return descriptor, observed, not options & C.MQPMO_NO_SYNCPOINT

    def get(
        self, fields: Mapping[str, Any], comp: int, reason: int, queue: str
    ) -> tuple[dict[str, Any], dict[str, Any], str, bool]:
        options = _get(fields, "get_options")
        beyond = [label for bit, label in _GMO_BEYOND.items() if options & bit]
        if beyond:
            raise _Reject("not expressible", f"a get with {' and '.join(beyond)}: beyond schema v1")
        browse = bool(options & _BROWSE)
        op = "GET"
        if options & C.MQGMO_BROWSE_FIRST:
            op = "BROWSE_FIRST"
        elif options & C.MQGMO_BROWSE_NEXT:
            op = "BROWSE_NEXT"
        found = comp != C.MQCC_FAILED
        if not browse and found:  # one that took nothing is a plain get: discards are never
            persistent = _get(fields, "persistence", "persistence") == 1  # in a unit of work
            if options & C.MQGMO_SYNCPOINT or (
                options & C.MQGMO_SYNCPOINT_IF_PERSISTENT and persistent
            ):
                raise _Reject("not expressible", "a get under syncpoint: schema v1 has no units "
                              "of work")  # fmt: skip
        msg_id = _id(fields, "msg_id", required=False)
        correl_id = _id(fields, "correl_id", required=False)
        observed: dict[str, Any] = {"observed_comp": comp, "observed_reason": reason}
        if found:
            observed["observed_msg_id"] = msg_id
            if "expiry" in fields:
                observed["observed_expiry"] = _get(fields, "expiry", "expiry")
        descriptor = _match(self.mode(queue), msg_id, correl_id)
        sync_default = (
            found
            and not browse
            and not options
            & (C.MQGMO_SYNCPOINT | C.MQGMO_NO_SYNCPOINT | C.MQGMO_SYNCPOINT_IF_PERSISTENT)
        )
        return descriptor, observed, op, sync_default


def _definitions(
    places: set[tuple[str, str]], queues: pd.DataFrame | None, defaults: QueueDefaults | None
) -> pd.DataFrame:
    """QUEUE_COLUMNS for the traced queues: from ``queues`` where it has them, else defaults."""
    rows = []
    given: dict[tuple[str, str], dict[str, Any]] = {}
    if queues is not None:
        queue_table(queues)  # a bad definition raises here, naming it
        for row in queues[list(QUEUE_COLUMNS)].to_dict("records"):
            given[(row["qmgr"], row["queue"])] = row
    for qmgr, queue in sorted(places):
        if (qmgr, queue) in given:
            rows.append(given[(qmgr, queue)])
        elif defaults is not None:
            rows.append({"qmgr": qmgr, "queue": queue, **asdict(defaults)})
    frame = pd.DataFrame(rows, columns=list(QUEUE_COLUMNS)).astype(QUEUE_COLUMNS)
    queue_table(frame)  # the defaults are checked like any definition
    return frame


def _start_us(start: datetime | int | None, calls: list[_Call]) -> int | None:
    if isinstance(start, datetime):
        moment = start if start.tzinfo else start.replace(tzinfo=UTC)
        delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
        return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    if start is not None:
        return int(start)
    return min((call.hrt for call in calls), default=None)


def convert(
    records: list[Record],
    *,
    queues: pd.DataFrame | None = None,
    defaults: QueueDefaults | None = QueueDefaults(),
    start: datetime | int | None = None,
    get_match: str | Mapping[str, str] = "none",
) -> ActivityImport:
    """Turn parsed activity trace records into an :class:`ActivityImport` (see
    :func:`import_activity` for the parameters)."""
    importer = _Importer(get_match)
    for index, record in enumerate(records):
        importer.record(index, record)
    calls = importer.calls
    definitions = _definitions({(c.qmgr, c.queue) for c in calls}, queues, defaults)
    places = zip(definitions["qmgr"], definitions["queue"], strict=True)
    profiles = dict(zip(places, definitions["profile"], strict=True))

    def drop(call: _Call, category: str, reason: str) -> None:
        importer.reject(call.line, call.record, category, reason, **call.known)

    kept = []
    for call in calls:
        profile = profiles.get((call.qmgr, call.queue))
        if profile is None:
            drop(call, "no definition", f"{call.qmgr}/{call.queue} has no queue definition "
                 "(give it in queues=, or give defaults)")  # fmt: skip
        elif call.sync_default and profile == "zos":
            drop(call, "not expressible", "under syncpoint: on z/OS a call without "
                 "NO_SYNCPOINT is under syncpoint, and schema v1 has no units of work")  # fmt: skip
        else:
            kept.append(call)
    start_us = _start_us(start, kept)
    rows = []
    handles: dict[tuple[str, int], int] = {}
    for call in sorted(kept, key=lambda c: (c.hrt, c.order)):
        assert start_us is not None
        if call.hrt < start_us:
            drop(call, "before start", f"at HighResTime {call.hrt}, before start {start_us}")
            continue
        handle = 0 if call.handle is None else handles.setdefault(call.handle, len(handles) + 1)
        rows.append(
            {
                "time_ms": (call.hrt - start_us) // 1000,
                "qmgr": call.qmgr,
                "queue": call.queue,
                "op": call.op,
                "handle": handle,
                **_UNSET,
                **call.descriptor,
                **call.observed,
                "highres_time_us": call.hrt,
                "connection": call.connection,
                "record": call.record,
                "source_line": call.line,
            }
        )
    trace = pd.DataFrame(rows, columns=[c for c in IMPORT_COLUMNS if c != "seq"])
    trace.insert(0, "seq", range(len(trace)))
    rejects = pd.DataFrame(importer.rejects, columns=list(REJECT_COLUMNS))
    rejects = rejects.sort_values(["record", "source_line"], kind="stable", ignore_index=True)
    result = ActivityImport(
        trace=trace.astype(IMPORT_COLUMNS),
        queues=definitions,
        rejects=rejects.astype(REJECT_COLUMNS),
        operations=importer.operations,
        start_us=start_us if rows or start is not None else None,
    )
    result.reconcile()
    return result


# the columns a call does not set: null where the row's op ignores them
_UNSET: dict[str, Any] = {
    "msg_id": None,
    "correl_id": None,
    "match_options": C.MQMO_NONE,
    "priority": None,
    "expiry": None,
    "report": None,
    "reply_to_q": None,
    "reply_to_qmgr": None,
    "persistence": None,
    "data_length": None,
    "observed_msg_id": None,
    "observed_expiry": None,
}


def read_records(path: str | Path, fmt: str) -> list[Record]:
    """Parse an activity trace file in ``fmt`` (``amqsevt-json`` or ``amqsact``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown activity trace format {fmt!r}: use one of {', '.join(FORMATS)}")
    path = Path(path)
    try:
        content = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as error:
        raise ActivityFormatError(f"cannot read {path}: {error.strerror or error}") from None
    return FORMATS[fmt](content.lstrip("\ufeff"), str(path))


def import_activity(
    path: str | Path,
    fmt: str,
    *,
    queues: pd.DataFrame | None = None,
    defaults: QueueDefaults | None = QueueDefaults(),
    start: datetime | int | None = None,
    get_match: str | Mapping[str, str] = "none",
) -> ActivityImport:
    """Import an IBM MQ application activity trace file into trace schema v1.

    ``fmt``: ``"amqsevt-json"`` (``amqsevt -o json``, or Go ``amqsevtg``) or ``"amqsact"``
    (``amqsact -v``). ``queues`` (QUEUE_COLUMNS) defines traced queues; ``defaults`` defines the
    others (None: their rows are rejected). ``start`` is time 0 (a datetime, UTC if naive, or
    microseconds since 1970): the queue manager's start, from which background scans are counted;
    by default the first row's time. ``get_match`` gives gets match options the trace cannot
    show: ``"none"`` (take the first message), ``"msg_id"`` or ``"correl_id"`` (match what the
    get returned, or asked for when it found nothing), or a mapping of queue name to one of these.

    Raises ActivityFormatError (a ValueError naming file and line) for an unreadable file or
    malformed content; every operation read is a trace row or a reject.
    """
    return convert(
        read_records(path, fmt), queues=queues, defaults=defaults, start=start, get_match=get_match
    )


def check_replay(trace: pd.DataFrame, result: Replay, *, expiry_tolerance: int = 1) -> pd.DataFrame:
    """Where the replay of an imported trace differs from what the trace recorded (CHECK_COLUMNS).

    Per row: the reason code (``reason``), the MsgId a get or browse returned (``msg_id``) and
    the remaining Expiry it returned (``expiry``, in tenths; off by more than
    ``expiry_tolerance`` tenths, or unlimited on one side only). An empty table: the replay did
    what the trace says the queue manager did.
    """
    calls = result.calls[["seq", "reason", "msg_id", "expiry"]].rename(
        columns={"reason": "r_reason", "msg_id": "r_msg_id", "expiry": "r_expiry"}
    )
    joined = trace.merge(calls, on="seq", how="inner")
    found: list[dict[str, Any]] = []
    for row in joined.to_dict("records"):
        base = {k: row[k] for k in ("seq", "time_ms", "qmgr", "queue", "op", "source_line")}

        def differ(check: str, seen: Any, replayed: Any, base: dict[str, Any] = base) -> None:
            found.append({**base, "check": check, "trace_value": _show(seen),
                          "replay_value": _show(replayed)})  # fmt: skip

        if not pd.isna(row["observed_reason"]) and row["observed_reason"] != row["r_reason"]:
            differ("reason", row["observed_reason"], row["r_reason"])
        if row["op"] == "PUT" or pd.isna(row["observed_msg_id"]) or row["r_reason"] != 0:
            continue
        seen_id, replay_id = str(row["observed_msg_id"]).lower(), row["r_msg_id"]
        if pd.isna(replay_id) or seen_id != str(replay_id).lower():
            differ("msg_id", seen_id, replay_id)
        elif not pd.isna(row["observed_expiry"]) and not pd.isna(row["r_expiry"]):
            seen, replayed = int(row["observed_expiry"]), int(row["r_expiry"])
            unlimited = (seen == C.MQEI_UNLIMITED) != (replayed == C.MQEI_UNLIMITED)
            if unlimited or abs(seen - replayed) > expiry_tolerance:
                differ("expiry", seen, replayed)
    return pd.DataFrame(found, columns=list(CHECK_COLUMNS)).astype(CHECK_COLUMNS)


def _show(value: Any) -> str | None:
    return None if pd.isna(value) else str(value)


__all__ = [
    "CATEGORIES",
    "FORMATS",
    "GET_MATCH",
    "IMPORT_COLUMNS",
    "OBSERVED_COLUMNS",
    "REJECT_COLUMNS",
    "ActivityFormatError",
    "ActivityImport",
    "ActivityReconcileError",
    "QueueDefaults",
    "check_replay",
    "convert",
    "import_activity",
    "read_records",
]
