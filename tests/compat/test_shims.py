"""What differs between the pymqi and ibmmq shims, and what the simulator adds to them: defaults,
field types, exceptions, the queue managers kept per name, virtual and real time."""

from __future__ import annotations

import threading
import time
import warnings
from types import ModuleType

import pytest

from mqlearn import ibmmq, pymqi
from mqlearn.compat import hosting

LIBS = [pymqi, ibmmq]
C = pymqi.CMQC


@pytest.fixture(autouse=True)
def fresh() -> None:
    hosting.reset()


def connect(lib: ModuleType) -> object:
    return lib.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")


@pytest.mark.parametrize(
    ("lib", "versions"),
    [(pymqi, (1, 1, 1, 1)), (ibmmq, (2, 4, 3, 4))],
    ids=["pymqi", "ibmmq"],
)
def test_structure_versions_are_each_librarys(lib: ModuleType, versions: tuple[int, ...]) -> None:
    assert (lib.MD().Version, lib.GMO().Version, lib.PMO().Version, lib.OD().Version) == versions


def test_character_fields_and_constants_are_bytes() -> None:
    for lib in LIBS:
        md = lib.MD()
        assert md.Format == b"" and isinstance(lib.CMQC.MQFMT_STRING, bytes)
        assert md["Expiry"] == -1  # item access
        md["Priority"] = 4
        assert md.Priority == 4


def test_pymqi_refuses_str_in_fields_ibmmq_encodes_it() -> None:
    with pytest.raises(TypeError, match="Convert to bytes"):
        pymqi.MD(ReplyToQ="DEV.QUEUE.2")
    assert ibmmq.MD(ReplyToQ="DEV.QUEUE.2").ReplyToQ == b"DEV.QUEUE.2"
    qmgr = connect(pymqi)
    md = pymqi.MD()
    md.ReplyToQ = "DEV.QUEUE.2"  # attribute assignment passes; the call refuses it, as pymqi's
    with pytest.raises(TypeError):
        pymqi.Queue(qmgr, "DEV.QUEUE.1").put(b"x", md)


def test_pymqi_pub_refuses_str_ibmmq_encodes_it() -> None:
    with pytest.raises(TypeError):
        pymqi.Topic(connect(pymqi), topic_string="dev/a").pub("text")
    md = ibmmq.MD()
    ibmmq.Topic(connect(ibmmq), topic_string="dev/a").pub("text", md)
    assert md.Format == C.MQFMT_STRING


def test_got_descriptor_fields_are_blank_padded_bytes() -> None:
    for lib in LIBS:
        qmgr = connect(lib)
        qmgr.put1("DEV.QUEUE.1", b"x", lib.MD(ReplyToQ=b"DEV.QUEUE.2"))
        md = lib.MD()
        lib.Queue(qmgr, "DEV.QUEUE.1").get(None, md)
        assert md.ReplyToQ == b"DEV.QUEUE.2".ljust(48) and md.ReplyToQMgr == b"QM1".ljust(48)
        assert len(md.PutApplName) == 28 and len(md.MsgId) == 24


def test_exception_wording_is_each_librarys() -> None:
    assert str(pymqi.MQMIError(2, 2033)).startswith("MQI Error. Comp: 2, Reason 2033: FAILED:")
    assert str(ibmmq.MQMIError(2, 2033)).startswith("MQI Error. Comp 2, Reason 2033: FAILED:")
    assert issubclass(pymqi.MQMIError, pymqi.Error) and issubclass(pymqi.PYIFError, pymqi.Error)
    assert not issubclass(pymqi.MQMIError, ibmmq.MQMIError)


def test_disconnect_twice_is_a_library_error() -> None:
    qmgr = connect(pymqi)
    qmgr.disconnect()
    with pytest.raises(pymqi.PYIFError, match="not connected"):
        qmgr.disconnect()


def test_bindings_connect_to_an_unknown_queue_manager_is_2058() -> None:
    with pytest.raises(pymqi.MQMIError) as caught:
        pymqi.QueueManager("NOSUCH")
    assert caught.value.reason == C.MQRC_Q_MGR_NAME_ERROR


