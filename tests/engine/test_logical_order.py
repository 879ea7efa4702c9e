"""Message groups and segments through put, get, browse, expiry and reports (issue 24; rules MD-10,
MD-11, EXP-30), on the three profiles.

The expected values come from IBM's pages, not from the engine: the tables of "MQPMO - Put-message
options" (MQPMO_LOGICAL_ORDER: which GroupId, MsgSeqNumber and Offset the queue manager uses) and of
"Options (MQLONG)" of MQGMO (MQGMO_LOGICAL_ORDER: what the next get looks for), the figures of
"Logical and physical ordering", the example of "Application segmentation of logical messages",
"Reassembly of segments", the MQMD fields of seed 003 ("MQMD on IBM i": MDGID, MDSEQ, MDOFF, MDMFL,
MDOLN) and the reason-code pages 2241, 2242, 2245, 2247, 2250-2253, 2255-2257 and 2259.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import APP_Q, REPLY_Q, new_qm, raises_reason

PROFILES = ["distributed", "zos", "ibmi"]
# z/OS segments no messages and takes none on a queue indexed by GroupId, which its logical-order
# and whole-group gets need (2365, 2394): segment tests run on the other two, and z/OS has its own
SEGMENT_PROFILES = ["distributed", "ibmi"]
MIG, LMIG = C.MQMF_MSG_IN_GROUP, C.MQMF_LAST_MSG_IN_GROUP
SEG, LSEG = C.MQMF_SEGMENT, C.MQMF_LAST_SEGMENT
LOGICAL_PUT = C.MQPMO_LOGICAL_ORDER | C.MQPMO_NO_SYNCPOINT
LOGICAL_GET = C.MQGMO_LOGICAL_ORDER | C.MQGMO_NO_SYNCPOINT
NONE_GROUP = C.MQGI_NONE


def setup(profile: str = "distributed", **queue: Any) -> tuple[mq.QueueManager, mq.Queue]:
    """APP.IN and the reply queue; on z/OS APP.IN is INDXTYPE(GROUPID), as logical-order gets
    need there (2394)."""
    qm = new_qm(profile=profile)
    if profile == "zos":
        queue.setdefault("indxtype", "GROUPID")
    qm.define_qlocal(APP_Q, **queue)
    qm.define_qlocal(REPLY_Q)
    return qm, mq.Queue(qm, APP_Q)


def lput(q: mq.Queue, data: bytes, flags: int, options: int = LOGICAL_PUT, **md: Any) -> mq.MD:
    """A put in logical order: the MD sets only MsgFlags (and what ``md`` adds)."""
    put_md = mq.MD(Version=2, MsgFlags=flags, **md)
    q.put(data, put_md, mq.PMO(Options=options))
    return put_md


def plain(q: mq.Queue, data: bytes) -> None:
    """A message in no group, outside any unit of work (z/OS's default is syncpoint)."""
    q.put(data, mq.MD(Version=2), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))


def xput(q: mq.Queue, data: bytes, group: bytes, seq: int, offset: int, flags: int) -> None:
    """A put that sets the group fields itself (no logical order): any physical order."""
    md = mq.MD(Version=2, GroupId=group, MsgSeqNumber=seq, Offset=offset, MsgFlags=flags)
    q.put(data, md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))


def lget(q: mq.Queue, options: int = LOGICAL_GET, **gmo: Any) -> tuple[bytes, mq.MD, mq.GMO]:
    md = mq.MD(Version=2)
    got = mq.GMO(Version=2, Options=options, MatchOptions=gmo.pop("MatchOptions", 0), **gmo)
    return q.get(None, md, got), md, got


def drain(q: mq.Queue, options: int = LOGICAL_GET) -> list[bytes]:
    out = []
    while True:
        try:
            out.append(lget(q, options)[0])
        except mq.MQMIError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            return out


def group(n: int) -> bytes:
    return b"GROUP-%d" % n + b"\0" * (24 - len(b"GROUP-%d" % n))


