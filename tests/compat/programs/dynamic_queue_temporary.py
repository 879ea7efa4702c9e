import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
od = pymqi.OD(ObjectName=b"DEV.APP.MODEL.QUEUE", DynamicQName=b"MYAPP.*")
dyn = pymqi.Queue(qmgr, od, pymqi.CMQC.MQOO_INPUT_AS_Q_DEF | pymqi.CMQC.MQOO_OUTPUT)
name = od.ObjectName.strip()
dyn.put(b"kept only while open")
assert dyn.inquire(pymqi.CMQC.MQIA_CURRENT_Q_DEPTH) == 1
assert dyn.inquire(pymqi.CMQC.MQIA_DEFINITION_TYPE) == pymqi.CMQC.MQQDT_TEMPORARY_DYNAMIC
dyn.close()
try:
    pymqi.Queue(qmgr, name, pymqi.CMQC.MQOO_INPUT_AS_Q_DEF)
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_UNKNOWN_OBJECT_NAME  # deleted on close
else:
    raise AssertionError("the temporary dynamic queue outlived its handle")
qmgr.disconnect()
