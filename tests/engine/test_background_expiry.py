"""Background expiry per profile (EXP-28) and CAPEXPRY (EXP-06).

EXP-28: distributed and IBM i queue managers run an expiry task every 300 s (0 switches it off);
z/OS scans every EXPRYINT seconds (off by default) and on REFRESH QMGR TYPE(EXPIRY).
EXP-06: the lowest CAPEXPRY on the resolution path lowers a larger Expiry at put time.
"""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    discard_causes,
    events,
    get_from,
    mq_reason,
    put_expiring,
    put_to,
    qm_with_queues,
    unpack_xqh,
)


def advance_to(qm: mq.QueueManager, seconds: float) -> None:
    """Move the clock to an absolute time (seconds since the Simulation started)."""
    qm.sim.advance(ms=round(seconds * 1000) - qm.sim.now)


def assert_scanned_at(qm: mq.QueueManager, seconds: int, live: int = 0) -> None:
    """One expired message on APP.IN (besides ``live`` live ones) survives until just before
    ``seconds`` and is gone at it."""
    advance_to(qm, seconds - 1)
    assert qm.curdepth(APP_Q) == live + 1, f"no scan may run before {seconds} s"
    advance_to(qm, seconds)
    assert qm.curdepth(APP_Q) == live, f"a scan at {seconds} s discards the expired message"
    assert discard_causes(qm, APP_Q) == ["scan"]


# --- EXP-28, distributed ----------------------------------------------------------------------


def test_exp28_distributed_scans_every_300_s_without_any_get() -> None:
    qm = qm_with_queues(scans=True)
    put_expiring(qm, expiry=10)
    put_to(qm, APP_Q, b"live", Expiry=C.MQEI_UNLIMITED)
    assert_scanned_at(qm, 300, live=1)
    assert qm.curdepth(REPLY_Q) == 1, "the scan sends the requested expiration report"
    assert [e.time_ms for e in events(qm, "scan")][:1] == [300_000]
    assert get_from(qm, APP_Q)[0] == b"live", "live messages stay"


def test_exp28_distributed_scans_again_every_interval() -> None:
    qm = qm_with_queues(scans=True)
    advance_to(qm, 301)
    put_expiring(qm, expiry=10)
    assert_scanned_at(qm, 600)


def test_exp28_distributed_expryint_zero_disables_the_scan() -> None:
    qm = qm_with_queues(scans=True)
    qm.alter_qmgr(expryint=0)
    put_expiring(qm, expiry=10)
    advance_to(qm, 3600)
    assert qm.curdepth(APP_Q) == 1
    assert events(qm, "discard") == [] and events(qm, "report") == []


def test_exp28_distributed_expryint_changes_the_interval() -> None:
    qm = qm_with_queues(scans=True)
    qm.alter_qmgr(expryint=60)
    put_expiring(qm, expiry=10)
    assert_scanned_at(qm, 60)


def test_exp28_scan_skips_uncommitted_and_locked_messages() -> None:
    """A scan discards expired messages that are committed and unlocked, nothing else."""
    qm = qm_with_queues(scans=True)
    mq.Queue(qm, APP_Q).put(b"uncommitted", mq.MD(Expiry=10), mq.PMO(Options=C.MQPMO_SYNCPOINT))
    put_to(qm, APP_Q, b"locked", Expiry=100)
    locker = mq.Queue(qm, APP_Q)
    options = C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK | C.MQGMO_NO_SYNCPOINT
    assert locker.get(None, mq.MD(), mq.GMO(Options=options)) == b"locked"
    put_to(qm, APP_Q, b"plain", Expiry=10)
    advance_to(qm, 300)
    assert qm.curdepth(APP_Q) == 2, "only the committed, unlocked expired message goes"
    assert discard_causes(qm, APP_Q) == ["scan"]


@pytest.mark.parametrize(("profile", "seconds"), [("distributed", 300), ("ibmi", 300), ("zos", 0)])
def test_exp28_default_expiry_interval_per_profile(profile: str, seconds: int) -> None:
    assert qm_with_queues(profile=profile, scans=True).expryint == seconds


# --- EXP-28, z/OS -----------------------------------------------------------------------------