def test_a_configured_password_is_checked() -> None:
    pymqi.host("QM1").passwords["app"] = "s3cret"
    with pytest.raises(pymqi.MQMIError) as caught:
        connect(pymqi)
    assert caught.value.reason == C.MQRC_NOT_AUTHORIZED
    pymqi.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "s3cret").disconnect()


def test_the_admin_user_may_not_use_the_app_channel() -> None:
    with pytest.raises(pymqi.MQMIError) as caught:
        pymqi.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "admin", "x")
    assert caught.value.reason == C.MQRC_NOT_AUTHORIZED


def test_a_queue_manager_is_kept_per_name_across_connections_and_libraries() -> None:
    connect(pymqi).put1("DEV.QUEUE.1", b"left by one program")
    assert ibmmq.Queue(connect(ibmmq), "DEV.QUEUE.1").get() == b"left by one program"
    assert pymqi.queue_manager("QM1") is ibmmq.queue_manager("QM1")
    assert pymqi.simulation("QM1") is pymqi.queue_manager("QM1").sim


def test_a_second_queue_manager_listens_on_its_own_port() -> None:
    pymqi.host("QM2").port = 1415
    qmgr = pymqi.connect("QM2", "DEV.APP.SVRCONN", "localhost(1415)", "app", "x")
    assert qmgr.inquire(C.MQCA_Q_MGR_NAME).strip() == b"QM2"


def test_expired_messages_count_in_curdepth_until_a_get_discards_them() -> None:
    """Rule EXP-25 through MQINQ and PCF, on the virtual clock the notebook moves."""
    qmgr = pymqi.connect("QM1", "DEV.ADMIN.SVRCONN", "localhost(1414)", "admin", "passw0rd")
    qmgr.put1("DEV.QUEUE.1", b"x", pymqi.MD(Expiry=10))
    pymqi.simulation().advance(seconds=5)
    pcf = pymqi.PCFExecute(qmgr)
    status = pcf.MQCMD_INQUIRE_Q_STATUS({C.MQCA_Q_NAME: b"DEV.QUEUE.1"})[0]
    assert status[C.MQIA_CURRENT_Q_DEPTH] == 1
    with pytest.raises(pymqi.MQMIError) as caught:
        pymqi.Queue(qmgr, "DEV.QUEUE.1").get()
    assert caught.value.reason == C.MQRC_NO_MSG_AVAILABLE
    assert pymqi.Queue(qmgr, "DEV.QUEUE.1").inquire(C.MQIA_CURRENT_Q_DEPTH) == 0


def test_each_subscribers_copy_expires_on_its_own() -> None:
    """Rule EIP-05: one subscriber takes its copy in time, the other's expires."""
    qmgr = connect(ibmmq)
    subs = []
    for _ in range(2):
        sd = ibmmq.SD(Options=C.MQSO_CREATE | C.MQSO_MANAGED)
        sd.set_vs("ObjectString", "dev/eip05")
        sub = ibmmq.Subscription(qmgr)
        sub.sub(sub_desc=sd)
        subs.append(sub)
    ibmmq.Topic(qmgr, topic_string="dev/eip05").pub(b"q", ibmmq.MD(Expiry=20))
    assert subs[0].get() == b"q"
    ibmmq.simulation().advance(seconds=3)
    with pytest.raises(ibmmq.MQMIError):
        subs[1].get()


def test_a_virtual_wait_moves_the_clock_by_the_wait_interval() -> None:
    qmgr = connect(pymqi)
    sim = pymqi.simulation()
    before = sim.now
    gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=7000)
    with pytest.raises(pymqi.MQMIError):
        pymqi.Queue(qmgr, "DEV.QUEUE.1").get(None, pymqi.MD(), gmo)
    assert sim.now - before == 7000


def test_a_real_time_wait_blocks_until_another_threads_put() -> None:
    pymqi.realtime("QM1", 1.0)
    got: list[bytes] = []

    def consumer() -> None:
        gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=5000)
        got.append(pymqi.Queue(connect(pymqi), "DEV.QUEUE.1").get(None, pymqi.MD(), gmo))

    thread = threading.Thread(target=consumer)
    thread.start()
    time.sleep(0.2)
    assert got == []  # still waiting
    connect(pymqi).put1("DEV.QUEUE.1", b"now")
    thread.join(3)
    assert got == [b"now"]


