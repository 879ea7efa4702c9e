# mqlearn-test: realtime
import time

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
md = pymqi.MD(Expiry=2, Report=pymqi.CMQC.MQRO_EXPIRATION, ReplyToQ=b"DEV.QUEUE.3")
qmgr.put1("DEV.QUEUE.1", b"report my death", md)
time.sleep(0.4)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
try:
    queue.get()
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE
queue.close()
reports = pymqi.Queue(qmgr, "DEV.QUEUE.3")
report_md = pymqi.MD()
reports.get(None, report_md)
assert report_md.MsgType == pymqi.CMQC.MQMT_REPORT
assert report_md.Feedback == pymqi.CMQC.MQFB_EXPIRATION
assert report_md.CorrelId == md.MsgId
reports.close()
qmgr.disconnect()