# -- MD-10: MQPMO_LOGICAL_ORDER ---------------------------------------------------------------------
@pytest.mark.parametrize("profile", PROFILES)
def test_md10_logical_order_generates_a_group_id_and_numbers_the_group(profile: str) -> None:
    """MQPMO options, Table 1: the first message of a group gets a new group id, the others the
    previous one with MsgSeqNumber + 1; MQPUT returns them in the MD. GroupId is 24 bytes, made
    as MsgIds are, and a second group has another one."""
    _qm, q = setup(profile)
    mds = [lput(q, b"a%d" % i, MIG) for i in (1, 2)] + [lput(q, b"a3", LMIG)]
    first = mds[0].GroupId
    assert first != NONE_GROUP and len(first) == 24 and first.startswith(b"AMQ QM1")
    assert [(m.GroupId, m.MsgSeqNumber, m.Offset) for m in mds] == [
        (first, s, 0) for s in (1, 2, 3)
    ]
    assert [m.MsgFlags for m in mds] == [MIG, MIG, LMIG], "the putter's MD keeps its own flags"
    second = lput(q, b"b1", LMIG)
    assert second.GroupId not in (NONE_GROUP, first) and second.MsgSeqNumber == 1
    stored = []
    for _ in range(4):
        md = mq.MD(Version=2)
        q.get(None, md, mq.GMO(Version=2, MatchOptions=C.MQMO_NONE))
        stored.append((md.GroupId, md.MsgSeqNumber, md.MsgFlags))
    last = LMIG | MIG  # rule MD-08: stored with MQMF_MSG_IN_GROUP turned on
    assert stored == [(first, 1, MIG), (first, 2, MIG), (first, 3, last), (second.GroupId, 1, last)]


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md10_ibm_example_group_of_segmented_messages(profile: str) -> None:
    """IBM's "Application segmentation of logical messages": four logical messages, all but the
    third segmented by the application; Offset runs on by each segment's data length."""
    _qm, q = setup(profile)
    plan = [
        (MIG | SEG, b"abc"),
        (MIG | SEG, b"defgh"),
        (MIG | LSEG, b"ij"),
        (MIG | SEG, b"k"),
        (MIG | LSEG, b"lm"),
        (MIG, b"whole"),
        (LMIG | SEG, b"no"),
        (LMIG | SEG, b"pqr"),
        (LMIG | LSEG, b""),  # the last segment may be empty (seed 003, MFLSEG)
    ]
    got = [lput(q, data, flags) for flags, data in plan]
    assert [(m.MsgSeqNumber, m.Offset) for m in got] == [
        (1, 0), (1, 3), (1, 8), (2, 0), (2, 1), (3, 0), (4, 0), (4, 2), (4, 5),
    ]  # fmt: skip
    assert len({m.GroupId for m in got}) == 1
    q.close()
    assert (q.last_comp, q.last_reason) == (C.MQCC_OK, C.MQRC_NONE), "the group was terminated"


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_no_grouping_flag_keeps_mqgi_none_and_segmentation_allowed_gets_an_id(
    profile: str,
) -> None:
    """Table 1's first rows: no flag → MQGI_NONE, 1, 0; MQMF_SEGMENTATION_ALLOWED → a new id."""
    _qm, q = setup(profile)
    plain = lput(q, b"plain", C.MQMF_NONE)
    allowed = lput(q, b"may be split", C.MQMF_SEGMENTATION_ALLOWED)
    assert (plain.GroupId, plain.MsgSeqNumber, plain.Offset) == (NONE_GROUP, 1, 0)
    assert allowed.GroupId != NONE_GROUP and allowed.MsgSeqNumber == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_mqgi_none_with_a_group_flag_gets_a_new_group_id_without_logical_order(
    profile: str,
) -> None:
    """GroupId (seed 003, MDGID): without logical order, MQGI_NONE on the first put of a group
    asks for a generated id, on MQPUT and MQPUT1; a given GroupId is kept."""
    qm, q = setup(profile)
    md = mq.MD(Version=2, MsgFlags=MIG)
    q.put(b"first", md)
    assert md.GroupId != NONE_GROUP
    kept = mq.MD(Version=2, MsgFlags=LMIG, GroupId=md.GroupId, MsgSeqNumber=2)
    q.put(b"second", kept)
    assert kept.GroupId == md.GroupId
    by_put1 = mq.MD(Version=2, MsgFlags=LMIG)
    qm.put1(APP_Q, b"a group of one", by_put1)
    assert by_put1.GroupId not in (NONE_GROUP, md.GroupId)


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_a_message_outside_the_current_group_fails_2241_and_the_group_goes_on(
    profile: str,
) -> None:
    """MQRC_INCOMPLETE_GROUP (FAILED under logical order); the queue manager keeps the group, so
    the next message of it continues the numbering."""
    qm, q = setup(profile)
    first = lput(q, b"g1", MIG)
    with raises_reason(C.MQRC_INCOMPLETE_GROUP):
        lput(q, b"stray", C.MQMF_NONE)
    with raises_reason(C.MQRC_INCOMPLETE_GROUP):
        lput(q, b"stray segment", LSEG)
    assert qm.curdepth(APP_Q) == 1
    last = lput(q, b"g2", LMIG)
    assert (last.GroupId, last.MsgSeqNumber) == (first.GroupId, 2)


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md10_a_current_logical_message_fails_2242_in_preference(profile: str) -> None:
    """MQRC_INCOMPLETE_MSG: a message that is not a segment, or whose MQMF_MSG_IN_GROUP or
    MQMF_LAST_MSG_IN_GROUP setting differs from the previous segment's; 2242 is preferred to
    2241 when both are incomplete."""
    _qm, q = setup(profile)
    lput(q, b"s1", MIG | SEG)
    for flags in (MIG, C.MQMF_NONE, SEG, LMIG | SEG):
        with raises_reason(C.MQRC_INCOMPLETE_MSG):
            lput(q, b"x", flags)
    lput(q, b"s2", MIG | LSEG)
    lput(q, b"g2", LMIG)  # ends the group
    alone = lput(q, b"t1", SEG)  # a segmented message in no group
    with raises_reason(C.MQRC_INCOMPLETE_MSG):
        lput(q, b"x", MIG | SEG)  # MIG must stay off until its last segment
    end = lput(q, b"t2", LSEG)
    assert (end.GroupId, end.MsgSeqNumber, end.Offset) == (alone.GroupId, 1, 2)


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_persistence_and_unit_of_work_must_match_the_first_message(profile: str) -> None:
    """MQRC_INCONSISTENT_PERSISTENCE (2185) and MQRC_INCONSISTENT_UOW (2245) under logical order."""
    qm, q = setup(profile)
    lput(q, b"g1", MIG, Persistence=C.MQPER_NOT_PERSISTENT)
    with raises_reason(C.MQRC_INCONSISTENT_PERSISTENCE):
        lput(q, b"g2", MIG, Persistence=C.MQPER_PERSISTENT)
    with raises_reason(C.MQRC_INCONSISTENT_UOW):
        lput(q, b"g2", MIG, options=C.MQPMO_LOGICAL_ORDER | C.MQPMO_SYNCPOINT)
    lput(q, b"g2", LMIG)
    # a group begun in a unit of work continues in one (not necessarily the same)
    lput(q, b"h1", MIG, options=C.MQPMO_LOGICAL_ORDER | C.MQPMO_SYNCPOINT)
    qm.commit()
    with raises_reason(C.MQRC_INCONSISTENT_UOW):
        lput(q, b"h2", LMIG)
    lput(q, b"h2", LMIG, options=C.MQPMO_LOGICAL_ORDER | C.MQPMO_SYNCPOINT)
    qm.commit()
    assert qm.curdepth(APP_Q) == 4


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_logical_order_needs_a_queue_handle_and_a_version_2_md(profile: str) -> None:
    """MQRC_WRONG_MD_VERSION (2257) for a version-1 MD; MQPUT1 refuses the option (2046)."""
    qm, q = setup(profile)
    with raises_reason(C.MQRC_WRONG_MD_VERSION):
        q.put(b"x", mq.MD(MsgFlags=MIG), mq.PMO(Options=C.MQPMO_LOGICAL_ORDER))
    with raises_reason(C.MQRC_OPTIONS_ERROR):
        qm.put1(APP_Q, b"x", mq.MD(Version=2), mq.PMO(Options=C.MQPMO_LOGICAL_ORDER))
    assert qm.curdepth(APP_Q) == 0


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md10_a_put_without_logical_order_inside_a_group_warns_and_is_made(profile: str) -> None:
    """IBM's Table 2: MQPUT without MQPMO_LOGICAL_ORDER after one with it, a group unterminated:
    MQCC_WARNING with 2241 (2242 with a segment current), and the message is put."""
    qm, q = setup(profile)
    lput(q, b"g1", MIG)
    q.put(b"plain", mq.MD(Version=2), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    assert (q.last_comp, q.last_reason) == (C.MQCC_WARNING, C.MQRC_INCOMPLETE_GROUP)
    assert qm.curdepth(APP_Q) == 2
    lput(q, b"s1", SEG)
    q.put(b"plain", mq.MD(Version=2), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    assert (q.last_comp, q.last_reason) == (C.MQCC_WARNING, C.MQRC_INCOMPLETE_MSG)


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_a_put_without_logical_order_that_continues_the_group_is_ok(profile: str) -> None:
    """Table 2 warns only of a call "not consistent with" the information kept: a put that sets
    the fields logical order would have used completes with MQCC_OK, the group goes on; one that
    continues it outside the unit of work its first message was put in warns with 2245."""
    _qm, q = setup(profile)
    first = lput(q, b"g1", MIG)
    md = mq.MD(Version=2, GroupId=first.GroupId, MsgSeqNumber=2, MsgFlags=MIG)
    q.put(b"g2", md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    assert (q.last_comp, q.last_reason) == (C.MQCC_OK, C.MQRC_NONE)
    lput(q, b"g3", MIG, options=C.MQPMO_LOGICAL_ORDER | C.MQPMO_NO_SYNCPOINT)
    md = mq.MD(Version=2, GroupId=first.GroupId, MsgSeqNumber=4, MsgFlags=LMIG)
    q.put(b"g4", md, mq.PMO(Options=C.MQPMO_SYNCPOINT))
    assert (q.last_comp, q.last_reason) == (C.MQCC_WARNING, C.MQRC_INCONSISTENT_UOW)


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_close_with_an_unterminated_group_or_message_warns(profile: str) -> None:
    """MQCLOSE: MQCC_WARNING 2241 / 2242 when logical-order puts left a group or logical message
    unterminated; the handle is closed all the same."""
    cases = [(MIG, C.MQRC_INCOMPLETE_GROUP), (MIG | SEG, C.MQRC_INCOMPLETE_MSG)]
    for flags, reason in cases[: 1 if profile == "zos" else 2]:  # z/OS: no segments here
        _qm, q = setup(profile)
        lput(q, b"x", flags)
        with pytest.warns(mq.MQWarning):
            q.close()
        assert (q.last_comp, q.last_reason, q.closed) == (C.MQCC_WARNING, reason, True)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(
    ("fields", "data", "reason"),
    [
        ({"MsgSeqNumber": 0}, b"x", C.MQRC_MSG_SEQ_NUMBER_ERROR),
        ({"MsgSeqNumber": 1_000_000_000}, b"x", C.MQRC_MSG_SEQ_NUMBER_ERROR),
        ({"Offset": -1}, b"x", C.MQRC_OFFSET_ERROR),
        ({"Offset": 1_000_000_000}, b"x", C.MQRC_OFFSET_ERROR),
        ({"MsgFlags": SEG}, b"", C.MQRC_SEGMENT_LENGTH_ZERO),
        (
            {"MsgFlags": SEG, "MsgType": C.MQMT_REPORT, "OriginalLength": 0, "Feedback": 259},
            b"x",
            C.MQRC_ORIGINAL_LENGTH_ERROR,
        ),
    ],
)
def test_md10_put_checks_the_group_and_segment_fields(
    profile: str, fields: dict[str, Any], data: bytes, reason: int
) -> None:
    """Reason-code pages 2250-2253: the ranges of MsgSeqNumber and Offset, data in every segment
    but the last, and a report segment's OriginalLength; nothing is put."""
    qm, q = setup(profile)
    with raises_reason(reason):
        q.put(data, mq.MD(Version=2, **fields))
    assert qm.curdepth(APP_Q) == 0


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_a_failed_put_changes_neither_the_md_nor_the_numbering(profile: str) -> None:
    """A put that fails (the queue full, 2053) leaves the MD's group fields as they were and
    the handle's group where it was: the retry gets the same MsgSeqNumber."""
    _qm, q = setup(profile, maxdepth=2)
    first = lput(q, b"g1", MIG)
    lput(q, b"g2", MIG)
    md = mq.MD(Version=2, MsgFlags=LMIG)
    with raises_reason(C.MQRC_Q_FULL):
        q.put(b"g3", md, mq.PMO(Options=LOGICAL_PUT))
    assert (md.GroupId, md.MsgSeqNumber) == (NONE_GROUP, 1)
    lget(q, C.MQGMO_NO_SYNCPOINT)
    q.put(b"g3", md, mq.PMO(Options=LOGICAL_PUT))
    assert (md.GroupId, md.MsgSeqNumber) == (first.GroupId, 3)


# -- MD-11: MQGMO_LOGICAL_ORDER and the group options on get ----------------------------------------
def ibm_figure(q: mq.Queue, profile: str) -> dict[str, bytes]:
    """The physical order of IBM's "Logical and physical ordering", figure 2: A, Y1, Z2, Y2,
    Y3 segment 1, Y3 segment 2 (last), Z1, B. On z/OS (no segments on a queue indexed by
    GroupId) Y3a and Y3b are Y's logical messages 3 and 4 instead: the same order."""
    y, z = group(25), group(26)
    plain(q, b"A")
    xput(q, b"Y1", y, 1, 0, MIG)
    xput(q, b"Z2", z, 2, 0, LMIG)
    xput(q, b"Y2", y, 2, 0, MIG)
    if profile == "zos":
        xput(q, b"Y3a", y, 3, 0, MIG)
        xput(q, b"Y3b", y, 4, 0, LMIG)
    else:
        xput(q, b"Y3a", y, 3, 0, LMIG | SEG)
        xput(q, b"Y3b", y, 3, 3, LMIG | LSEG)
    xput(q, b"Z1", z, 1, 0, MIG)
    plain(q, b"B")
    return {"Y": y, "Z": z}


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_logical_order_returns_ibms_figure_in_logical_order(profile: str) -> None:
    """Figure 1 of "Logical and physical ordering": A, Y1, Y2, Y3 (two segments), Z1, Z2, B;
    GroupStatus and SegmentStatus echo the flags (z/OS: never a segment)."""
    _qm, q = setup(profile)
    ibm_figure(q, profile)
    seen = []
    for _ in range(8):
        data, _md, gmo = lget(q)
        seen.append((data, gmo.GroupStatus, gmo.SegmentStatus))
    assert [s[0] for s in seen] == [b"A", b"Y1", b"Y2", b"Y3a", b"Y3b", b"Z1", b"Z2", b"B"]
    group_status = [s[1] for s in seen]
    y3a = "G" if profile == "zos" else "L"
    assert group_status == [" ", "G", "G", y3a, "L", "G", "L", " "]
    segment_status = [s[2] for s in seen]
    if profile == "zos":
        assert set(segment_status) == {" "}
    else:
        assert segment_status == [" ", " ", " ", "S", "L", " ", " ", " "]
    q.close()
    assert q.last_reason == C.MQRC_NONE


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_without_logical_order_gets_follow_the_physical_order(profile: str) -> None:
    _qm, q = setup(profile)
    ibm_figure(q, profile)
    physical = drain(q, C.MQGMO_NO_SYNCPOINT)
    assert physical == [b"A", b"Y1", b"Z2", b"Y2", b"Y3a", b"Y3b", b"Z1", b"B"]


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_browse_in_logical_order_keeps_its_own_position(profile: str) -> None:
    """Browsing in logical order walks the same order without removing anything, then a get
    in logical order starts from the beginning (separate information); BROWSE_NEXT that
    disagrees with the previous browse about logical order fails with 2259."""
    qm, q = setup(profile)
    ibm_figure(q, profile)
    browsed = [lget(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOGICAL_ORDER)[0]]
    browsed += [lget(q, C.MQGMO_BROWSE_NEXT | C.MQGMO_LOGICAL_ORDER)[0] for _ in range(3)]
    assert browsed == [b"A", b"Y1", b"Y2", b"Y3a"]
    with raises_reason(C.MQRC_INCONSISTENT_BROWSE):
        lget(q, C.MQGMO_BROWSE_NEXT)
    assert lget(q, LOGICAL_GET)[0] == b"A"
    assert lget(q, C.MQGMO_BROWSE_NEXT | C.MQGMO_LOGICAL_ORDER)[0] == b"Y3b"
    assert lget(q, C.MQGMO_BROWSE_FIRST)[0] == b"Y1", "BROWSE_FIRST starts afresh"
    assert qm.curdepth(APP_Q) == 7


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_the_next_group_starts_after_the_previous_groups_first_message(
    profile: str,
) -> None:
    """Groups come in the order of their first messages: physical Y1, Z1, Y2 browses in logical
    order as Y1, Y2, Z1 (Z1 is before Y2 on the queue, after Y1)."""
    _qm, q = setup(profile)
    y, z = group(1), group(2)
    xput(q, b"Y1", y, 1, 0, MIG)
    xput(q, b"Z1", z, 1, 0, LMIG)
    xput(q, b"Y2", y, 2, 0, LMIG)
    browsed = [lget(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOGICAL_ORDER)[0]]
    browsed += [lget(q, C.MQGMO_BROWSE_NEXT | C.MQGMO_LOGICAL_ORDER)[0] for _ in range(2)]
    assert browsed == [b"Y1", b"Y2", b"Z1"]
    assert drain(q) == [b"Y1", b"Y2", b"Z1"]


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_a_current_group_ignores_msgid_but_not_a_different_group_id(profile: str) -> None:
    """While a group is current the call looks for its next message whatever the MsgId (a null
    one matches); a GroupId to match that is not the group's fails with 2247."""
    _qm, q = setup(profile)
    ibm_figure(q, profile)
    lget(q)
    lget(q)  # Y1: group Y current
    md = mq.MD(Version=2, GroupId=group(26))
    gmo = mq.GMO(Version=2, Options=LOGICAL_GET, MatchOptions=C.MQMO_MATCH_GROUP_ID)
    with raises_reason(C.MQRC_MATCH_OPTIONS_ERROR):
        q.get(None, md, gmo)
    md = mq.MD(Version=2)
    gmo = mq.GMO(Version=2, Options=LOGICAL_GET)  # MatchOptions MSG_ID | CORREL_ID, null ids
    assert q.get(None, md, gmo) == b"Y2"


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_match_options_choose_the_group_when_none_is_current(profile: str) -> None:
    """No current group: MQMO_MATCH_GROUP_ID selects the group, and logical order starts it at
    MsgSeqNumber 1 however it lies on the queue."""
    _qm, q = setup(profile)
    ids = ibm_figure(q, profile)
    md = mq.MD(Version=2, GroupId=ids["Z"])
    gmo = mq.GMO(Version=2, Options=LOGICAL_GET, MatchOptions=C.MQMO_MATCH_GROUP_ID)
    assert q.get(None, md, gmo) == b"Z1"
    assert lget(q)[0] == b"Z2"


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_a_get_without_logical_order_mid_group_warns_2241(profile: str) -> None:
    """IBM's Table 2 for MQGET: the message is returned with MQCC_WARNING 2241 (2242 inside a
    logical message); MQCLOSE of a handle left mid-group warns too."""
    _qm, q = setup(profile)
    ibm_figure(q, profile)
    lget(q)
    lget(q)  # Y1
    data, _md, _gmo = lget(q, C.MQGMO_NO_SYNCPOINT)
    assert data == b"Z2" and (q.last_comp, q.last_reason) == (
        C.MQCC_WARNING,
        C.MQRC_INCOMPLETE_GROUP,
    )
    data, _, _ = lget(q)  # logical again: no current group (Z2 ended Z), so the next first
    assert (data, q.last_reason) == (b"Z1", C.MQRC_NONE)  # message: Z1, making Z current
    with pytest.warns(mq.MQWarning):
        q.close()
    assert (q.last_comp, q.last_reason) == (C.MQCC_WARNING, C.MQRC_INCOMPLETE_GROUP)


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_logical_order_needs_version_2_gmo_and_md(profile: str) -> None:
    qm, q = setup(profile)
    plain(q, b"x")
    with raises_reason(C.MQRC_WRONG_GMO_VERSION):
        q.get(None, mq.MD(Version=2), mq.GMO(Options=C.MQGMO_LOGICAL_ORDER))
    with raises_reason(C.MQRC_WRONG_MD_VERSION):
        q.get(None, mq.MD(), mq.GMO(Version=2, Options=C.MQGMO_LOGICAL_ORDER))
    assert qm.curdepth(APP_Q) == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_unit_of_work_must_match_the_groups_first_get(profile: str) -> None:
    """MQRC_INCONSISTENT_UOW (2245): a group whose first message was got under syncpoint is got
    under syncpoint to its end (not necessarily in one unit of work)."""
    qm, q = setup(profile)
    lput(q, b"g1", MIG)
    lput(q, b"g2", MIG)
    lput(q, b"g3", LMIG)
    assert lget(q, C.MQGMO_LOGICAL_ORDER | C.MQGMO_SYNCPOINT)[0] == b"g1"
    qm.commit()
    with raises_reason(C.MQRC_INCONSISTENT_UOW):
        lget(q, LOGICAL_GET)
    assert lget(q, C.MQGMO_LOGICAL_ORDER | C.MQGMO_SYNCPOINT)[0] == b"g2"
    qm.backout()
    assert lget(q, C.MQGMO_LOGICAL_ORDER | C.MQGMO_SYNCPOINT)[0] == b"g3"


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_all_msgs_available_waits_for_the_whole_group(profile: str) -> None:
    """MQGMO_ALL_MSGS_AVAILABLE: no message of an incomplete group is returned (its messages
    still count in CURDEPTH); once the last one arrives the group is."""
    qm, q = setup(profile)
    y = group(7)
    xput(q, b"Y1", y, 1, 0, MIG)
    xput(q, b"Y3", y, 3, 0, LMIG)
    plain(q, b"plain")
    options = LOGICAL_GET | C.MQGMO_ALL_MSGS_AVAILABLE
    assert lget(q, options)[0] == b"plain"
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, options)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, C.MQGMO_NO_SYNCPOINT | C.MQGMO_ALL_MSGS_AVAILABLE)  # physical order too
    assert qm.curdepth(APP_Q) == 2
    xput(q, b"Y2", y, 2, 0, MIG)
    assert drain(q, options) == [b"Y1", b"Y2", b"Y3"]


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md11_all_segments_available_waits_for_the_whole_logical_message(profile: str) -> None:
    """MQGMO_ALL_SEGMENTS_AVAILABLE with logical order (IBM's usage): nothing of a logical
    message until every segment is there; then its segments in Offset order."""
    _qm, q = setup(profile)
    s = group(8)
    xput(q, b"abc", s, 1, 0, SEG)
    options = LOGICAL_GET | C.MQGMO_ALL_SEGMENTS_AVAILABLE
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, options)
    xput(q, b"de", s, 1, 3, LSEG)
    assert drain(q, options) == [b"abc", b"de"]


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md11_complete_msg_reassembles_the_segments(profile: str) -> None:
    """ "Reassembly of segments": the data of every segment in Offset order, the first segment's
    descriptor, MsgFlags saying it is the only segment; every segment leaves the queue."""
    qm, q = setup(profile)
    s = group(9)
    xput(q, b"ghi", s, 1, 6, LSEG)  # physical order need not be the logical one
    xput(q, b"abc", s, 1, 0, SEG)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, C.MQGMO_COMPLETE_MSG)  # the segment at Offset 3 is missing
    xput(q, b"def", s, 1, 3, SEG)
    first_msgid = mq.MD(Version=2)
    q.get(None, first_msgid, mq.GMO(Version=2, Options=C.MQGMO_BROWSE_FIRST, MatchOptions=0))
    data, md, gmo = lget(q, C.MQGMO_COMPLETE_MSG | C.MQGMO_NO_SYNCPOINT)
    assert data == b"abcdefghi"
    assert (md.GroupId, md.MsgSeqNumber, md.Offset) == (s, 1, 0)
    assert md.MsgFlags == SEG | LSEG
    assert md.OriginalLength == 3, "the first segment's descriptor"
    assert qm.curdepth(APP_Q) == 0
    if profile != "zos":
        assert gmo.SegmentStatus == chr(C.MQSS_LAST_SEGMENT)


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md11_complete_msg_truncation_and_version_1_md(profile: str) -> None:
    """A buffer too small: 2080 and every segment stays; a version-1 MD gets an MQMDE with the
    reassembled message's fields (rule MD-07)."""
    qm, q = setup(profile)
    s = group(10)
    xput(q, b"12345", s, 1, 0, SEG)
    xput(q, b"678", s, 1, 5, LSEG)
    with raises_reason(C.MQRC_TRUNCATED_MSG_FAILED, C.MQCC_WARNING):
        q.get(4, mq.MD(Version=2), mq.GMO(Version=2, Options=C.MQGMO_COMPLETE_MSG))
    assert qm.curdepth(APP_Q) == 2
    md = mq.MD()
    data = q.get(None, md, mq.GMO(Options=C.MQGMO_COMPLETE_MSG | C.MQGMO_NO_SYNCPOINT))
    assert md.Format == C.MQFMT_MD_EXTENSION
    mde = mq.MQMDE.unpack(data[:72])
    assert (mde.GroupId, mde.MsgFlags, data[72:]) == (s, SEG | LSEG, b"12345678")


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md11_complete_msg_of_persistent_segments_outside_an_open_unit_of_work_2255(
    profile: str,
) -> None:
    qm, q = setup(profile)
    s = group(11)
    for offset, flags, data in ((0, SEG, b"ab"), (2, LSEG, b"c")):
        md = mq.MD(Version=2, GroupId=s, Offset=offset, MsgFlags=flags, Persistence=1)
        q.put(data, md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    q.put(b"in the unit of work", pmo=mq.PMO(Options=C.MQPMO_SYNCPOINT))
    with raises_reason(C.MQRC_UOW_NOT_AVAILABLE):
        lget(q, C.MQGMO_COMPLETE_MSG | C.MQGMO_NO_SYNCPOINT)
    qm.commit()
    assert lget(q, C.MQGMO_COMPLETE_MSG | C.MQGMO_NO_SYNCPOINT)[0] == b"abc"


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=4),
    data=st.data(),
)
def test_md11_property_interleaved_logical_puts_come_back_group_by_group(
    sizes: list[int], data: st.DataObject
) -> None:
    """Any interleaving of logical-order puts of several groups (one handle each) is got back in
    logical order group by group, each group in MsgSeqNumber order, groups in the order of their
    first messages; a plain message between them is a group of one."""
    qm = new_qm()
    qm.define_qlocal(APP_Q)
    handles = [mq.Queue(qm, APP_Q) for _ in sizes]
    other = mq.Queue(qm, APP_Q)  # a put without logical order would reset a group's handle
    left = list(sizes)
    firsts: list[int] = []
    plain_at = data.draw(st.integers(min_value=0, max_value=sum(sizes)))
    step = 0
    expected: dict[int, list[bytes]] = {}
    while any(left):
        if step == plain_at:
            plain(other, b"plain")
            firsts.append(-1)
        g = data.draw(st.sampled_from([i for i, n in enumerate(left) if n]))
        seq = sizes[g] - left[g] + 1
        if seq == 1:
            firsts.append(g)
        flags = LMIG if left[g] == 1 else MIG
        body = b"%d.%d" % (g, seq)
        lput(handles[g], body, flags)
        expected.setdefault(g, []).append(body)
        left[g] -= 1
        step += 1
    if plain_at >= step:
        plain(other, b"plain")
        firsts.append(-1)
    expected[-1] = [b"plain"]
    reader = mq.Queue(qm, APP_Q)
    assert drain(reader) == [body for g in firsts for body in expected[g]]


