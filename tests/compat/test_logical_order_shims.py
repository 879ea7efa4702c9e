"""A pymqi-style (and ibmmq-style) program that puts and gets a group in logical order runs
through mqlearn's shims as through the libraries (rules MD-10, MD-11)."""

from __future__ import annotations

from types import ModuleType

import pytest

from mqlearn import ibmmq, pymqi
from mqlearn.compat import hosting

C = pymqi.CMQC


@pytest.fixture(autouse=True)
def fresh() -> None:
    hosting.reset()


@pytest.mark.parametrize("lib", [pymqi, ibmmq], ids=["pymqi", "ibmmq"])
def test_md10_md11_a_group_put_and_got_in_logical_order(lib: ModuleType) -> None:
    """The putter sets only MsgFlags; MQPUT returns one generated GroupId and MsgSeqNumber 1..3;
    the getter waits for the whole group and reads until GroupStatus says last (IBM's
    "Grouping logical messages" example)."""
    qmgr = lib.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")
    queue = lib.Queue(qmgr, "DEV.QUEUE.1", C.MQOO_INPUT_AS_Q_DEF | C.MQOO_OUTPUT)
    pmo = lib.PMO(Options=C.MQPMO_LOGICAL_ORDER | C.MQPMO_NO_SYNCPOINT)
    put = []
    flags = (C.MQMF_MSG_IN_GROUP, C.MQMF_MSG_IN_GROUP, C.MQMF_LAST_MSG_IN_GROUP)
    for flag, body in zip(flags, (b"one", b"two", b"three"), strict=True):
        md = lib.MD(Version=C.MQMD_VERSION_2, MsgFlags=flag)
        queue.put(body, md, pmo)
        put.append((md.GroupId, md.MsgSeqNumber))
    group_id = put[0][0]
    assert group_id != C.MQGI_NONE and put == [(group_id, 1), (group_id, 2), (group_id, 3)]
    gmo = lib.GMO(
        Version=C.MQGMO_VERSION_2,
        Options=C.MQGMO_LOGICAL_ORDER | C.MQGMO_ALL_MSGS_AVAILABLE | C.MQGMO_NO_SYNCPOINT,
        MatchOptions=C.MQMO_NONE,
    )
    bodies = []
    while True:
        md = lib.MD(Version=C.MQMD_VERSION_2)
        bodies.append(queue.get(None, md, gmo))
        assert md.GroupId == group_id
        if gmo.GroupStatus == C.MQGS_LAST_MSG_IN_GROUP:
            break
    assert bodies == [b"one", b"two", b"three"]
    queue.close()


@pytest.mark.parametrize("lib", [pymqi, ibmmq], ids=["pymqi", "ibmmq"])
def test_md10_md11_warnings_raise_as_the_libraries_raise_them(lib: ModuleType) -> None:
    """The libraries raise MQMIError for MQCC_WARNING too: a get without logical order in the
    middle of a group that returns another message (2241), and MQCLOSE of a handle whose
    logical-order puts left a group unterminated (2241). The handle is closed all the same."""
    qmgr = lib.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")
    queue = lib.Queue(qmgr, "DEV.QUEUE.1", C.MQOO_INPUT_AS_Q_DEF | C.MQOO_OUTPUT)
    other = lib.Queue(qmgr, "DEV.QUEUE.1", C.MQOO_OUTPUT)
    pmo = lib.PMO(Options=C.MQPMO_LOGICAL_ORDER | C.MQPMO_NO_SYNCPOINT)
    queue.put(b"a1", lib.MD(Version=C.MQMD_VERSION_2, MsgFlags=C.MQMF_MSG_IN_GROUP), pmo)
    other.put(b"x", lib.MD(), lib.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    last = C.MQMF_LAST_MSG_IN_GROUP
    queue.put(b"a2", lib.MD(Version=C.MQMD_VERSION_2, MsgFlags=last), pmo)
    queue.put(b"b1", lib.MD(Version=C.MQMD_VERSION_2, MsgFlags=C.MQMF_MSG_IN_GROUP), pmo)
    logical = lib.GMO(
        Version=C.MQGMO_VERSION_2,
        Options=C.MQGMO_LOGICAL_ORDER | C.MQGMO_NO_SYNCPOINT,
        MatchOptions=C.MQMO_NONE,
    )
    assert queue.get(None, lib.MD(Version=C.MQMD_VERSION_2), logical) == b"a1"
    plain = lib.GMO(Version=C.MQGMO_VERSION_2, Options=C.MQGMO_NO_SYNCPOINT)
    with pytest.raises(lib.MQMIError) as got:
        queue.get(None, lib.MD(Version=C.MQMD_VERSION_2), plain)
    assert (got.value.comp, got.value.reason) == (C.MQCC_WARNING, C.MQRC_INCOMPLETE_GROUP)
    with pytest.raises(lib.MQMIError) as closed:
        queue.close()
    assert (closed.value.comp, closed.value.reason) == (C.MQCC_WARNING, C.MQRC_INCOMPLETE_GROUP)
