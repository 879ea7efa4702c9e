# mqlearn-test: realtime
import time

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
qmgr.put1("DEV.QUEUE.2", b"gone soon", pymqi.MD(Expiry=3))
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2")
time.sleep(0.5)
assert queue.inquire(pymqi.CMQC.MQIA_CURRENT_Q_DEPTH) == 1  # expired but still counted
queue.close()
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2")
try:
    queue.get()
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE
queue.close()
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2")
assert queue.inquire(pymqi.CMQC.MQIA_CURRENT_Q_DEPTH) == 0  # the get discarded it
queue.close()
qmgr.disconnect()
