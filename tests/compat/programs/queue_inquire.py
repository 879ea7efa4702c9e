import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
for _ in range(4):
    qmgr.put1("DEV.QUEUE.3", b"x")
queue = pymqi.Queue(qmgr, "DEV.QUEUE.3")
depth = queue.inquire(pymqi.CMQC.MQIA_CURRENT_Q_DEPTH)
max_depth = queue.inquire(pymqi.CMQC.MQIA_MAX_Q_DEPTH)
qtype = queue.inquire(pymqi.CMQC.MQIA_Q_TYPE)
name = queue.inquire(pymqi.CMQC.MQCA_Q_NAME)
assert (depth, max_depth, qtype) == (4, 5000, pymqi.CMQC.MQQT_LOCAL)
assert name == b"DEV.QUEUE.3".ljust(48)
queue.close()
qmgr.disconnect()
