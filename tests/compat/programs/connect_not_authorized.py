import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

try:
    pymqi.connect(queue_manager, channel, conn_info, "mallory", "guess")
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NOT_AUTHORIZED  # 2035
else:
    raise AssertionError("an unknown user was let in")
