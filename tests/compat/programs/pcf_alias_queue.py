import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
pcf = pymqi.PCFExecute(qmgr)
pcf.MQCMD_CREATE_Q(
    {
        pymqi.CMQC.MQCA_Q_NAME: b"ORDERS",
        pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_ALIAS,
        pymqi.CMQC.MQCA_BASE_Q_NAME: b"DEV.QUEUE.2",
    }
)
qmgr.put1("ORDERS", b"via the alias")
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2")
assert queue.get() == b"via the alias"
queue.close()
pcf.MQCMD_CHANGE_Q(
    {
        pymqi.CMQC.MQCA_Q_NAME: b"ORDERS",
        pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_ALIAS,
        pymqi.CMQC.MQIA_INHIBIT_PUT: pymqi.CMQC.MQQA_PUT_INHIBITED,
    }
)
try:
    qmgr.put1("ORDERS", b"blocked")
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_PUT_INHIBITED
pcf.MQCMD_DELETE_Q(
    {pymqi.CMQC.MQCA_Q_NAME: b"ORDERS", pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_ALIAS}
)
qmgr.disconnect()
