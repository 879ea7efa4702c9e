import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
sd = pymqi.SD(Options=pymqi.CMQC.MQSO_CREATE | pymqi.CMQC.MQSO_DURABLE | pymqi.CMQC.MQSO_MANAGED)
sd.set_vs("SubName", b"prices.audit")
sd.set_vs("ObjectString", b"dev/prices")
sub = pymqi.Subscription(qmgr)
sub.sub(sub_desc=sd)
sub.close()  # durable: the subscription stays

pymqi.Topic(qmgr, topic_string="dev/prices").pub(b"published while away")

sd = pymqi.SD(Options=pymqi.CMQC.MQSO_RESUME | pymqi.CMQC.MQSO_DURABLE | pymqi.CMQC.MQSO_MANAGED)
sd.set_vs("SubName", b"prices.audit")
sub = pymqi.Subscription(qmgr)
sub.sub(sub_desc=sd)
assert sub.get() == b"published while away"
sub.close(sub_close_options=pymqi.CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
qmgr.disconnect()
