import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
pcf = pymqi.PCFExecute(qmgr)
response = pcf.MQCMD_INQUIRE_Q_NAMES(
    {pymqi.CMQC.MQCA_Q_NAME: b"*", pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_MODEL}
)
names = [n.strip() for n in response[0][pymqi.CMQCFC.MQCACF_Q_NAMES]]
assert b"SYSTEM.DEFAULT.MODEL.QUEUE" in names
qmgr.disconnect()
