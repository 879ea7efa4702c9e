"""MQPUT validation: Expiry (EXP-01..04), Priority (MD-02) and the other put checks.

A rejected put must leave no trace except a ``failed`` entry in the event log: no message, no
report, CURDEPTH and the queue's contents unchanged (docs/engine.md, "Put").
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    events_of,
    events_since,
    get,
    new_qm,
    put,
    qm_with_queue,
    raises_reason,
)

ENV_ENFORCE = "AMQ_ENFORCE_MAX_EXPIRY_ERROR"
TOO_LONG = 1_000_000_000  # one more than the largest Expiry IBM documents (999 999 999)

# (test id, MD fields, PMO options, expected reason). Every case would be a valid put without its
# one mistake; the report cases name no ReplyToQ, the EXP-03 cases name one so that a report
# *could* have been sent.
REJECTED_PUTS: list[tuple[str, dict[str, Any], int, int]] = [
    ("exp03-expiry-zero", {"Expiry": 0}, 0, C.MQRC_EXPIRY_ERROR),
    ("exp03-expiry-minus-2", {"Expiry": -2}, 0, C.MQRC_EXPIRY_ERROR),
    ("exp03-expiry-very-negative", {"Expiry": -999_999}, 0, C.MQRC_EXPIRY_ERROR),
    (
        "exp03-expiry-zero-with-report",
        {"Expiry": 0, "Report": C.MQRO_EXPIRATION, "ReplyToQ": REPLY_Q},
        0,
        C.MQRC_EXPIRY_ERROR,
    ),
    ("md02-priority-minus-2", {"Priority": -2}, 0, C.MQRC_PRIORITY_ERROR),
    ("md02-priority-minus-50", {"Priority": -50}, 0, C.MQRC_PRIORITY_ERROR),
    ("persistence-3", {"Persistence": 3}, 0, C.MQRC_PERSISTENCE_ERROR),
    ("request-without-reply-q", {"MsgType": C.MQMT_REQUEST}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    ("rpt06-expiration-report", {"Report": C.MQRO_EXPIRATION}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    (
        "rpt06-expiration-with-data",
        {"Report": C.MQRO_EXPIRATION_WITH_DATA},
        0,
        C.MQRC_MISSING_REPLY_TO_Q,
    ),
    ("exception-report", {"Report": C.MQRO_EXCEPTION}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    ("coa-report", {"Report": C.MQRO_COA}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    ("cod-report", {"Report": C.MQRO_COD}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    ("pan-report", {"Report": C.MQRO_PAN}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    ("nan-report", {"Report": C.MQRO_NAN}, 0, C.MQRC_MISSING_REPLY_TO_Q),
    (
        "pmo-syncpoint-and-no-syncpoint",
        {},
        C.MQPMO_SYNCPOINT | C.MQPMO_NO_SYNCPOINT,
        C.MQRC_OPTIONS_ERROR,
    ),
]


def put_via(qm: mq.QueueManager, via: str, md: mq.MD, pmo_options: int) -> None:
    """MQPUT on an open handle, or MQPUT1 on the queue manager: both must validate alike."""
    pmo = mq.PMO(Options=pmo_options)
    if via == "put":
        mq.Queue(qm, APP_Q).put(b"rejected", md, pmo)
    else:
        qm.put1(APP_Q, b"rejected", md, pmo)


@pytest.mark.parametrize("via", ["put", "put1"])
@pytest.mark.parametrize(
    ("md_fields", "pmo_options", "reason"),
    [case[1:] for case in REJECTED_PUTS],
    ids=[case[0] for case in REJECTED_PUTS],
)
def test_rejected_put_changes_nothing(
    via: str, md_fields: dict[str, Any], pmo_options: int, reason: int
) -> None:
    """EXP-03 (and the other put checks): a failed MQPUT/MQPUT1 leaves no trace.

    MQCC_FAILED with the reason; the queue is exactly as before (queue_frame, CURDEPTH), no report
    reaches the reply queue, and the only new event is one ``failed`` entry carrying the reason.
    """
    qm, q = qm_with_queue()
    qm.define_qlocal(REPLY_Q)
    put(q, b"already there", Expiry=100)
    qm.sim.advance(seconds=1)
    frame_before = qm.queue_frame(APP_Q)
    depth_before = qm.curdepth(APP_Q)
    mark = len(qm.events)

    with raises_reason(reason):
        put_via(qm, via, mq.MD(**md_fields), pmo_options)

    pd.testing.assert_frame_equal(qm.queue_frame(APP_Q), frame_before)
    assert qm.curdepth(APP_Q) == depth_before, "a rejected put must not change CURDEPTH"
    assert qm.curdepth(REPLY_Q) == 0, "a rejected put never generates a report"
    new = events_since(qm, mark)
    assert [(e.kind, e.reason) for e in new] == [("failed", reason)], new


@pytest.mark.parametrize("expiry", [0, -2, -3, -100, -(2**31)])
def test_exp03_expiry_zero_or_negative_is_expiry_error(expiry: int) -> None:
    """EXP-03: Expiry 0, or negative other than -1 (MQEI_UNLIMITED), fails with 2013."""
    qm, q = qm_with_queue()
    with raises_reason(C.MQRC_EXPIRY_ERROR):
        put(q, Expiry=expiry)
    assert qm.curdepth(APP_Q) == 0
    assert events_of(qm, "put") == [], "nothing was put"


def test_exp01_expiry_counts_tenths_of_a_second() -> None:
    """EXP-01: Expiry is in tenths of a second, so 600 is one minute."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    put(q, b"one minute", Expiry=600)
    qm.sim.advance(ms=59_999)
    data, md = get(q)
    assert (data, md.Expiry) == (b"one minute", 1), "1 ms short of a minute: still live"

    put(q, b"also one minute", Expiry=600)
    qm.sim.advance(seconds=60)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        get(q)


