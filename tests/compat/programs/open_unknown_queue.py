import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
try:
    pymqi.Queue(qmgr, "NO.SUCH.QUEUE", pymqi.CMQC.MQOO_OUTPUT)
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_UNKNOWN_OBJECT_NAME  # 2085
qmgr.disconnect()
