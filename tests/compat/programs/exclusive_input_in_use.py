import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
first = pymqi.Queue(qmgr, "DEV.QUEUE.3", pymqi.CMQC.MQOO_INPUT_EXCLUSIVE)
try:
    pymqi.Queue(qmgr, "DEV.QUEUE.3", pymqi.CMQC.MQOO_INPUT_EXCLUSIVE)
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_OBJECT_IN_USE  # 2042
else:
    raise AssertionError("two exclusive readers")
first.close()
qmgr.disconnect()