# -- EXP-30: members that expire -------------------------------------------------------------------
def group_with_short_member(profile: str, short_seq: int) -> tuple[mq.QueueManager, mq.Queue]:
    """Group G of three (member ``short_seq`` lives 1 s and asks for an expiration report with
    its data), then a plain message; 2 s later."""
    qm, q = setup(profile)
    g = group(30)
    for seq in (1, 2, 3):
        md = mq.MD(
            Version=2,
            GroupId=g,
            MsgSeqNumber=seq,
            MsgFlags=LMIG if seq == 3 else MIG,
            Expiry=10 if seq == short_seq else -1,
            Report=C.MQRO_EXPIRATION_WITH_DATA if seq == short_seq else 0,
            ReplyToQ=REPLY_Q,
        )
        q.put(b"G%d" % seq, md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    plain(q, b"after")
    qm.sim.advance(seconds=2)
    return qm, q


@pytest.mark.parametrize("profile", PROFILES)
def test_exp30_all_msgs_available_passes_a_group_with_an_expired_member_by(profile: str) -> None:
    """The expired member makes the group incomplete; the get returns the next message and
    discards nothing (it would not have returned the member), so no report yet."""
    qm, q = group_with_short_member(profile, 2)
    options = LOGICAL_GET | C.MQGMO_ALL_MSGS_AVAILABLE
    assert lget(q, options)[0] == b"after"
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, options)
    assert (qm.curdepth(APP_Q), qm.curdepth(REPLY_Q)) == (3, 0)


