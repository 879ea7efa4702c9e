import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
md = pymqi.MD()
qmgr.put1("DEV.QUEUE.2", b"one message, one call", md)
assert md.MsgId != pymqi.CMQC.MQMI_NONE
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2")
assert queue.get() == b"one message, one call"
queue.close()
qmgr.disconnect()
