import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
queue.put(b"Hello from Python!")
queue.close()
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
md = pymqi.MD()
message = queue.get(None, md)
queue.close()
assert message == b"Hello from Python!"
assert md.Format == pymqi.CMQC.MQFMT_NONE
assert md.ReplyToQMgr.strip() == b"QM1"
qmgr.disconnect()