def test_dynamic_queue_names_are_unique() -> None:
    qmgr = connect(pymqi)
    names = set()
    for _ in range(3):
        od = pymqi.OD(ObjectName=b"DEV.APP.MODEL.QUEUE", DynamicQName=b"APP.*")
        pymqi.Queue(qmgr, od, C.MQOO_INPUT_AS_Q_DEF)
        names.add(od.ObjectName)
    assert len(names) == 3


def test_an_unsimulated_pcf_command_says_so() -> None:
    admin = pymqi.connect("QM1", "DEV.ADMIN.SVRCONN", "localhost(1414)", "admin", "passw0rd")
    pcf = pymqi.PCFExecute(admin)
    with pytest.raises(pymqi.MQMIError) as caught:
        pcf.MQCMD_INQUIRE_TOPIC({pymqi.CMQC.MQCA_TOPIC_NAME: b"*"})
    assert caught.value.reason == pymqi.CMQCFC.MQRCCF_COMMAND_FAILED
    assert "not simulated" in caught.value.detail


def admin(lib: ModuleType) -> object:
    return lib.connect("QM1", "DEV.ADMIN.SVRCONN", "localhost(1414)", "admin", "passw0rd")


def reason_of(call: object) -> int:
    try:
        call()  # type: ignore[operator]
    except (pymqi.MQMIError, ibmmq.MQMIError) as error:
        return int(error.reason)
    return 0


def test_app_has_the_developer_containers_authorities_and_no_more() -> None:
    app = connect(pymqi)
    admin(pymqi)  # admin defines a queue outside DEV.**
    pymqi.PCFExecute(admin(pymqi)).MQCMD_CREATE_Q(
        {C.MQCA_Q_NAME: b"PAYROLL", C.MQIA_Q_TYPE: C.MQQT_LOCAL}
    )
    assert reason_of(lambda: pymqi.Queue(app, "PAYROLL", C.MQOO_OUTPUT)) == 2035
    assert reason_of(lambda: pymqi.Queue(app, "NO.SUCH.Q", C.MQOO_OUTPUT)) == 2085
    assert reason_of(lambda: pymqi.Queue(app, "DEV.QUEUE.1", C.MQOO_SET)) == 2035
    assert reason_of(lambda: pymqi.PCFExecute(app)) == 2035  # the model queue, then commands
    assert reason_of(lambda: pymqi.Topic(app, topic_string="private/x").pub(b"x")) == 2035
    pymqi.Queue(app, "DEV.QUEUE.1", C.MQOO_OUTPUT | C.MQOO_INQUIRE | C.MQOO_BROWSE).close()
    pymqi.Queue(admin(pymqi), "PAYROLL", C.MQOO_SET).close()


def test_a_dynamic_queue_belongs_to_the_app_that_made_it() -> None:
    app = connect(ibmmq)
    od = ibmmq.OD(ObjectName="DEV.APP.MODEL.QUEUE", DynamicQName="APP.REPLIES.*")
    replies = ibmmq.Queue(app, od, C.MQOO_INPUT_EXCLUSIVE)  # kept: its close deletes the queue
    ibmmq.Queue(app, od.ObjectName, C.MQOO_OUTPUT).put(b"to my own reply queue")
    assert replies.get() == b"to my own reply queue"


def test_async_puts_report_their_failures_in_mqstat() -> None:
    qmgr = admin(ibmmq)
    queue = ibmmq.Queue(qmgr, "DEV.QUEUE.1", C.MQOO_OUTPUT | C.MQOO_SET)
    pmo = ibmmq.PMO(Options=C.MQPMO_ASYNC_RESPONSE)
    for inhibit in (C.MQQA_PUT_ALLOWED, C.MQQA_PUT_INHIBITED):
        queue.set({C.MQIA_INHIBIT_PUT: inhibit})
        for _ in range(3):
            queue.put(b"fire and forget", ibmmq.MD(), pmo)  # never raises
        sts = qmgr.stat(C.MQSTAT_TYPE_ASYNC_ERROR)
        counts = (sts.PutSuccessCount, sts.PutWarningCount, sts.PutFailureCount)
        if inhibit == C.MQQA_PUT_ALLOWED:
            assert counts == (3, 0, 0) and sts.Reason == 0
        else:
            assert counts == (0, 0, 3) and sts.Reason == C.MQRC_PUT_INHIBITED


