import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
for body in (b"first", b"second"):
    qmgr.put1("DEV.QUEUE.1", body)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
md = pymqi.MD()
assert queue.get(None, md) == b"first"
try:
    queue.get(None, md)  # md still holds the first message's MsgId: nothing matches
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE
md = pymqi.MD()
assert queue.get(None, md) == b"second"
queue.close()
qmgr.disconnect()