@pytest.mark.parametrize("profile", PROFILES)
def test_exp30_a_logical_get_discards_the_expired_next_member_and_its_report_is_a_segment_of_it(
    profile: str,
) -> None:
    """After G1, the next logical get would return G2: it is discarded (EXP-21) and its report
    copies GroupId, MsgSeqNumber, Offset and MsgFlags (seed 003, Table 1); the get gives 2033 and
    the group stays current until a get without logical order (2241 warning) leaves it."""
    qm, q = group_with_short_member(profile, 2)
    assert lget(q)[0] == b"G1"
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q)
    assert (qm.curdepth(APP_Q), qm.curdepth(REPLY_Q)) == (2, 1)
    report = mq.MD(Version=2)
    mq.Queue(qm, REPLY_Q).get(None, report, mq.GMO(Version=2, MatchOptions=0))
    assert report.Feedback == C.MQFB_EXPIRATION
    assert (report.GroupId, report.MsgSeqNumber, report.MsgFlags) == (group(30), 2, MIG)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q)  # still waiting for MsgSeqNumber 2
    assert lget(q, C.MQGMO_NO_SYNCPOINT)[0] == b"G3"
    assert q.last_reason == C.MQRC_INCOMPLETE_GROUP


@pytest.mark.parametrize("profile", PROFILES)
def test_exp30_an_expired_first_member_strands_the_rest_of_its_group(profile: str) -> None:
    """G1 expired: the logical get that would have returned it discards it and goes on to the
    next group; G2 and G3 have no MsgSeqNumber 1 any more, so logical order never returns them,
    but a get by GroupId does."""
    qm, q = group_with_short_member(profile, 1)
    assert drain(q) == [b"after"]
    assert qm.curdepth(APP_Q) == 2
    md = mq.MD(Version=2, GroupId=group(30))
    gmo = mq.GMO(Version=2, MatchOptions=C.MQMO_MATCH_GROUP_ID, Options=C.MQGMO_NO_SYNCPOINT)
    assert q.get(None, md, gmo) == b"G2"


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_exp30_complete_msg_skips_a_logical_message_with_an_expired_segment(profile: str) -> None:
    qm, q = setup(profile)
    s = group(31)
    for offset, flags, expiry, data in ((0, SEG, -1, b"ab"), (2, LSEG, 10, b"cd")):
        md = mq.MD(Version=2, GroupId=s, Offset=offset, MsgFlags=flags, Expiry=expiry)
        q.put(data, md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    qm.sim.advance(seconds=2)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, C.MQGMO_COMPLETE_MSG)
    assert qm.curdepth(APP_Q) == 2, "neither segment discarded: the get would return neither"
    assert qm.scan() == 1
    assert lget(q, C.MQGMO_NO_SYNCPOINT)[0] == b"ab"