def test_pcf_takes_structures_filters_and_a_responses_list() -> None:
    pcf = ibmmq.PCFExecute(admin(ibmmq))
    pcf.MQCMD_CREATE_Q(
        [
            ibmmq.CFST(Parameter=C.MQCA_Q_NAME, String=b"APP.FULL"),
            ibmmq.CFIN(Parameter=C.MQIA_Q_TYPE, Value=C.MQQT_LOCAL),
            ibmmq.CFIN(Parameter=C.MQIA_MAX_Q_DEPTH, Value=7),
        ]
    )
    deep = pcf.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"*"}, [ibmmq.Filter(C.MQIA_MAX_Q_DEPTH).less(10)])
    assert [q[C.MQCA_Q_NAME].strip() for q in deep] == [b"APP.FULL"]
    responses: list[object] = []
    pcf.MQCMD_INQUIRE_Q_NAMES({C.MQCA_Q_NAME: b"DEV.QUEUE.*"}, responses=responses)
    ((reply, header),) = responses
    assert header.Control == ibmmq.CMQCFC.MQCFC_LAST
    assert len(reply[ibmmq.CMQCFC.MQCACF_Q_NAMES]) == 3


def test_pcf_defines_and_lists_channels() -> None:
    pcf = pymqi.PCFExecute(admin(pymqi))
    cfc = pymqi.CMQCFC
    pcf.MQCMD_CREATE_CHANNEL(
        {cfc.MQCACH_CHANNEL_NAME: b"MY.SVRCONN", cfc.MQIACH_CHANNEL_TYPE: pymqi.CMQXC.MQCHT_SVRCONN}
    )
    names = [
        c[cfc.MQCACH_CHANNEL_NAME].strip()
        for c in pcf.MQCMD_INQUIRE_CHANNEL({cfc.MQCACH_CHANNEL_NAME: b"MY.*"})
    ]
    assert names == [b"MY.SVRCONN"]
    # the container's back-stop rule: a new channel admits nobody
    with pytest.raises(pymqi.MQMIError) as caught:
        pymqi.connect("QM1", "MY.SVRCONN", "localhost(1414)", "app", "passw0rd")
    assert caught.value.reason == C.MQRC_NOT_AUTHORIZED


def test_without_an_app_password_a_client_may_connect_without_a_user() -> None:
    """The container started without MQ_APP_PASSWORD: CHCKCLNT(ASQMGR), MCAUSER('app')."""
    with pytest.raises(pymqi.MQMIError) as caught:
        pymqi.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
    assert caught.value.reason == C.MQRC_NOT_AUTHORIZED
    pymqi.host("QM1").app_password_required = False
    qmgr = pymqi.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
    with pytest.raises(pymqi.MQMIError) as caught:  # and it acts as app
        pymqi.Queue(qmgr, "DEV.QUEUE.1", C.MQOO_SET)
    assert caught.value.reason == C.MQRC_NOT_AUTHORIZED


def test_a_dropped_queue_object_closes_its_handle() -> None:
    """As in both libraries: the exclusive input is released when the object goes."""
    qmgr = connect(pymqi)

    def open_exclusively() -> None:
        pymqi.Queue(qmgr, "DEV.QUEUE.1", C.MQOO_INPUT_EXCLUSIVE)

    open_exclusively()
    open_exclusively()
    assert pymqi.Queue(qmgr, "DEV.QUEUE.1").inquire(C.MQIA_OPEN_INPUT_COUNT) == 0


