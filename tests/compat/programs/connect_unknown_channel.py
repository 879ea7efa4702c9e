import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

try:
    pymqi.connect(queue_manager, "NO.SUCH.SVRCONN", conn_info, user, password)
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_UNKNOWN_CHANNEL_NAME  # 2540
else:
    raise AssertionError("connected through a channel that is not defined")
