# mqlearn-test: realtime
import time

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
subs = []
for _ in range(2):
    sd = pymqi.SD(Options=pymqi.CMQC.MQSO_CREATE | pymqi.CMQC.MQSO_MANAGED)
    sd.set_vs("ObjectString", b"dev/quotes")
    sub = pymqi.Subscription(qmgr)
    sub.sub(sub_desc=sd)
    subs.append(sub)
pymqi.Topic(qmgr, topic_string="dev/quotes").pub(b"quote", pymqi.MD(Expiry=10))
assert subs[0].get() == b"quote"  # the fast subscriber
time.sleep(1.5)
try:
    subs[1].get()  # the slow one's copy has expired on its own
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE
else:
    raise AssertionError("the second copy outlived its Expiry")
for s in subs:
    s.close(close_sub_queue=True)
qmgr.disconnect()
