"""The fast paths of MQPUT and MQGET agree with their general paths (docs/engine.md, "Storage
and the garbage collector").

An MD that sets no field but Expiry and Priority takes a shorter path through MQPUT: every other
field holds IBM's initial value, so the put knows what they give without reading them. A plain get
(no browse, no unit of work, no truncation) of a message kept as its record alone, with no
descriptor fields of its own, takes a shorter path through MQGET that makes no Message object, and
so does the discard of such a message when it has expired.
These tests run the same random operations twice, on two queue managers alike, once down each
path (for the put: MDs that also set some other fields to their initial values; for the get: the
fast path switched off), and compare everything a program or the views can see: the data and the
MD after each call, the codes and warnings, every queued message, CURDEPTH, and the event log.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine import mqget

Q = "APP.Q"
INITIAL = {name: getattr(mq.MD, name) for name in mq.MD._NAMES}
# fields that, set to their initial value, make an MD take the general path
OTHER_FIELDS = sorted(INITIAL.keys() - {"Expiry", "Priority"})

PMO_OPTIONS = [
    None,
    0,
    C.MQPMO_NO_SYNCPOINT,
    C.MQPMO_SYNCPOINT,
    C.MQPMO_NEW_MSG_ID,
    C.MQPMO_NEW_CORREL_ID | C.MQPMO_NO_SYNCPOINT,
    C.MQPMO_SET_ALL_CONTEXT,
    C.MQPMO_SET_IDENTITY_CONTEXT | C.MQPMO_SYNCPOINT,
    C.MQPMO_NO_CONTEXT,
]

puts = st.tuples(
    st.one_of(st.none(), st.sampled_from([-1, 1, 5, 30, 10**8])),  # Expiry (None: not set)
    st.one_of(st.none(), st.integers(-1, 12)),  # Priority (None: not set)
    st.sampled_from(PMO_OPTIONS),
    st.sets(st.sampled_from(OTHER_FIELDS), min_size=1, max_size=4),  # set to initial values
    st.booleans(),  # through qm.put with suppress_reply_to (a publication's copy)
    st.sampled_from([0, 0, 50, 100]),  # ms to advance after the put
)


def new_qm(profile: str) -> mq.QueueManager:
    qm = mq.QueueManager("QM1", profile=profile)
    qm.alter_qmgr(expryint=0, maxprty=7)
    qm.define_qlocal(Q, msgdlvsq="PRIORITY", defprty=3, defpsist="YES", maxdepth=1000)
    return qm


def run(profile: str, ops: list[tuple[Any, ...]], general: bool) -> list[Any]:
    """Everything visible after running ``ops``; ``general``: MDs also set other fields."""
    qm = new_qm(profile)
    q = mq.Queue(qm, Q)
    seen: list[Any] = []
    for expiry, priority, options, others, suppress, step in ops:
        md = mq.MD()
        if expiry is not None:
            md.Expiry = expiry
        if priority is not None:
            md.Priority = priority
        if general:
            for name in others:
                setattr(md, name, INITIAL[name])
        pmo = None if options is None else mq.PMO(Options=options)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if suppress:
                    outcome: Any = qm.put(Q, b"data", md, pmo, suppress_reply_to=True)
                else:
                    q.put(b"data", md, pmo)
                    outcome = (q.last_comp, q.last_reason)
            except mq.MQMIError as error:
                outcome = (error.comp, error.reason)
        seen.append((outcome, [str(w.message) for w in caught], md.get()))
        qm.sim.advance(ms=step)
    seen.append(list(qm.local(Q).store.views()))
    qm.backout()
    seen.append(qm.curdepth(Q))
    seen.append(qm.events)
    return seen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["distributed", "zos", "ibmi"]), st.lists(puts, min_size=1, max_size=12))
def test_simple_mds_give_what_the_general_path_gives(
    profile: str, ops: list[tuple[Any, ...]]
) -> None:
    assert run(profile, ops, general=False) == run(profile, ops, general=True)


def test_the_general_path_is_taken_when_another_field_is_set() -> None:
    """The comparison above means something only if the two MDs take different paths."""
    md = mq.MD(Expiry=5)
    assert md.__dict__.keys() <= {"Expiry", "Priority"}
    md.Format = INITIAL["Format"]
    assert not md.__dict__.keys() <= {"Expiry", "Priority"}


get_ops = st.one_of(
    st.tuples(
        st.just("put"),
        st.sampled_from([-1, 1, 5, 30]),  # Expiry
        st.integers(-1, 9),  # Priority
        st.sampled_from([None, "report", "format", "v2"]),  # descriptor fields of its own
        st.booleans(),  # under syncpoint
    ),
    st.tuples(
        st.just("get"),
        st.sampled_from(
            [
                None,
                C.MQGMO_NO_SYNCPOINT,
                C.MQGMO_SYNCPOINT,
                C.MQGMO_BROWSE_FIRST,
                C.MQGMO_BROWSE_NEXT,
                C.MQGMO_ACCEPT_TRUNCATED_MSG,
                C.MQGMO_MSG_UNDER_CURSOR,
            ]
        ),
        st.sampled_from([None, None, 2, 100]),  # max_length
        st.sampled_from([1, 2]),  # MD version
    ),
    st.tuples(st.just("advance"), st.sampled_from([0, 50, 100, 600])),
    st.tuples(st.just("end"), st.booleans()),  # commit or backout
    st.tuples(st.just("dead-letter"), st.booleans()),  # expired messages to DEADQ (EIP-04)
)


def run_gets(profile: str, fifo: bool, ops: list[tuple[Any, ...]]) -> list[Any]:
    qm = mq.QueueManager("QM1", profile=profile)
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal("REPLY.Q")
    qm.define_qlocal("DLQ")
    qm.alter_qmgr(deadq="DLQ")
    qm.define_qlocal(Q, msgdlvsq="FIFO" if fifo else "PRIORITY", maxdepth=1000)
    q = mq.Queue(qm, Q)
    seen: list[Any] = []
    for n, op in enumerate(ops):
        kind = op[0]
        try:
            if kind == "put":
                _, expiry, priority, own, syncpoint = op
                md = mq.MD(Expiry=expiry, Priority=priority)
                if own == "report":
                    md.Report, md.ReplyToQ = C.MQRO_EXPIRATION, "REPLY.Q"
                elif own == "format":
                    md.Format = C.MQFMT_STRING
                elif own == "v2":
                    md.Version, md.MsgSeqNumber = 2, 7
                options = C.MQPMO_SYNCPOINT if syncpoint else C.MQPMO_NO_SYNCPOINT
                q.put(b"message %d" % n, md, mq.PMO(Options=options))
                seen.append(md.get())
            elif kind == "get":
                _, options, max_length, version = op
                gmo = None if options is None else mq.GMO(Options=options)
                md = mq.MD(Version=version)
                seen.append((q.get(max_length, md, gmo), md.get()))
            elif kind == "advance":
                qm.sim.advance(ms=op[1])
            elif kind == "dead-letter":
                qm.expired_action = "dead-letter" if op[1] else "discard"
            elif op[1]:
                qm.commit()
            else:
                qm.backout()
        except mq.MQMIError as error:
            seen.append((error.comp, error.reason, md.get()))
        seen.append((q.last_comp, q.last_reason))
    seen.append(list(qm.local(Q).store.views()))
    seen.append((qm.curdepth(Q), qm.curdepth("REPLY.Q"), qm.curdepth("DLQ")))
    seen.append(qm.events)
    return seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["distributed", "zos", "ibmi"]),
    st.booleans(),
    st.lists(get_ops, min_size=1, max_size=25),
)
def test_plain_gets_and_discards_give_what_the_general_path_gives(
    profile: str, fifo: bool, ops: list[tuple[Any, ...]]
) -> None:
    fast = run_gets(profile, fifo, ops)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mqget, "_plain", lambda record, max_length: False)
        patch.setattr(mqget, "discard_record", discard_as_a_message)
        general = run_gets(profile, fifo, ops)
    assert fast == general


def discard_as_a_message(qm: Any, local: Any, record: Any, cause: str) -> None:
    """The general path of a discard: make the message's object, then discard it."""
    mqget.discard(qm, local, local.store.made(record, keep=False), cause)
