import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
od = pymqi.OD()
od.ObjectName = b"DEV.QUEUE.2"
queue = pymqi.Queue(qmgr)
queue.open(od, pymqi.CMQC.MQOO_OUTPUT)
queue.put(b"through an OD")
queue.close()
assert pymqi.Queue(qmgr, "DEV.QUEUE.2").get() == b"through an OD"
qmgr.disconnect()