def test_exp28_zos_no_scan_by_default() -> None:
    qm = qm_with_queues(profile="zos", scans=True)
    put_expiring(qm, expiry=10)
    advance_to(qm, 3600)
    assert qm.curdepth(APP_Q) == 1
    assert events(qm, "scan") == [] and events(qm, "discard") == []


def test_exp28_zos_expryint_scans_every_interval() -> None:
    qm = qm_with_queues(profile="zos", scans=True)
    qm.alter_qmgr(expryint=30)
    put_expiring(qm, expiry=10)
    assert_scanned_at(qm, 30)
    put_expiring(qm, expiry=10)
    assert qm.curdepth(REPLY_Q) == 1
    advance_to(qm, 59)
    assert qm.curdepth(APP_Q) == 1
    advance_to(qm, 60)
    assert qm.curdepth(APP_Q) == 0


ZOS_QUEUES = ("APP.A", "APP.B", "OTHER.Q")


@pytest.fixture
def zos_with_expired() -> mq.QueueManager:
    """z/OS, no EXPRYINT: on each queue two expired messages and one live one."""
    qm = qm_with_queues(profile="zos", queues=(*ZOS_QUEUES, REPLY_Q), scans=True)
    for qname in ZOS_QUEUES:
        put_to(qm, qname, b"old 1", Expiry=10)
        put_to(qm, qname, b"old 2", Expiry=10)
        put_to(qm, qname, b"live", Expiry=C.MQEI_UNLIMITED)
    advance_to(qm, 5)
    return qm


def test_exp28_zos_refresh_expiry_scans_matching_queues_only(
    zos_with_expired: mq.QueueManager,
) -> None:
    qm = zos_with_expired
    assert qm.refresh_expiry("APP.*") == 4
    depths = {qname: qm.curdepth(qname) for qname in ZOS_QUEUES}
    assert depths == {"APP.A": 1, "APP.B": 1, "OTHER.Q": 3}
    assert discard_causes(qm, "OTHER.Q") == []


def test_exp28_zos_refresh_expiry_default_is_every_queue(
    zos_with_expired: mq.QueueManager,
) -> None:
    qm = zos_with_expired
    assert qm.refresh_expiry() == 6
    assert all(qm.curdepth(qname) == 1 for qname in ZOS_QUEUES)


@pytest.mark.parametrize("profile", ["distributed", "ibmi"])
def test_exp28_refresh_expiry_is_zos_only(profile: str) -> None:
    qm = qm_with_queues(profile=profile, scans=True)
    assert mq_reason(lambda: qm.refresh_expiry("APP.*")) == C.MQRC_FUNCTION_NOT_SUPPORTED


# --- EXP-28, IBM i ----------------------------------------------------------------------------


def test_exp28_ibmi_scans_every_300s() -> None:
    """The same internal expiry task as distributed: the first scan at 300 s, without any get."""
    qm = qm_with_queues(profile="ibmi", scans=True)
    put_expiring(qm, expiry=10)
    put_to(qm, APP_Q, b"live", Expiry=C.MQEI_UNLIMITED)
    assert_scanned_at(qm, 300, live=1)
    assert qm.curdepth(REPLY_Q) == 1, "the scan sends the requested expiration report"
    assert [e.time_ms for e in events(qm, "scan")] == [300_000]
    assert events(qm, "get") == [], "no application get was involved"
    assert get_from(qm, APP_Q)[0] == b"live", "live messages stay"


def test_exp28_ibmi_scans_again_every_300s() -> None:
    qm = qm_with_queues(profile="ibmi", scans=True)
    advance_to(qm, 301)
    put_expiring(qm, expiry=10)
    assert_scanned_at(qm, 600)
    assert [e.time_ms for e in events(qm, "scan")] == [300_000, 600_000]


def test_exp28_ibmi_alter_qmgr_expryint_sets_the_interval_from_the_alter() -> None:
    """ALTER at 100 s to 60 s: scans at 160, 220 and 280 s, none at 300 s (the old schedule)."""
    qm = qm_with_queues(profile="ibmi", scans=True)
    put_expiring(qm, expiry=10)
    advance_to(qm, 100)
    qm.alter_qmgr(expryint=60)
    assert qm.expryint == 60
    assert_scanned_at(qm, 160)
    advance_to(qm, 330)
    assert [e.time_ms for e in events(qm, "scan")] == [160_000, 220_000, 280_000]


