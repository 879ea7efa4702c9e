import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
md = pymqi.MD()
queue.put("Hello from Python!", md)
queue.close()
assert md.Format == pymqi.CMQC.MQFMT_STRING
assert md.CodedCharSetId == 1208
assert len(md.MsgId) == 24 and md.MsgId != pymqi.CMQC.MQMI_NONE
assert md.PutApplType != 0 and len(md.PutDate) == 8
qmgr.disconnect()
