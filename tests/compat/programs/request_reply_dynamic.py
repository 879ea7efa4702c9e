import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
od = pymqi.OD()
od.ObjectName = b"DEV.APP.MODEL.QUEUE"
od.DynamicQName = b"PYREPLY.*"
reply_queue = pymqi.Queue(qmgr, od, pymqi.CMQC.MQOO_INPUT_EXCLUSIVE)
reply_name = od.ObjectName.strip()
assert reply_name.startswith(b"PYREPLY.")

request_md = pymqi.MD()
request_md.MsgType = pymqi.CMQC.MQMT_REQUEST
request_md.ReplyToQ = reply_name
requests = pymqi.Queue(qmgr, "DEV.QUEUE.1")
requests.put(b"what time is it?", request_md)
requests.close()

# the responder
server = pymqi.Queue(qmgr, "DEV.QUEUE.1")
md = pymqi.MD()
question = server.get(None, md)
reply_md = pymqi.MD(MsgType=pymqi.CMQC.MQMT_REPLY, CorrelId=md.MsgId)
qmgr.put1(md.ReplyToQ.strip(), b"reply to: " + question, reply_md)
server.close()

answer_md = pymqi.MD(CorrelId=request_md.MsgId)
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=3000)
gmo.MatchOptions = pymqi.CMQC.MQMO_MATCH_CORREL_ID
gmo.Version = pymqi.CMQC.MQGMO_VERSION_2
answer = reply_queue.get(None, answer_md, gmo)
assert answer == b"reply to: what time is it?"
assert answer_md.MsgType == pymqi.CMQC.MQMT_REPLY
reply_queue.close()
qmgr.disconnect()
