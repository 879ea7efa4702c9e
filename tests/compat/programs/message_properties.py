import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
put_handle = pymqi.MessageHandle(qmgr)
put_handle.properties.set("customer", "ACME")
put_handle.properties.set("amount", 250, property_type=pymqi.CMQC.MQTYPE_INT32)
pmo = pymqi.PMO(Version=pymqi.CMQC.MQPMO_VERSION_3)
pmo.OriginalMsgHandle = put_handle.msg_handle
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1", pymqi.CMQC.MQOO_OUTPUT | pymqi.CMQC.MQOO_INPUT_SHARED)
queue.put(b"order", pymqi.MD(), pmo)

get_handle = pymqi.MessageHandle(qmgr)
gmo = pymqi.GMO(Version=pymqi.CMQC.MQGMO_VERSION_4)
gmo.Options = pymqi.CMQC.MQGMO_PROPERTIES_IN_HANDLE
gmo.MsgHandle = get_handle.msg_handle
assert queue.get(None, pymqi.MD(), gmo) == b"order"
assert get_handle.properties.get("customer") == "ACME"
assert get_handle.properties.get("amount", property_type=pymqi.CMQC.MQTYPE_INT32) == 250
try:
    get_handle.properties.get("missing")
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_PROPERTY_NOT_AVAILABLE
queue.close()
qmgr.disconnect()
