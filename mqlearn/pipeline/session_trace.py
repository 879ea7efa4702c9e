"""The engine's event log as a trace, so a notebook session can be replayed and analysed.

``trace_from_events(qm.events_frame(), queues_of(qm))`` turns every MQI call that changed a local
queue into a trace row, and ``queues_of(qm)`` gives the queue definitions to replay it with.

The log records what happened, not every option of the call, so the conversion fills in what it
cannot see (docs/pipeline.md, "From an engine session"):

- A message is followed by the ``(qmgr, msg_seq)`` of its events, never by its MsgId (MsgIds
  can repeat).
- Gets and channel sends become GETs without match options when such a GET does what the
  engine's get did: take the first live message, discarding the expired ones before it. A get
  that matched a MsgId or CorrelId otherwise becomes a GET matching CorrelId = its own seq as 48
  hex digits, given to the PUT rows of the messages it took and discarded. Rows use handle 1.
- A browse becomes BROWSE_FIRST when it is the queue's first browse or returns or discards a
  message that is not later in delivery order than the previously browsed one (BROWSE_NEXT never
  goes back), and BROWSE_NEXT otherwise; so a browse that found nothing (2033) is a BROWSE_NEXT
  after a browse that returned a message, unless it discarded one at or before that one.
- A message whose discard produced an expiration report gets Report MQRO_EXPIRATION and the
  reply-to queue (and queue manager) named in the report event; other messages get Report 0.
- The descriptor of a refused MQPUT is not in the log, so refused puts are left out, and so are
  other refused calls that changed nothing (only 2033 failures become rows).
- A channel's get from its transmission queue is one GET row, written where its first discard or
  its send is in the log: the discards and the send of one get share it (rule XQH-06), and a get
  that found only expired messages is a GET that discards them and finds nothing.
- A message that arrives already expired (a channel arrival or dead letter put with 0 tenths
  left) is an ARRIVE row with Expiry 0 (trace schema v2): an MQPUT's Expiry is at least 1 (rule
  EXP-03). Every other put stays a PUT row, so a session without such an arrival converts to a
  trace of schema v1.
  The replay runs a scan before the rows of its time, so an arrival expired at a scan's time
  that the scan discarded (it came first in the log) is written 1 ms earlier, ahead of its
  queue's rows of that time: the scan then discards it, as the engine's did.
- Discards, reports, scans, triggers and dead letters are outcomes the replay works out again,
  not rows. Units of work, locks and gets under the cursor cannot be written in a trace: an
  event that shows one raises ValueError.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pandas as pd

from mqlearn.engine.events import COLUMNS as EVENT_COLUMNS
from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.encode import MAXPRTY
from mqlearn.pipeline.schema import (
    OPS_OF_VERSION,
    QUEUE_COLUMNS,
    SCHEMA_VERSION,
    TRACE_COLUMNS,
    SchemaError,
)

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager

HANDLE = 1
_SENT = re.compile(r"sent to (\S+) at (\S+)")
_REFUSED = re.compile(r"(\S+) refused it")
# outcomes the replay works out again, and bookkeeping entries (a unit of work's summary line)
_SKIPPED_KINDS = frozenset(
    {"scan", "trigger", "dead-letter", "commit", "backout", "channel-arrive"}
)


def queues_of(*qmgrs: QueueManager) -> pd.DataFrame:
    """The definitions (QUEUE_COLUMNS) of every local queue of these queue managers.

    The expiry scan interval is the queue manager's current one, counted from time 0.
    """
    rows = [
        {
            "qmgr": qm.name,
            "queue": local.name,
            "msgdlvsq": local.msgdlvsq,
            "defprty": local.defprty,
            "maxdepth": local.maxdepth,
            "capexpry": -1 if local.capexpry is None else local.capexpry,
            "profile": qm.profile,
            "expiry_interval_s": qm.expryint,
        }
        for qm in qmgrs
        for local in qm.local_queues()
    ]
    return pd.DataFrame(rows, columns=list(QUEUE_COLUMNS)).astype(QUEUE_COLUMNS)


def _unsupported(event: dict[str, Any], what: str) -> ValueError:
    return ValueError(
        f"event {event['seq']} ({event['kind']} on {event['qmgr']}/{event['queue']} at "
        f"{event['time_ms']} ms) is {what}, which a trace cannot express"
    )


def _reply_to(event: dict[str, Any]) -> tuple[str, str]:
    """(ReplyToQ, ReplyToQMgr) of a report event, read from its detail."""
    detail = event["detail"]
    sent = _SENT.match(detail)
    if sent:
        return sent.group(1), sent.group(2)
    refused = _REFUSED.match(detail)
    if refused:
        return refused.group(1), event["qmgr"]
    raise ValueError(f"event {event['seq']}: cannot read the report's destination from {detail!r}")


class _Converter:
    """Walks the log once, keeping what the get, browse and report rules need.

    A message is its PUT row, found from the ``(qmgr, msg_seq)`` of the events about it.
    """

    def __init__(self, fifo: set[tuple[str, str]], version: int) -> None:
        self.fifo = fifo
        self.version = version
        self.rows: list[dict[str, Any]] = []
        self.puts: dict[tuple[str, int], int] = {}  # (qmgr, msg_seq) -> PUT row
        self.keys: dict[int, tuple[int, int]] = {}  # PUT row -> delivery key
        self.queued: dict[tuple[str, str], set[int]] = {}  # PUT rows of the messages on a queue
        # PUT rows discarded by a get or browse (qmgr, queue, cause) whose own event comes next
        self.discarded: dict[tuple[str, str, str], list[int]] = {}
        self.browsed: dict[tuple[str, str], tuple[int, int]] = {}  # delivery key at the cursor
        # the GET row a channel's discards opened on a transmission queue: (row, time_ms)
        self.channel_gets: dict[tuple[str, str], tuple[int, int]] = {}
        self.first_at: dict[tuple[str, str, int], int] = {}  # a queue's first row at a time
        self.ahead: dict[int, int] = {}  # row written 1 ms early -> the row it goes before
        self.pins: dict[int, list[int]] = {}  # GET matching its own seq -> the PUT rows given it

    def row(self, event: dict[str, Any], op: str, **fields: Any) -> dict[str, Any]:
        row = {
            "time_ms": event["time_ms"],
            "qmgr": event["qmgr"],
            "queue": event["queue"],
            "op": op,
            "handle": HANDLE,
            "msg_id": None,
            "correl_id": None,
            "match_options": C.MQMO_NONE,
            "priority": C.MQPRI_PRIORITY_AS_Q_DEF,
            "expiry": C.MQEI_UNLIMITED,
            "report": C.MQRO_NONE,
            "reply_to_q": None,
            "reply_to_qmgr": None,
            "persistence": C.MQPER_PERSISTENCE_AS_Q_DEF,
            "data_length": 0,
            **fields,
        }
        self.first_at.setdefault((event["qmgr"], event["queue"], event["time_ms"]), len(self.rows))
        self.rows.append(row)
        return row

    def put(self, event: dict[str, Any]) -> None:
        if event["cause"] == "syncpoint":
            raise _unsupported(event, "a put under syncpoint")
        place = (event["qmgr"], event["queue"])
        priority = int(event["priority"])
        expiry = int(event["expiry"])
        # an MQPUT's Expiry is at least 1 (rule EXP-03): 0 tenths left is an arrival (schema v2)
        op = "ARRIVE" if expiry == 0 else "PUT"
        if op not in OPS_OF_VERSION[self.version]:
            raise ValueError(
                f"event {event['seq']} (put on {event['qmgr']}/{event['queue']} at "
                f"{event['time_ms']} ms) is a message that arrived already expired: an {op} row, "
                f"which needs trace schema v2; this conversion writes schema v{self.version}"
            )
        self.row(event, op, msg_id=event["msg_id"], priority=priority, expiry=expiry)
        index = len(self.rows) - 1
        lane = 0 if place in self.fifo else min(priority, MAXPRTY)
        self.keys[index] = (-lane, index)
        self.puts[(event["qmgr"], event["msg_seq"])] = index
        self.queued.setdefault(place, set()).add(index)

    def put_row(self, event: dict[str, Any]) -> int:
        """The PUT row of the message an event is about."""
        index = self.puts.get((event["qmgr"], event["msg_seq"]))
        if index is None:
            raise ValueError(f"event {event['seq']} ({event['kind']}): a message never put")
        return index

    def discard(self, event: dict[str, Any]) -> None:
        if event["reason"]:
            return  # a channel's arrival thrown away (MQRO_DISCARD_MSG): not on this queue
        place = (event["qmgr"], event["queue"])
        index = self.put_row(event)
        arrived = self.rows[index]
        if (event["cause"], arrived["op"], arrived["time_ms"]) == (
            "scan",
            "ARRIVE",
            event["time_ms"],
        ):
            # it arrived before the scan of its time, which a replay runs before that time's
            # rows: it arrives 1 ms earlier (no scan then: scans fall on whole seconds), ahead
            # of its queue's rows of this time (only arrivals: calls come after the scans)
            self.ahead[index] = self.first_at[(*place, event["time_ms"])]
            arrived["time_ms"] = event["time_ms"] - 1
        self.queued[place].discard(index)
        if event["cause"] in ("get", "browse"):
            self.discarded.setdefault((*place, event["cause"]), []).append(index)

    def channel_discard(self, event: dict[str, Any]) -> None:
        """A channel's get met an expired message (rule XQH-06): the get's GET row is written at
        its first discard, before the reports those discards put, and its send joins it."""
        place = (event["qmgr"], event["queue"])
        index = self.put_row(event)
        self.queued[place].discard(index)
        opened = self.channel_gets.get(place)
        if opened is None or opened[1] != event["time_ms"] or index > opened[0]:
            self.row(event, "GET")
            self.channel_gets[place] = (len(self.rows) - 1, event["time_ms"])

    def channel_send(self, event: dict[str, Any]) -> None:
        """A channel took a message: it ends the get its discards opened (same queue and time,
        a message put before that GET row), or it is a get of its own."""
        place = (event["qmgr"], event["queue"])
        opened = self.channel_gets.pop(place, None)
        index = self.put_row(event)
        if opened is None or opened[1] != event["time_ms"] or index > opened[0]:
            self.get(event, found=True)
            return
        queued = self.queued[place]
        queued.discard(index)
        ahead = [other for other in queued if other < opened[0]]
        if any(self.keys[other] < self.keys[index] for other in ahead):
            raise _unsupported(event, "a channel send that passed a live message")

    def get(self, event: dict[str, Any], found: bool) -> None:
        """A GET row; it matches a CorrelId of its own when a plain GET would not do the same:
        take this message (or none) after discarding exactly the messages this get discarded."""
        place = (event["qmgr"], event["queue"])
        self.channel_gets.pop(place, None)
        ended = self.discarded.pop((*place, "get"), [])
        queued = self.queued.get(place, set())
        if found:
            index = self.put_row(event)
            queued.discard(index)
            ended.append(index)
            passed = any(self.keys[other] < self.keys[index] for other in queued)
        else:
            passed = bool(queued)
        if not passed:
            self.row(event, "GET")
            return
        self.pins[len(self.rows)] = ended  # CorrelId: this GET's seq (:meth:`trace`)
        self.row(event, "GET", match_options=C.MQMO_MATCH_CORREL_ID)

    def browse(self, event: dict[str, Any], found: bool) -> None:
        """BROWSE_NEXT only walks past the cursor: a browse that returned or discarded a message
        not later than the cursor is a BROWSE_FIRST, and so is a queue's first browse."""
        if found and event["cause"] == "lock":
            raise _unsupported(event, "a browse with MQGMO_LOCK")
        place = (event["qmgr"], event["queue"])
        self.channel_gets.pop(place, None)
        met = [self.keys[index] for index in self.discarded.pop((*place, "browse"), [])]
        if found:
            met.append(self.keys[self.put_row(event)])
        cursor = self.browsed.get(place)
        first = cursor is None or any(key <= cursor for key in met)
        self.row(event, "BROWSE_FIRST" if first else "BROWSE_NEXT")
        if found:
            self.browsed[place] = met[-1]
        elif first:
            self.browsed.pop(place, None)  # BROWSE_FIRST leaves the cursor before the first message

    def report(self, event: dict[str, Any]) -> None:
        reply_q, reply_qmgr = _reply_to(event)
        self.rows[self.put_row(event)].update(
            report=C.MQRO_EXPIRATION, reply_to_q=reply_q, reply_to_qmgr=reply_qmgr
        )

    def event(self, event: dict[str, Any]) -> None:
        kind, cause = event["kind"], event["cause"]
        if kind == "put":
            self.put(event)
        elif kind == "get":
            if cause == "syncpoint":
                raise _unsupported(event, "a get under syncpoint")
            self.get(event, found=True)
        elif kind == "channel-send":
            self.channel_send(event)
        elif kind == "browse":
            self.browse(event, found=True)
        elif kind == "report":
            self.report(event)
        elif kind == "failed":
            self.failed(event)
        elif kind == "discard":
            if cause == "cursor":
                raise _unsupported(event, "a get under the browse cursor")
            if cause == "channel" and not event["reason"]:
                self.channel_discard(event)
            else:
                self.discard(event)
        elif kind == "backout" and event["queue"]:
            raise _unsupported(event, "a backout")
        elif kind not in _SKIPPED_KINDS:
            raise ValueError(f"event {event['seq']}: unknown kind {kind!r}")

    def trace(self) -> pd.DataFrame:
        """The rows in seq order: log order, but a row written 1 ms early goes before the row it
        was put ahead of; a GET that matches a CorrelId of its own gets its seq as 48 hex
        digits (never 0: a PUT row comes first), and so do the PUT rows it takes and discards."""
        order = sorted(
            range(len(self.rows)),
            key=lambda i: (self.ahead[i], 0, i) if i in self.ahead else (i, 1, 0),
        )
        seq = {index: position for position, index in enumerate(order)}
        for index, ended in self.pins.items():
            pinned = f"{seq[index]:048x}"
            for row in (index, *ended):
                self.rows[row]["correl_id"] = pinned
        rows = [self.rows[index] for index in order]
        trace = pd.DataFrame(rows, columns=[c for c in TRACE_COLUMNS if c != "seq"])
        trace.insert(0, "seq", range(len(trace)))
        return trace.astype(TRACE_COLUMNS)

    def failed(self, event: dict[str, Any]) -> None:
        reason, cause = event["reason"], event["cause"]
        if cause not in ("get", "browse"):
            return  # a refused put: its descriptor is not in the log
        if reason == C.MQRC_NO_MSG_AVAILABLE:
            if cause == "get":
                self.get(event, found=False)
            else:
                self.browse(event, found=False)
        elif reason in (C.MQRC_TRUNCATED_MSG_FAILED, C.MQRC_NO_MSG_UNDER_CURSOR):
            raise _unsupported(event, f"a get that failed with {reason} after its discards")


