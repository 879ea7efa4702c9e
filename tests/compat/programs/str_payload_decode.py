import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1", pymqi.CMQC.MQOO_OUTPUT | pymqi.CMQC.MQOO_INPUT_SHARED)
queue.put("Grüße aus Python")
md = pymqi.MD()
body = queue.get(None, md)
if md.Format == pymqi.CMQC.MQFMT_STRING:
    text = body.decode("utf-8")
assert text == "Grüße aus Python"
assert md.Format.decode().strip() == "MQSTR"
queue.close()
qmgr.disconnect()
