import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.3", pymqi.CMQC.MQOO_INPUT_AS_Q_DEF)
sd = pymqi.SD(Options=pymqi.CMQC.MQSO_CREATE | pymqi.CMQC.MQSO_NON_DURABLE)
sd.set_vs("ObjectString", b"dev/alerts")
sub = pymqi.Subscription(qmgr, sub_queue=queue)
sub.sub(sub_desc=sd, sub_queue=queue)
pymqi.Topic(qmgr, topic_string="dev/alerts").pub(b"disk full")
assert queue.get() == b"disk full"
sub.close()
queue.close()
qmgr.disconnect()
