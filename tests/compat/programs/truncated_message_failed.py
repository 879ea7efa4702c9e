import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
qmgr.put1("DEV.QUEUE.1", b"x" * 1000)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
try:
    queue.get(100)
except pymqi.MQMIError as e:
    assert e.comp == pymqi.CMQC.MQCC_WARNING
    assert e.reason == pymqi.CMQC.MQRC_TRUNCATED_MSG_FAILED  # 2080: still on the queue
    assert e.original_length == 1000
    whole = queue.get(e.original_length)
assert whole == b"x" * 1000
queue.close()
qmgr.disconnect()
