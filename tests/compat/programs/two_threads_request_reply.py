# mqlearn-test: realtime
import threading

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"


def responder():
    qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
    requests = pymqi.Queue(qmgr, "DEV.QUEUE.1")
    gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=5000)
    md = pymqi.MD()
    body = requests.get(None, md, gmo)
    qmgr.put1(
        md.ReplyToQ.strip(),
        b"pong: " + body,
        pymqi.MD(CorrelId=md.MsgId, MsgType=pymqi.CMQC.MQMT_REPLY),
    )
    requests.close()
    qmgr.disconnect()


thread = threading.Thread(target=responder)
thread.start()
qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
request = pymqi.MD(MsgType=pymqi.CMQC.MQMT_REQUEST, ReplyToQ=b"DEV.QUEUE.2")
qmgr.put1("DEV.QUEUE.1", b"ping", request)
replies = pymqi.Queue(qmgr, "DEV.QUEUE.2")
reply_md = pymqi.MD(CorrelId=request.MsgId)
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=5000)
gmo.Version = pymqi.CMQC.MQGMO_VERSION_2
gmo.MatchOptions = pymqi.CMQC.MQMO_MATCH_CORREL_ID
assert replies.get(None, reply_md, gmo) == b"pong: ping"
thread.join()
replies.close()
qmgr.disconnect()
