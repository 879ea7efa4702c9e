import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
for _ in range(3):
    qmgr.put1("DEV.QUEUE.1", b"waiting")
reader = pymqi.Queue(qmgr, "DEV.QUEUE.1", pymqi.CMQC.MQOO_INPUT_SHARED)
pcf = pymqi.PCFExecute(qmgr)
status = pcf.MQCMD_INQUIRE_Q_STATUS({pymqi.CMQC.MQCA_Q_NAME: b"DEV.QUEUE.1"})[0]
assert status[pymqi.CMQC.MQIA_CURRENT_Q_DEPTH] == 3
assert status[pymqi.CMQC.MQIA_OPEN_INPUT_COUNT] == 1
reader.close()
qmgr.disconnect()
