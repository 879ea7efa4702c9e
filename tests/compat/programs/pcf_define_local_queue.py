import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
pcf = pymqi.PCFExecute(qmgr)
args = {
    pymqi.CMQC.MQCA_Q_NAME: b"MYQUEUE.1",
    pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_LOCAL,
    pymqi.CMQC.MQIA_MAX_Q_DEPTH: 100,
    pymqi.CMQC.MQIA_DEF_PRIORITY: 4,
}
pcf.MQCMD_CREATE_Q(args)
response = pcf.MQCMD_INQUIRE_Q({pymqi.CMQC.MQCA_Q_NAME: b"MYQUEUE.1"})
assert len(response) == 1
attrs = response[0]
assert attrs[pymqi.CMQC.MQCA_Q_NAME].strip() == b"MYQUEUE.1"
assert attrs[pymqi.CMQC.MQIA_MAX_Q_DEPTH] == 100 and attrs[pymqi.CMQC.MQIA_DEF_PRIORITY] == 4
try:
    pcf.MQCMD_CREATE_Q(args)
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS
pcf.MQCMD_DELETE_Q({pymqi.CMQC.MQCA_Q_NAME: b"MYQUEUE.1"})
qmgr.disconnect()