def test_put_and_get_fill_the_resolved_names() -> None:
    qmgr = admin(ibmmq)
    pcf = ibmmq.PCFExecute(qmgr)
    pcf.MQCMD_CREATE_Q(
        {C.MQCA_Q_NAME: b"QM2", C.MQIA_Q_TYPE: C.MQQT_LOCAL, C.MQIA_USAGE: C.MQUS_TRANSMISSION}
    )
    pcf.MQCMD_CREATE_Q(
        {
            C.MQCA_Q_NAME: b"ORDERS.AT.QM2",
            C.MQIA_Q_TYPE: C.MQQT_REMOTE,
            C.MQCA_REMOTE_Q_NAME: b"ORDERS",
            C.MQCA_REMOTE_Q_MGR_NAME: b"QM2",
        }
    )
    pmo = ibmmq.PMO()
    qmgr.put1("ORDERS.AT.QM2", b"x", ibmmq.MD(), pmo)
    assert (pmo.ResolvedQName.strip(), pmo.ResolvedQMgrName.strip()) == (b"ORDERS", b"QM2")
    qmgr.put1("DEV.QUEUE.1", b"y")
    gmo = ibmmq.GMO()
    ibmmq.Queue(qmgr, "DEV.QUEUE.1").get(None, ibmmq.MD(), gmo)
    assert gmo.ResolvedQName.strip() == b"DEV.QUEUE.1" and gmo.ReturnedLength == 1


def test_each_subscribers_copy_carries_the_publishers_properties() -> None:
    qmgr = connect(ibmmq)
    sd = ibmmq.SD(Options=C.MQSO_CREATE | C.MQSO_MANAGED)
    sd.set_vs("ObjectString", "dev/props")
    sub = ibmmq.Subscription(qmgr)
    sub.sub(sub_desc=sd)
    handle = ibmmq.MessageHandle(qmgr)
    handle.properties.set("region", "EU")
    ibmmq.Topic(qmgr, topic_string="dev/props").pub(
        b"p", ibmmq.MD(), ibmmq.PMO(OriginalMsgHandle=handle.msg_handle)
    )
    got = ibmmq.MessageHandle(qmgr)
    sub.get(None, ibmmq.MD(), ibmmq.GMO(MsgHandle=got.msg_handle))
    assert got.properties.get("region") == "EU"


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_properties_live_with_the_message_in_the_engine(lib: ModuleType) -> None:
    """The shims keep no properties of their own: a handle's properties go with the put into
    the engine's record, a get without a handle on a PROPCTL(COMPAT) queue gets them in an
    MQRFH2 (a usr property), and a PD's CopyOptions keep one out of the expiration report
    (rule RPT-03)."""
    qmgr = connect(lib)
    handle = lib.MessageHandle(qmgr)
    handle.properties.set("colour", "blue")
    handle.properties.set("internal", 1, C.MQTYPE_INT32, pd=lib.PD(CopyOptions=C.MQCOPY_NONE))
    pmo = lib.PMO(Version=3, OriginalMsgHandle=handle.msg_handle)
    md = lib.MD(Report=C.MQRO_EXPIRATION, ReplyToQ=b"DEV.QUEUE.2", Expiry=1)
    queue = lib.Queue(qmgr, "DEV.QUEUE.1")
    queue.put(b"x", md, pmo)
    queue.put(b"y", lib.MD(), pmo)
    engine = lib.queue_manager("QM1")
    stored = [engine.properties_of(m.seq) for m in engine.local("DEV.QUEUE.1").store.views()]
    assert [[p.name for p in props] for props in stored] == [["colour", "internal"]] * 2
    lib.simulation("QM1").advance(seconds=1)
    got = lib.MD()
    data = lib.Queue(qmgr, "DEV.QUEUE.1").get(None, got)  # discards x, reports it
    assert got.Format == C.MQFMT_RF_HEADER_2 and data.startswith(b"RFH ")
    assert b"<usr><colour>blue</colour><internal dt='i4'>1</internal></usr>" in data
    assert data.endswith(b"y")
    report = lib.MessageHandle(qmgr)
    lib.Queue(qmgr, "DEV.QUEUE.2").get(
        None, lib.MD(), lib.GMO(Version=4, MsgHandle=report.msg_handle)
    )
    assert report.properties.get("colour") == "blue"
    with pytest.raises(lib.MQMIError) as info:
        report.properties.get("internal")
    assert info.value.reason == C.MQRC_PROPERTY_NOT_AVAILABLE


