import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1", pymqi.CMQC.MQOO_OUTPUT | pymqi.CMQC.MQOO_INPUT_SHARED)
pmo = pymqi.PMO(Options=pymqi.CMQC.MQPMO_SYNCPOINT)
queue.put(b"in a unit of work", pymqi.MD(), pmo)
try:
    queue.get()
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE  # not visible before the commit
qmgr.commit()
assert queue.get() == b"in a unit of work"
queue.close()
qmgr.disconnect()
