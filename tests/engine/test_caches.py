"""The caches of the put and get paths never go stale (rules MD-02, EXP-06, EXP-20;
docs/engine.md, "Storage and the garbage collector").

A put keeps what the rule formulas give for a route (the Priority stored, its lane and the 2049
warning, per Priority value; the Expiry stored after CAPEXPRY and the deadline, per Expiry value
and clock tick) and decodes a PMO's Options once per value; a get decodes a GMO's Options once per
value, and PutDate/PutTime are cached per hundredth of a second and per half of PutTime. These
tests change what those values depend on between puts (MAXPRTY, DEFPRTY, MSGDLVSQ, CAPEXPRY, the
clock) and check every queued message against the rules computed here, from the documentation's
formulas, not by the engine; the decoders are compared with decoding afresh, the stamps with
Python's datetime.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.message import NEVER
from mqlearn.engine.mqi_checks import _check_gmo, _check_pmo, _put_options, check_gmo, check_pmo

Q = "APP.Q"


def new_qm() -> mq.QueueManager:
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)  # no background scans (EXP-28): nothing leaves the queue
    qm.define_qlocal(Q, maxdepth=100_000)
    return qm


def expected(
    priority: int, expiry: int, *, maxprty: int, defprty: int, fifo: bool, cap: int | None, now: int
) -> tuple[int, int, int, bool]:
    """(Priority stored, lane, deadline, 2049 warning) by the documented rules."""
    stored = defprty if priority == -1 else priority  # MD-02: MQPRI_PRIORITY_AS_Q_DEF
    lane = defprty if fifo else min(stored, maxprty)  # MD-02: FIFO queues use DEFPRTY
    if cap is not None and (expiry == -1 or expiry > cap):  # EXP-06
        expiry = cap
    deadline = NEVER if expiry == -1 else now + 100 * expiry  # EXP-20: tenths of a second
    return stored, lane, deadline, stored > maxprty


def queued(qm: mq.QueueManager) -> list[tuple[int, int, int]]:
    """(Priority, lane, deadline) of every queued message, in arrival order."""
    views = sorted(qm.local(Q).store.views(), key=lambda view: view.seq)
    return [(view.priority, view.lane, view.deadline) for view in views]


def put(qm: mq.QueueManager, priority: int, expiry: int) -> int:
    q = mq.Queue(qm, Q)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mq.MQWarning)
        q.put(b"x", mq.MD(Priority=priority, Expiry=expiry))
    return q.last_reason


def test_maxprty_altered_between_puts() -> None:
    qm = new_qm()
    assert put(qm, 7, -1) == 0
    qm.alter_qmgr(maxprty=5)
    assert put(qm, 7, -1) == C.MQRC_PRIORITY_EXCEEDS_MAXIMUM
    assert queued(qm) == [(7, 7, NEVER), (7, 5, NEVER)]


def test_defprty_and_msgdlvsq_altered_between_puts() -> None:
    qm = new_qm()
    put(qm, -1, -1)
    qm.alter_qlocal(Q, defprty=4)
    put(qm, -1, -1)
    put(qm, 8, -1)
    qm.alter_qlocal(Q, msgdlvsq="FIFO")
    put(qm, 8, -1)
    assert queued(qm) == [(0, 0, NEVER), (4, 4, NEVER), (8, 8, NEVER), (8, 4, NEVER)]


def test_capexpry_altered_within_one_clock_tick() -> None:
    qm = new_qm()
    put(qm, 0, 100)
    qm.alter_qlocal(Q, capexpry=10)
    put(qm, 0, 100)
    put(qm, 0, -1)
    qm.alter_qlocal(Q, capexpry="NOLIMIT")
    put(qm, 0, 100)
    assert [deadline for _, _, deadline in queued(qm)] == [10_000, 1_000, 1_000, 10_000]


@pytest.mark.parametrize(
    ("define", "attr", "value", "how"),
    [
        (lambda qm: qm.define_qlocal("L", capexpry=100), "capexpry", 10, "alter_qlocal"),
        (lambda qm: qm.local(Q), "maxdepth", 1, "alter_qlocal"),
        (lambda qm: qm.define_qalias("A", target=Q), "target", "L2", "qm.alter("),
        (
            lambda qm: qm.define_qremote("R", rname="X", rqmname="QM2"),
            "rname",
            "Y",
            "qm.alter(",
        ),
        (lambda qm: qm.define_topic("T", topicstr="a/b"), "capexpry", 5, "replace=True"),
    ],
)
def test_definitions_are_read_only(
    define: Callable[[mq.QueueManager], Any], attr: str, value: object, how: str
) -> None:
    """Setting an attribute of a definition the queue manager handed out fails and says how to
    change it (the route cache would never hear of the change); ALTER and REPLACE still work."""
    qm = new_qm()
    definition = define(qm)
    before = getattr(definition, attr)
    with pytest.raises(AttributeError, match="read-only") as raised:
        setattr(definition, attr, value)
    assert how in str(raised.value) and attr.upper() in str(raised.value)
    with pytest.raises(AttributeError, match="read-only"):
        delattr(definition, attr)
    assert getattr(definition, attr) == before


def test_an_altered_definition_reads_the_new_values_and_puts_follow_them() -> None:
    qm = new_qm()
    definition = qm.local(Q)
    put(qm, 0, 100)
    qm.alter_qlocal(Q, capexpry=10)
    assert definition.capexpry == 10 and qm.local(Q) is definition
    put(qm, 0, 100)
    assert [deadline for _, _, deadline in queued(qm)] == [10_000, 1_000]


def test_clock_advanced_between_puts() -> None:
    qm = new_qm()
    put(qm, 0, 50)
    qm.sim.advance(ms=1)
    put(qm, 0, 50)
    qm.sim.advance(ms=99)
    put(qm, 0, 50)
    assert [deadline for _, _, deadline in queued(qm)] == [5_000, 5_001, 5_100]


def test_put_date_and_time_follow_the_clock() -> None:
    qm = new_qm()
    q = mq.Queue(qm, Q)
    stamps = []
    for step in (0, 10, 0, 1_000):
        qm.sim.advance(ms=step)
        md = mq.MD()
        q.put(b"x", md)
        stamps.append((md.PutDate, md.PutTime))
    assert stamps == [
        ("20260101", "09000000"),
        ("20260101", "09000001"),
        ("20260101", "09000001"),
        ("20260101", "09000101"),
    ]


# one step: ("put", priority, expiry) / ("advance", ms) / ("maxprty", n) / ("defprty", n) /
# ("fifo", bool) / ("cap", tenths or None)
puts = st.tuples(
    st.just("put"),
    st.integers(-1, 12),
    st.sampled_from([-1, 1, 7, 50, 300]),  # few values, so that a value is put again after a change
)
steps = st.one_of(
    puts,
    puts,
    puts,
    st.tuples(st.just("advance"), st.sampled_from([0, 1, 50, 100, 250])),
    st.tuples(st.just("maxprty"), st.integers(0, 9)),
    st.tuples(st.just("defprty"), st.integers(0, 9)),
    st.tuples(st.just("fifo"), st.booleans()),
    st.tuples(st.just("cap"), st.one_of(st.none(), st.sampled_from([1, 7, 50]))),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(steps, min_size=1, max_size=40))
def test_every_put_agrees_with_the_rules_whatever_changes_in_between(
    ops: list[tuple[Any, ...]],
) -> None:
    qm = new_qm()
    state: dict[str, Any] = {"maxprty": 9, "defprty": 0, "fifo": False, "cap": None}
    want, warned = [], []
    for op in ops:
        kind = op[0]
        if kind == "put":
            _, priority, expiry = op
            stored, lane, deadline, warning = expected(priority, expiry, now=qm.sim.now, **state)
            want.append((stored, lane, deadline))
            warned.append(warning)
            reason = put(qm, priority, expiry)
            assert reason == (C.MQRC_PRIORITY_EXCEEDS_MAXIMUM if warning else 0)
        elif kind == "advance":
            qm.sim.advance(ms=op[1])
        elif kind == "maxprty":
            state["maxprty"] = op[1]
            qm.alter_qmgr(maxprty=op[1])
        elif kind == "defprty":
            state["defprty"] = op[1]
            qm.alter_qlocal(Q, defprty=op[1])
        elif kind == "fifo":
            state["fifo"] = op[1]
            qm.alter_qlocal(Q, msgdlvsq="FIFO" if op[1] else "PRIORITY")
        else:
            state["cap"] = op[1]
            qm.alter_qlocal(Q, capexpry="NOLIMIT" if op[1] is None else op[1])
    assert queued(qm) == want


options_values = st.one_of(
    st.integers(0, 1 << 22),
    st.sampled_from([True, False]),
    st.builds(
        lambda bits: sum(bits),
        st.sets(
            st.sampled_from(
                [
                    C.MQPMO_SYNCPOINT,
                    C.MQPMO_NO_SYNCPOINT,
                    C.MQPMO_NEW_MSG_ID,
                    C.MQPMO_NEW_CORREL_ID,
                    C.MQPMO_NO_CONTEXT,
                    C.MQPMO_SET_ALL_CONTEXT,
                    C.MQPMO_SET_IDENTITY_CONTEXT,
                    C.MQPMO_FAIL_IF_QUIESCING,
                ]
            )
        ),
    ),
)


def outcome(decode: Any, options: Any) -> Any:
    """What ``decode`` makes of a PMO or GMO, or the exception it raises (type and reason)."""
    try:
        return decode(options)
    except (mq.MQMIError, TypeError) as error:
        return type(error), getattr(error, "reason", None)


def put_options_afresh(pmo: mq.PMO) -> Any:
    """What the PMO decodes to with no cache."""
    return _put_options(_check_pmo(pmo))


def assert_cache_agrees(make: Callable[[], Any], cached: Any, afresh: Any) -> None:
    """A new structure from ``make`` decodes through the cache as it does afresh, asked twice
    (the second time the cache answers)."""
    for _ in range(2):
        options = make()
        assert outcome(cached, options) == outcome(afresh, options)


@settings(max_examples=300, deadline=None)
@given(st.lists(options_values, min_size=1, max_size=6))
def test_cached_put_options_agree_with_decoding_afresh(values: list[int]) -> None:
    for value in values:
        assert_cache_agrees(partial(mq.PMO, Options=value), check_pmo, put_options_afresh)


@pytest.mark.parametrize("pmo", [None, mq.PMO()])
def test_no_pmo_is_the_initial_pmo(pmo: mq.PMO | None) -> None:
    assert check_pmo(pmo) == put_options_afresh(mq.PMO())


@pytest.mark.parametrize(
    ("pmo", "handles"),
    [
        (mq.PMO(Options=C.MQPMO_NO_SYNCPOINT), False),
        (mq.PMO(Version=C.MQPMO_VERSION_3), False),
        (mq.PMO(Version=C.MQPMO_VERSION_3, NewMsgHandle=1), True),
        (mq.PMO(Options=C.MQPMO_NO_SYNCPOINT, OriginalMsgHandle=1), True),
    ],
)
def test_only_a_pmo_naming_a_message_handle_takes_the_properties_path(
    pmo: mq.PMO, handles: bool
) -> None:
    """A put looks for properties only when its PMO names a handle (a plain put skips it)."""
    assert check_pmo(pmo).handles is handles
    assert check_pmo(pmo)._replace(handles=False) == put_options_afresh(pmo)


@pytest.mark.parametrize(
    ("gmo", "extras"),
    [
        (mq.GMO(Options=C.MQGMO_NO_WAIT | C.MQGMO_NO_SYNCPOINT), False),
        (mq.GMO(Version=C.MQGMO_VERSION_3, MatchOptions=C.MQMO_MATCH_GROUP_ID), False),
        (mq.GMO(Options=C.MQGMO_PROPERTIES_IN_HANDLE), True),
        (mq.GMO(Options=C.MQGMO_NO_PROPERTIES), True),
        (mq.GMO(Version=C.MQGMO_VERSION_2, Options=C.MQGMO_LOGICAL_ORDER), True),
        (mq.GMO(Version=C.MQGMO_VERSION_2, Options=C.MQGMO_ALL_MSGS_AVAILABLE), True),
        (mq.GMO(Version=C.MQGMO_VERSION_4), True),
    ],
)
def test_a_get_asks_for_properties_or_groups_by_its_options_or_a_version_4_gmo(
    gmo: mq.GMO, extras: bool
) -> None:
    """What lets a plain get skip the properties' target and the group plan, cached or not."""
    assert check_gmo(gmo).extras is extras
    assert check_gmo(gmo) == _check_gmo(gmo)


