import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
sub = pymqi.Subscription(qmgr)
sd = pymqi.SD(Options=pymqi.CMQC.MQSO_CREATE | pymqi.CMQC.MQSO_MANAGED)
sd.ObjectName = b"DEV.BASE.TOPIC"
sub.sub(sub_desc=sd)
topic = pymqi.Topic(qmgr, topic_name="DEV.BASE.TOPIC")
topic.pub(b"to everyone on dev/")
assert sub.get() == b"to everyone on dev/"
sub.close(close_sub_queue=True)
qmgr.disconnect()