def test_exp02_unlimited_is_the_initial_value_and_never_expires() -> None:
    """EXP-02: MD().Expiry starts as MQEI_UNLIMITED (-1); such a message never expires."""
    assert mq.MD().Expiry == C.MQEI_UNLIMITED == -1
    qm, q = qm_with_queue()
    put(q, b"forever")
    qm.sim.advance(seconds=10 * 24 * 3600)
    data, md = get(q)
    assert (data, md.Expiry) == (b"forever", C.MQEI_UNLIMITED)


def test_expiry_is_input_only_on_put() -> None:
    """The put does not change md.Expiry (it is an input field; docs/engine.md, CAPEXPRY note)."""
    _, q = qm_with_queue()
    md = put(q, Expiry=123)
    assert md.Expiry == 123


@pytest.mark.parametrize(
    ("enforce", "env_value"),
    [(True, None), (None, "1"), (None, "NO"), (None, "")],
    ids=["enforce-flag", "env-var", "env-var-value-ignored", "env-var-empty"],
)
def test_exp04_expiry_above_maximum_rejected_when_enforced(
    monkeypatch: pytest.MonkeyPatch, enforce: bool | None, env_value: str | None
) -> None:
    """EXP-04: Expiry > 999 999 999 fails with 2013 when the queue manager enforces the maximum.

    Enforcement comes from ``enforce_max_expiry=True`` or, with the default None, from the mere
    existence of AMQ_ENFORCE_MAX_EXPIRY_ERROR in the environment (its value is ignored).
    """
    if env_value is None:
        monkeypatch.delenv(ENV_ENFORCE, raising=False)
    else:
        monkeypatch.setenv(ENV_ENFORCE, env_value)
    qm = new_qm(enforce_max_expiry=enforce)
    qm.define_qlocal(APP_Q)
    q = mq.Queue(qm, APP_Q)
    mark = len(qm.events)
    with raises_reason(C.MQRC_EXPIRY_ERROR):
        put(q, Expiry=TOO_LONG)
    assert qm.curdepth(APP_Q) == 0
    assert [e.kind for e in events_since(qm, mark)] == ["failed"]

    put(q, Expiry=999_999_999)  # the documented maximum itself is always fine
    assert qm.curdepth(APP_Q) == 1


def test_exp04_expiry_above_maximum_accepted_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """EXP-04: with neither the flag nor the environment variable, a huge Expiry is accepted."""
    monkeypatch.delenv(ENV_ENFORCE, raising=False)
    qm, q = qm_with_queue()
    put(q, Expiry=TOO_LONG)
    qm.sim.advance(seconds=100)
    _, md = get(q)
    assert md.Expiry == TOO_LONG - 1000


# --- Priority (MD-02) -----------------------------------------------------------------------------


def test_md02_priority_as_q_def_takes_defprty_of_first_definition_on_path() -> None:
    """MD-02: Priority -1 takes DEFPRTY of the first definition the name resolves through.

    Put through an alias with its own DEFPRTY: the alias's value; put to the local queue: the local
    queue's; put to a remote definition: the remote definition's.
    """
    qm = new_qm()
    qm.define_qlocal(APP_Q, defprty=3, msgdlvsq="FIFO")
    qm.define_qalias("APP.ALIAS", target=APP_Q, defprty=6)
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("TO.QM2", rname="APP.IN", rqmname="QM2", defprty=4)
    for name in ("APP.ALIAS", APP_Q, "TO.QM2"):
        put(mq.Queue(qm, name), name.encode(), Priority=C.MQPRI_PRIORITY_AS_Q_DEF)

    q = mq.Queue(qm, APP_Q)
    assert [get(q)[1].Priority for _ in range(2)] == [6, 3], "alias DEFPRTY, then local DEFPRTY"
    assert list(qm.queue_frame("QM2")["priority"]) == [4], "remote definition's DEFPRTY"