@pytest.mark.parametrize("profile", PROFILES)
def test_md10_a_publication_cannot_be_in_a_group_2417(profile: str) -> None:
    """IBM, "Message groups": grouped or segmented messages cannot be put to a topic; the
    publication fails with MQRC_MSG_NOT_ALLOWED_IN_GROUP and no subscriber gets a copy."""
    qm, _q = setup(profile)
    qm.define_sub("SUB.A", topicstr="prices/a", dest=APP_Q)
    for flags in (MIG, LMIG, SEG, LSEG):
        with raises_reason(C.MQRC_MSG_NOT_ALLOWED_IN_GROUP):
            qm.publish("prices/a", b"x", mq.MD(Version=2, MsgFlags=flags))
    qm.publish("prices/a", b"ok", mq.MD(Version=2), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    assert qm.curdepth(APP_Q) == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_a_logical_get_waits_for_the_groups_next_message(profile: str) -> None:
    """MQGMO_WAIT with a current group waits (on the virtual clock) for its next message, not for
    any message: a plain message arriving first does not end the wait."""
    qm, q = setup(profile)
    g = group(40)
    xput(q, b"g1", g, 1, 0, MIG)
    qm.sim.schedule(2_000, lambda: plain(q, b"plain"))
    qm.sim.schedule(5_000, lambda: xput(q, b"g2", g, 2, 0, LMIG))
    assert lget(q)[0] == b"g1"
    data, _, _ = lget(q, LOGICAL_GET | C.MQGMO_WAIT, WaitInterval=10_000)
    assert (data, qm.sim.now) == (b"g2", 5_000)
    assert lget(q)[0] == b"plain"


@pytest.mark.parametrize("profile", PROFILES)
def test_exp30_a_logical_browse_discards_the_expired_next_member(profile: str) -> None:
    """A browse would have returned the member too (EXP-21): it is discarded, the browse gives
    2033, and the messages browsed stay."""
    qm, q = group_with_short_member(profile, 2)
    assert lget(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOGICAL_ORDER)[0] == b"G1"
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        lget(q, C.MQGMO_BROWSE_NEXT | C.MQGMO_LOGICAL_ORDER)
    assert (qm.curdepth(APP_Q), qm.curdepth(REPLY_Q)) == (3, 1)


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=4),
    data=st.data(),
)
def test_md11_exp30_property_all_msgs_available_returns_exactly_the_whole_groups(
    sizes: list[int], data: st.DataObject
) -> None:
    """Groups put in a random physical order, some missing a member and some with an expired
    one: gets in logical order with MQGMO_ALL_MSGS_AVAILABLE return exactly the groups that are
    whole and live, each in MsgSeqNumber order, groups in the order of their first messages;
    nothing of the other groups is got or discarded (the oracle is the test's own bookkeeping)."""
    qm = new_qm()
    qm.define_qlocal(APP_Q)
    q = mq.Queue(qm, APP_Q)
    members = [(g, seq) for g, n in enumerate(sizes) for seq in range(1, n + 1)]
    order = data.draw(st.permutations(members))
    missing = data.draw(st.sets(st.sampled_from(members), max_size=2))
    short = data.draw(st.sets(st.sampled_from(members), max_size=2))
    put_at: dict[int, int] = {}
    for position, (g, seq) in enumerate(order):
        if (g, seq) in missing:
            continue
        md = mq.MD(
            Version=2,
            GroupId=group(g),
            MsgSeqNumber=seq,
            MsgFlags=LMIG if seq == sizes[g] else MIG,
            Expiry=10 if (g, seq) in short else -1,
        )
        q.put(b"%d.%d" % (g, seq), md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
        if seq == 1:
            put_at[g] = position
    qm.sim.advance(seconds=2)
    whole = [
        g
        for g, n in enumerate(sizes)
        if not any((g, s) in missing or (g, s) in short for s in range(1, n + 1))
    ]
    expected = [
        b"%d.%d" % (g, s)
        for g in sorted(whole, key=put_at.__getitem__)
        for s in range(1, sizes[g] + 1)
    ]
    depth = qm.curdepth(APP_Q)
    got = drain(q, LOGICAL_GET | C.MQGMO_ALL_MSGS_AVAILABLE)
    assert got == expected
    assert qm.curdepth(APP_Q) == depth - len(expected), "nothing else got or discarded"


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_a_get_without_logical_order_of_the_groups_next_message_is_ok(profile: str) -> None:
    """Table 2 for MQGET warns of a get "not consistent with" the information kept: getting the
    group's next message by its GroupId and MsgSeqNumber without logical order completes with
    MQCC_OK, and logical order goes on from it."""
    _qm, q = setup(profile)
    ids = ibm_figure(q, profile)
    lget(q)
    lget(q)  # Y1
    md = mq.MD(Version=2, GroupId=ids["Y"], MsgSeqNumber=2)
    match = C.MQMO_MATCH_GROUP_ID | C.MQMO_MATCH_MSG_SEQ_NUMBER
    gmo = mq.GMO(Version=2, Options=C.MQGMO_NO_SYNCPOINT, MatchOptions=match)
    assert q.get(None, md, gmo) == b"Y2"
    assert (q.last_comp, q.last_reason) == (C.MQCC_OK, C.MQRC_NONE)
    assert lget(q)[0] == b"Y3a"


@pytest.mark.parametrize("profile", SEGMENT_PROFILES)
def test_md11_complete_msg_after_segment_gets_without_logical_order(profile: str) -> None:
    """Segments got one by one without logical order leave the handle inside a logical
    message; a later MQGMO_COMPLETE_MSG get (no logical order) still reassembles a whole one."""
    qm, q = setup(profile)
    s, t = group(50), group(51)
    xput(q, b"ab", s, 1, 0, SEG)
    xput(q, b"cd", t, 1, 0, SEG)
    xput(q, b"ef", t, 1, 2, LSEG)
    assert lget(q, C.MQGMO_NO_SYNCPOINT)[0] == b"ab"  # s's first segment: s is current
    assert lget(q, C.MQGMO_COMPLETE_MSG | C.MQGMO_NO_SYNCPOINT)[0] == b"cdef"
    assert qm.curdepth(APP_Q) == 0


@settings(max_examples=60, deadline=None)
@given(
    bodies=st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=3),
    data=st.data(),
)
def test_md10_md11_property_segments_put_in_logical_order_reassemble_to_the_original(
    bodies: list[bytes], data: st.DataObject
) -> None:
    """Each body is cut at random points into segments, put in logical order through its own
    handle (the puts of the handles interleaved at random); gets with MQGMO_COMPLETE_MSG return
    the original bodies, in the order their first segments were put, and empty the queue."""
    qm = new_qm()
    qm.define_qlocal(APP_Q)
    pieces: list[list[bytes]] = []
    for body in bodies:
        cuts = (
            sorted(data.draw(st.sets(st.integers(1, len(body) - 1), max_size=4)))
            if len(body) > 1
            else []
        )
        edges = [0, *cuts, len(body)]
        pieces.append([body[a:b] for a, b in pairwise(edges)])
    handles = [mq.Queue(qm, APP_Q) for _ in bodies]
    left = [list(p) for p in pieces]
    first_put: list[int] = []
    while any(left):
        i = data.draw(st.sampled_from([k for k, rest in enumerate(left) if rest]))
        if len(left[i]) == len(pieces[i]):
            first_put.append(i)
        piece = left[i].pop(0)
        lput(handles[i], piece, LSEG if not left[i] else SEG)
    got = drain(mq.Queue(qm, APP_Q), C.MQGMO_COMPLETE_MSG | C.MQGMO_NO_SYNCPOINT)
    assert got == [bodies[i] for i in first_put]
    assert qm.curdepth(APP_Q) == 0


