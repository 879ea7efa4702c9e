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
    sd.set_vs("ObjectString", b"dev/news")
    sub = pymqi.Subscription(qmgr)
    sub.sub(sub_desc=sd)
    subs.append(sub)
pymqi.Topic(qmgr, topic_string="dev/news").pub(b"headline")
assert [s.get() for s in subs] == [b"headline", b"headline"]
for s in subs:
    s.close(close_sub_queue=True)
qmgr.disconnect()
