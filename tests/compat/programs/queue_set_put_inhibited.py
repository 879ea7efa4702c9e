import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

# MQSET needs more authority than app has: the administrator does it
qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
queue = pymqi.Queue(qmgr, "DEV.QUEUE.2", pymqi.CMQC.MQOO_SET | pymqi.CMQC.MQOO_OUTPUT)
queue.set(pymqi.CMQC.MQIA_INHIBIT_PUT, pymqi.CMQC.MQQA_PUT_INHIBITED)
try:
    queue.put(b"not now")
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_PUT_INHIBITED  # 2051
else:
    raise AssertionError("put to a PUT(DISABLED) queue")
queue.set(pymqi.CMQC.MQIA_INHIBIT_PUT, pymqi.CMQC.MQQA_PUT_ALLOWED)
queue.put(b"now")
queue.close()
qmgr.disconnect()