def test_exp28_ibmi_expryint_zero_disables_the_scan() -> None:
    qm = qm_with_queues(profile="ibmi", scans=True)
    qm.alter_qmgr(expryint=0)
    put_expiring(qm, expiry=10)
    advance_to(qm, 3600)
    assert qm.curdepth(APP_Q) == 1, "with the task off only gets and browses discard"
    assert events(qm, "scan") == [] and events(qm, "discard") == []


@pytest.mark.parametrize("bad", [-1, 100_000_000, 1.5])
def test_exp28_ibmi_expryint_range_as_distributed(bad: object) -> None:
    qm = qm_with_queues(profile="ibmi", scans=True)
    with pytest.raises(ValueError, match=r"EXPRYINT must be seconds in 0\.\.99999999"):
        qm.alter_qmgr(expryint=bad)  # type: ignore[arg-type]
    assert qm.expryint == 300


# --- EXP-06: CAPEXPRY -------------------------------------------------------------------------


@pytest.mark.parametrize(("expiry", "stored"), [(C.MQEI_UNLIMITED, 50), (100, 50), (30, 30)])
def test_exp06_capexpry_on_local_queue(expiry: int, stored: int) -> None:
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("CAPPED", capexpry=50)
    md = put_to(qm, "CAPPED", Expiry=expiry)
    assert md.Expiry == expiry, "Expiry is input-only: the put does not rewrite md.Expiry"
    assert get_from(qm, "CAPPED", browse=True)[1].Expiry == stored


def test_exp06_capped_message_expires_at_the_cap() -> None:
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("CAPPED", capexpry=50)
    put_to(qm, "CAPPED", Expiry=C.MQEI_UNLIMITED)
    qm.sim.advance(seconds=6)
    assert mq_reason(lambda: get_from(qm, "CAPPED")) == C.MQRC_NO_MSG_AVAILABLE


@pytest.mark.parametrize(
    ("alias_cap", "local_cap", "stored"),
    [(20, 50, 20), (80, 50, 50), (None, 50, 50), (30, None, 30), ("NOLIMIT", "NOLIMIT", -1)],
)
def test_exp06_lowest_cap_on_alias_path_wins(
    alias_cap: int | str | None, local_cap: int | str | None, stored: int
) -> None:
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("CAPPED", capexpry=local_cap)
    qm.define_qalias("ALIAS.CAPPED", target="CAPPED", capexpry=alias_cap)
    put_to(qm, "ALIAS.CAPPED", Expiry=C.MQEI_UNLIMITED)
    assert get_from(qm, "CAPPED")[1].Expiry == stored


@pytest.mark.parametrize(
    ("remote_cap", "xmitq_cap", "stored"),
    [(40, None, 40), (None, 30, 30), (40, 30, 30), (20, 60, 20)],
)
def test_exp06_cap_on_remote_definition_and_xmitq(
    remote_cap: int | None, xmitq_cap: int | None, stored: int
) -> None:
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("QM2", usage="XMITQ", capexpry=xmitq_cap)
    qm.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2", capexpry=remote_cap)
    md = put_to(qm, "TO.QM2", Expiry=C.MQEI_UNLIMITED)
    assert md.Expiry == C.MQEI_UNLIMITED
    data, outer = get_from(qm, "QM2")
    assert (outer.Expiry, unpack_xqh(data).MsgDesc.Expiry) == (stored, stored)


def test_exp06_altering_capexpry_leaves_queued_messages_alone() -> None:
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("CAPPED", capexpry=50)
    put_to(qm, "CAPPED", b"capped", Expiry=C.MQEI_UNLIMITED)
    put_to(qm, APP_Q, b"uncapped", Expiry=C.MQEI_UNLIMITED)
    qm.alter_qlocal("CAPPED", capexpry="NOLIMIT")
    qm.alter_qlocal(APP_Q, capexpry=10)
    qm.sim.advance(seconds=2)
    assert get_from(qm, "CAPPED")[1].Expiry == 30, "the old cap still applies to the old message"
    assert get_from(qm, APP_Q)[1].Expiry == C.MQEI_UNLIMITED, "a new cap does not reach back"
    put_to(qm, APP_Q, b"new", Expiry=C.MQEI_UNLIMITED)
    assert get_from(qm, APP_Q)[1].Expiry == 10, "new puts get the new cap"
