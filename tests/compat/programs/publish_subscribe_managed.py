import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
sub = pymqi.Subscription(qmgr)
sd = pymqi.SD()
sd.Options = pymqi.CMQC.MQSO_CREATE | pymqi.CMQC.MQSO_NON_DURABLE | pymqi.CMQC.MQSO_MANAGED
sd.set_vs("ObjectString", b"dev/prices")
sub.sub(sub_desc=sd)

topic = pymqi.Topic(qmgr, topic_string="dev/prices")
topic.open(open_opts=pymqi.CMQC.MQOO_OUTPUT)
topic.pub(b"GBP 1.17")
topic.close()

md = pymqi.MD()
assert sub.get(None, md) == b"GBP 1.17"
sub.close(sub_close_options=0, close_sub_queue=True)
qmgr.disconnect()
