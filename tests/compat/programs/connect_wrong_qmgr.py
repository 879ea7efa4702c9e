import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

try:
    pymqi.connect("QM9", channel, conn_info, user, password)
except pymqi.MQMIError as e:
    assert e.comp == pymqi.CMQC.MQCC_FAILED
    assert e.reason == pymqi.CMQC.MQRC_Q_MGR_NOT_AVAILABLE  # 2059
else:
    raise AssertionError("connected to a queue manager that is not there")
