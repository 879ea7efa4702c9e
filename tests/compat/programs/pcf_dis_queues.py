import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
pcf = pymqi.PCFExecute(qmgr)
response = pcf.MQCMD_INQUIRE_Q(
    {pymqi.CMQC.MQCA_Q_NAME: b"DEV.*", pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_LOCAL}
)
names = sorted(q[pymqi.CMQC.MQCA_Q_NAME].strip() for q in response)
assert names == [b"DEV.DEAD.LETTER.QUEUE", b"DEV.QUEUE.1", b"DEV.QUEUE.2", b"DEV.QUEUE.3"]
try:
    pcf.MQCMD_INQUIRE_Q({pymqi.CMQC.MQCA_Q_NAME: b"NOTHING.HERE.*"})
except pymqi.MQMIError as e:
    assert e.comp == pymqi.CMQC.MQCC_FAILED and e.reason == pymqi.CMQC.MQRC_UNKNOWN_OBJECT_NAME
qmgr.disconnect()
