import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
for n in range(3):
    qmgr.put1("DEV.QUEUE.2", f"browse me {n}".encode())
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2", pymqi.CMQC.MQOO_BROWSE | pymqi.CMQC.MQOO_INPUT_SHARED)
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_BROWSE_FIRST)
seen = []
while True:
    try:
        seen.append(queue.get(None, pymqi.MD(), gmo))
    except pymqi.MQMIError as e:
        if e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE:
            break
        raise
    gmo.Options = pymqi.CMQC.MQGMO_BROWSE_NEXT
assert seen == [b"browse me 0", b"browse me 1", b"browse me 2"]
assert queue.inquire(pymqi.CMQC.MQIA_CURRENT_Q_DEPTH) == 3  # browsing leaves them
queue.close()
qmgr.disconnect()