def test_the_md_version_decides_whether_a_group_message_comes_behind_an_mqmde() -> None:
    """Rule MD-07: pymqi's MD (version 1) cannot hold GroupId and MsgFlags, so the message comes
    behind an MQMDE; ibmmq's (version 2) gets them in the descriptor."""
    put = ibmmq.MD(GroupId=b"G" * 24, MsgFlags=C.MQMF_LAST_MSG_IN_GROUP)
    ibmmq.connect("QM1").put1("DEV.QUEUE.1", b"body", put)
    ibmmq.connect("QM1").put1("DEV.QUEUE.1", b"body", put)
    old = pymqi.MD()
    data = pymqi.Queue(connect(pymqi), "DEV.QUEUE.1").get(None, old)
    assert old.Format == C.MQFMT_MD_EXTENSION and data.startswith(C.MQMDE_STRUC_ID)
    assert data.endswith(b"body")
    new = ibmmq.MD()
    assert ibmmq.Queue(connect(ibmmq), "DEV.QUEUE.1").get(None, new) == b"body"
    # rule MD-08: the stored flags have MQMF_MSG_IN_GROUP turned on with MQMF_LAST_MSG_IN_GROUP
    last_in_group = C.MQMF_LAST_MSG_IN_GROUP | C.MQMF_MSG_IN_GROUP
    assert new.GroupId == b"G" * 24 and new.MsgFlags == last_in_group


def test_a_notebooks_own_queue_manager_can_be_served_to_programs() -> None:
    import mqlearn as mq

    qm = mq.QueueManager("QM7")
    qm.define_qlocal("APP.IN")
    pymqi.serve(qm, port=1417)
    qmgr = pymqi.connect("QM7", "DEV.ADMIN.SVRCONN", "localhost(1417)", "admin", "x")
    qmgr.put1("APP.IN", b"from a pymqi program")
    assert qm.curdepth("APP.IN") == 1


def test_an_administrator_can_grant_app_an_authority() -> None:
    """MQCMD_SET_AUTH_REC: app may then open DEV.QUEUE.1 for MQSET, and no longer once removed."""
    app = connect(pymqi)
    pcf = pymqi.PCFExecute(admin(pymqi))
    cfc = pymqi.CMQCFC

    def grant(key: int) -> None:
        pcf.MQCMD_SET_AUTH_REC(
            {
                cfc.MQCACF_AUTH_PROFILE_NAME: b"DEV.QUEUE.*",
                cfc.MQIACF_OBJECT_TYPE: C.MQOT_Q,
                key: [cfc.MQAUTH_SET],
                cfc.MQCACF_PRINCIPAL_ENTITY_NAMES: [b"app"],
            }
        )

    assert reason_of(lambda: pymqi.Queue(app, "DEV.QUEUE.1", C.MQOO_SET)) == 2035
    grant(cfc.MQIACF_AUTH_ADD_AUTHS)
    pymqi.Queue(app, "DEV.QUEUE.1", C.MQOO_SET).close()
    grant(cfc.MQIACF_AUTH_REMOVE_AUTHS)
    assert reason_of(lambda: pymqi.Queue(app, "DEV.QUEUE.1", C.MQOO_SET)) == 2035


@pytest.mark.parametrize(
    ("profile", "name", "expected"),
    [
        ("DEV.**", "DEV.QUEUE.1", True),
        ("DEV.**", "DEV", True),
        ("DEV.**", "DEVX.Q", False),
        ("A.**.B", "A.X.Y.B", True),
        ("**.B", "B", True),
        ("DEV.*", "DEV.Q.1", False),
        ("Q?", "Q1", True),
    ],
)
def test_generic_profiles_match_as_the_oam_says(profile: str, name: str, expected: bool) -> None:
    from mqlearn.compat.authority import matches

    assert matches(profile, name) is expected


def test_a_threads_wait_on_the_virtual_clock_is_reported_once() -> None:
    from mqlearn.compat.queue import VirtualWaitWarning

    qmgr = connect(pymqi)
    caught: list[list[object]] = []

    def waiter() -> None:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            for _ in range(2):
                gmo = pymqi.GMO(Options=C.MQGMO_WAIT, WaitInterval=1000)
                assert reason_of(lambda g=gmo: pymqi.Queue(qmgr, "DEV.QUEUE.1").get(None, None, g))
            caught.append([w.category for w in seen])

    thread = threading.Thread(target=waiter)
    thread.start()
    thread.join(5)
    assert caught == [[VirtualWaitWarning]]
