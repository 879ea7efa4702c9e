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
