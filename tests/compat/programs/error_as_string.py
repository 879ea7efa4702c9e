import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
try:
    pymqi.Queue(qmgr, "DEV.QUEUE.1").get()
except pymqi.MQMIError as e:
    assert "MQRC_NO_MSG_AVAILABLE" in e.errorAsString()
    assert "2033" in str(e)
qmgr.disconnect()
