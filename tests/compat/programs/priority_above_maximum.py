import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2", pymqi.CMQC.MQOO_OUTPUT | pymqi.CMQC.MQOO_INPUT_SHARED)
md = pymqi.MD(Priority=12)
try:
    queue.put(b"too important", md)
except pymqi.MQMIError as e:
    assert e.comp == pymqi.CMQC.MQCC_WARNING
    assert e.reason == pymqi.CMQC.MQRC_PRIORITY_EXCEEDS_MAXIMUM  # 2049: put, at MAXPRTY
got = pymqi.MD()
assert queue.get(None, got) == b"too important"
assert got.Priority == 12  # the descriptor keeps the priority the application gave
queue.close()
qmgr.disconnect()
