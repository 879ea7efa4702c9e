import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
topic = pymqi.Topic(qmgr, topic_string="dev/nobody/listens")
pmo = pymqi.PMO(Options=pymqi.CMQC.MQPMO_WARN_IF_NO_SUBS_MATCHED)
try:
    topic.pub(b"into the void", pymqi.MD(), pmo)
except pymqi.MQMIError as e:
    assert e.comp == pymqi.CMQC.MQCC_WARNING and e.reason == pymqi.CMQC.MQRC_NO_SUBS_MATCHED
else:
    raise AssertionError("no warning")
qmgr.disconnect()
