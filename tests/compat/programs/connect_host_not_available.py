import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

try:
    pymqi.connect(queue_manager, channel, "127.0.0.1(1499)", user, password)
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_HOST_NOT_AVAILABLE  # 2538
else:
    raise AssertionError("connected where nothing listens")
