import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
for n in range(5):
    qmgr.put1("DEV.QUEUE.1", f"message {n}")
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
got = []
keep_running = True
while keep_running:
    md = pymqi.MD()
    gmo = pymqi.GMO()
    gmo.Options = pymqi.CMQC.MQGMO_WAIT | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING
    gmo.WaitInterval = 2000
    try:
        got.append(queue.get(None, md, gmo))
    except pymqi.MQMIError as e:
        if e.comp == pymqi.CMQC.MQCC_FAILED and e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE:
            keep_running = False
        else:
            raise
assert got == [f"message {n}".encode() for n in range(5)]
queue.close()
qmgr.disconnect()