def trace_from_events(
    events: pd.DataFrame,
    queues: pd.DataFrame | None = None,
    *,
    schema_version: int = SCHEMA_VERSION,
) -> pd.DataFrame:
    """Convert an engine event log (``qm.events_frame()``, or several concatenated) to a trace.

    ``queues`` (QUEUE_COLUMNS, e.g. from :func:`queues_of`) tells which queues are FIFO, for the
    browse rule; without it every queue is taken to deliver by priority. Rows are numbered by
    ``seq`` in time order (events at the same time keep their log order; an arrival written 1 ms
    early goes just before its queue's rows of the next millisecond).
    ``schema_version``: the trace schema to write; 1 raises ValueError, naming the event, when
    a message arrived already expired (its ARRIVE row needs schema v2).
    """
    if schema_version not in OPS_OF_VERSION:
        raise ValueError(
            f"trace schema v{schema_version} is not one this writer knows "
            f"(v{', v'.join(map(str, OPS_OF_VERSION))})"
        )
    missing = [c for c in EVENT_COLUMNS if c not in events.columns]
    if missing:
        raise SchemaError(f"event log: column(s) {', '.join(map(repr, missing))} missing")
    fifo = set()
    if queues is not None:
        chosen = queues[queues["msgdlvsq"].astype("string").str.upper() == "FIFO"]
        fifo = set(zip(chosen["qmgr"], chosen["queue"], strict=True))
    converter = _Converter(fifo, schema_version)
    ordered = events.sort_values("time_ms", kind="stable")
    for event in ordered.to_dict("records"):
        converter.event(event)
    return converter.trace()
