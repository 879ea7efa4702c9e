import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
qmgr.put1("DEV.QUEUE.1", b"0123456789" * 10)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1")
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_ACCEPT_TRUNCATED_MSG | pymqi.CMQC.MQGMO_NO_WAIT)
md = pymqi.MD()
try:
    queue.get(20, md, gmo)
except pymqi.MQMIError as e:
    if e.reason != pymqi.CMQC.MQRC_TRUNCATED_MSG_ACCEPTED:
        raise
    part, total = e.message, e.original_length
assert part == b"01234567890123456789" and total == 100
try:
    queue.get()
except pymqi.MQMIError as e:
    assert e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE  # 2079 removed the message
queue.close()
qmgr.disconnect()