def test_md10_md11_zos_index_type_decides_what_groups_a_queue_takes() -> None:
    """z/OS: logical order and the whole-group options need a queue indexed by GroupId (2394
    MQRC_Q_INDEX_TYPE_ERROR); such a queue takes no segments (2365
    MQRC_SEGMENTS_NOT_SUPPORTED), while a queue with the default INDXTYPE(NONE) takes them and
    returns them to gets without those options. INDXTYPE exists on z/OS only; a transmission
    queue cannot be indexed by GroupId."""
    qm = new_qm(profile="zos")
    qm.define_qlocal("PLAIN.Q")
    qm.define_qlocal("GROUP.Q", indxtype="GROUPID")
    plain_q, group_q = mq.Queue(qm, "PLAIN.Q"), mq.Queue(qm, "GROUP.Q")
    xput(plain_q, b"seg", group(60), 1, 0, SEG)
    for option in (
        C.MQGMO_LOGICAL_ORDER,
        C.MQGMO_ALL_MSGS_AVAILABLE,
        C.MQGMO_ALL_SEGMENTS_AVAILABLE,
        C.MQGMO_COMPLETE_MSG,
    ):
        with raises_reason(C.MQRC_Q_INDEX_TYPE_ERROR):
            lget(plain_q, option | C.MQGMO_NO_SYNCPOINT)
    data, _, gmo = lget(plain_q, C.MQGMO_NO_SYNCPOINT)
    assert (data, gmo.SegmentStatus) == (b"seg", chr(C.MQSS_NOT_A_SEGMENT))
    with raises_reason(C.MQRC_SEGMENTS_NOT_SUPPORTED):
        xput(group_q, b"seg", group(61), 1, 0, LSEG)
    lput(group_q, b"g1", MIG)
    assert lget(group_q)[0] == b"g1"
    qm.alter_qlocal("PLAIN.Q", indxtype="GROUPID")
    with pytest.raises(ValueError, match="transmission queue"):
        qm.define_qlocal("XMITQ.1", usage="XMITQ", indxtype="GROUPID")
    other = new_qm(profile="distributed")
    with pytest.raises(ValueError, match="z/OS attribute"):
        other.define_qlocal("Q.1", indxtype="GROUPID")
    assert "AMQ8405I" in other.mqsc("DEFINE QLOCAL(Q.2) INDXTYPE(GROUPID)")
    assert "AMQ8006I" in qm.mqsc("DEFINE QLOCAL(Q.3) INDXTYPE(GROUPID)")
    assert qm.local("Q.3").indxtype == "GROUPID"
    assert "INDXTYPE(GROUPID)" in qm.mqsc("DISPLAY QLOCAL(Q.3) INDXTYPE")


@pytest.mark.parametrize("profile", PROFILES)
def test_md11_one_gmo_reused_shows_each_messages_status(profile: str) -> None:
    """GroupStatus and SegmentStatus are output fields of every version-2 get: a GMO reused for
    a message in a group and then one in no group says so both times."""
    _qm, q = setup(profile)
    lput(q, b"g1", LMIG | C.MQMF_SEGMENTATION_ALLOWED)
    plain(q, b"plain")
    gmo = mq.GMO(Version=2, Options=C.MQGMO_NO_SYNCPOINT)
    q.get(None, mq.MD(Version=2), gmo)
    allowed = C.MQSEG_INHIBITED if profile == "zos" else C.MQSEG_ALLOWED
    assert (gmo.GroupStatus, gmo.Segmentation) == (chr(C.MQGS_LAST_MSG_IN_GROUP), chr(allowed))
    q.get(None, mq.MD(Version=2), gmo)
    assert (gmo.GroupStatus, gmo.SegmentStatus, gmo.Segmentation) == (" ", " ", " ")
