import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
pcf = pymqi.PCFExecute(qmgr)
pcf.MQCMD_PING_Q_MGR()
info = pcf.MQCMD_INQUIRE_Q_MGR()[0]
assert info[pymqi.CMQC.MQCA_Q_MGR_NAME].strip() == b"QM1"
qmgr.disconnect()