gmo_options = st.one_of(
    st.integers(0, 1 << 26),
    st.sampled_from([True, False]),
    st.sampled_from(
        [
            C.MQGMO_NO_WAIT | C.MQGMO_NO_SYNCPOINT,
            C.MQGMO_WAIT,
            C.MQGMO_SYNCPOINT,
            C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK,
            C.MQGMO_BROWSE_NEXT | C.MQGMO_SYNCPOINT,
            C.MQGMO_ACCEPT_TRUNCATED_MSG,
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(gmo_options, min_size=1, max_size=6))
def test_cached_get_options_agree_with_decoding_afresh(values: list[int]) -> None:
    for value in values:
        assert_cache_agrees(partial(mq.GMO, Options=value), check_gmo, _check_gmo)


gmo_field_values = st.one_of(
    st.none(), st.integers(-2, 70_000), st.sampled_from([True, False, 1.0, 0.0, -1.0])
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(gmo_options, gmo_field_values, gmo_field_values, st.sampled_from([1, 2, True])),
        min_size=1,
        max_size=6,
    )
)
def test_cached_multi_field_get_options_agree_with_decoding_afresh(
    gmos: list[tuple[Any, Any, Any, Any]],
) -> None:
    """GMOs that also set WaitInterval, MatchOptions or Version: a bool or a float equal to an
    int that was cached first (True == 1 == 1.0) is decoded afresh, never answered by the cache."""
    for options, wait, match, version in gmos:
        fields = {"Options": options, "Version": version}
        if wait is not None:
            fields["WaitInterval"] = wait
        if match is not None:
            fields["MatchOptions"] = match
        assert_cache_agrees(partial(mq.GMO, **fields), check_gmo, _check_gmo)


def test_a_bool_wait_interval_is_refused_after_an_int_one_was_cached() -> None:
    wait_one = mq.GMO(Options=C.MQGMO_WAIT, WaitInterval=1)
    assert check_gmo(wait_one).wait_ms == 1
    with pytest.raises(mq.MQMIError) as refused:
        check_gmo(mq.GMO(Options=C.MQGMO_WAIT, WaitInterval=True))
    assert refused.value.reason == C.MQRC_WAIT_INTERVAL_ERROR


@settings(max_examples=200, deadline=None)
@given(
    st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 1, 1)),
    st.lists(st.integers(0, 40 * 86_400_000), min_size=1, max_size=8),
)
def test_put_date_and_time_agree_with_datetime(start: datetime, times: list[int]) -> None:
    sim = mq.Simulation(start=start.replace(microsecond=0, tzinfo=UTC))
    for time_ms in times + times:  # each twice: the second from the cache
        instant = sim.start + timedelta(milliseconds=time_ms)
        hundredths = f"{instant.microsecond // 10_000:02d}"
        want = (instant.strftime("%Y%m%d"), instant.strftime("%H%M%S") + hundredths)
        assert sim.stamp(time_ms) == want
