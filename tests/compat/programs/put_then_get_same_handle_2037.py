import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
queue.put(b"opened for output by the put")
try:
    queue.get()
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NOT_OPEN_FOR_INPUT  # 2037
else:
    raise AssertionError("a handle opened for output got a message")
queue.close()
qmgr.disconnect()
