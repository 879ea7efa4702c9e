import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
md = pymqi.MD(Expiry=600)  # tenths of a second: one minute
qmgr.put1("DEV.QUEUE.1", b"short-lived", md)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
got = pymqi.MD()
queue.get(None, got)
assert 0 < got.Expiry <= 600  # what is left of its lifetime
queue.close()
qmgr.disconnect()
