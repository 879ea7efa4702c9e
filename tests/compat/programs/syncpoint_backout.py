import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
qmgr.put1("DEV.QUEUE.1", b"poison")
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_SYNCPOINT)
queue.get(None, pymqi.MD(), gmo)
qmgr.backout()
md = pymqi.MD()
assert queue.get(None, md, pymqi.GMO(Options=pymqi.CMQC.MQGMO_SYNCPOINT)) == b"poison"
assert md.BackoutCount == 1
qmgr.commit()
queue.close()
qmgr.disconnect()