def test_md02_priority_above_maxprty_is_a_warning() -> None:
    """MD-02: Priority > MaxPriority is accepted with MQCC_WARNING / 2049, not an exception.

    The warning is on q.last_comp/q.last_reason, in the put event, and issued as an MQWarning.
    """
    qm, q = qm_with_queue()
    assert qm.maxprty == 9
    with pytest.warns(mq.MQWarning):
        put(q, Priority=12)
    assert (q.last_comp, q.last_reason) == (C.MQCC_WARNING, C.MQRC_PRIORITY_EXCEEDS_MAXIMUM)
    assert qm.curdepth(APP_Q) == 1, "the message was put despite the warning"
    (put_event,) = events_of(qm, "put", queue=APP_Q)
    assert put_event.reason == C.MQRC_PRIORITY_EXCEEDS_MAXIMUM


def test_md02_priority_above_maxprty_ordered_at_maxprty_but_returned_unchanged() -> None:
    """MD-02: a Priority-12 message queues among the priority-9 ones (by arrival), yet the
    MD.Priority a get returns is still 12 (the application's value)."""
    qm, q = qm_with_queue()
    for priority in (8, 9, 12, 9):
        if priority > qm.maxprty:
            with pytest.warns(mq.MQWarning):
                put(q, Priority=priority)
        else:
            put(q, Priority=priority)
    frame = qm.queue_frame(APP_Q)
    assert list(frame["priority"]) == [9, 12, 9, 8]
    assert list(frame["lane"]) == [9, 9, 9, 8]
    assert [get(q)[1].Priority for _ in range(4)] == [9, 12, 9, 8]


def test_md02_fifo_queue_orders_by_arrival_and_keeps_priority() -> None:
    """MD-02: on a FIFO queue every message is ordered as if at DEFPRTY (arrival order);
    MD.Priority on get is what the putter gave (or DEFPRTY for -1)."""
    qm, q = qm_with_queue(msgdlvsq="FIFO", defprty=2)
    for priority in (1, 9, 5, C.MQPRI_PRIORITY_AS_Q_DEF, 0):
        put(q, Priority=priority)
    assert list(qm.queue_frame(APP_Q)["lane"]) == [2] * 5
    assert [get(q)[1].Priority for _ in range(5)] == [1, 9, 5, 2, 0]


# --- Other put checks -----------------------------------------------------------------------------


def test_request_with_reply_to_q_is_accepted() -> None:
    """2027 is only for a *blank* ReplyToQ: naming one makes the request (and reports) valid."""
    qm, q = qm_with_queue()
    qm.define_qlocal(REPLY_Q)
    put(q, MsgType=C.MQMT_REQUEST, ReplyToQ=REPLY_Q, Report=C.MQRO_EXPIRATION)
    assert qm.curdepth(APP_Q) == 1


def test_open_unknown_queue_is_2085() -> None:
    """Opening a name that is not defined fails with MQRC_UNKNOWN_OBJECT_NAME (2085)."""
    qm = new_qm()
    with raises_reason(C.MQRC_UNKNOWN_OBJECT_NAME):
        mq.Queue(qm, "NO.SUCH.QUEUE")
    with raises_reason(C.MQRC_UNKNOWN_OBJECT_NAME):
        qm.put1("NO.SUCH.QUEUE", b"x")


@pytest.mark.parametrize("data", ["text, not bytes", 42, None, [1, 2]])
def test_put_data_must_be_bytes_like(data: Any) -> None:
    """q.put needs bytes-like data; anything else is a TypeError (Python's, not an MQI error)."""
    qm, q = qm_with_queue()
    with pytest.raises(TypeError):
        q.put(data, mq.MD(), mq.PMO())
    assert qm.curdepth(APP_Q) == 0


def test_put_accepts_bytearray_and_memoryview() -> None:
    """Bytes-like means bytearray and memoryview too; get hands back bytes."""
    _, q = qm_with_queue(msgdlvsq="FIFO")
    q.put(bytearray(b"one"), mq.MD(), mq.PMO())
    q.put(memoryview(b"two"), mq.MD(), mq.PMO())
    assert [get(q)[0] for _ in range(2)] == [b"one", b"two"]
