import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1", pymqi.CMQC.MQOO_OUTPUT | pymqi.CMQC.MQOO_INPUT_SHARED)
for priority in (2, 8, 5):
    md = pymqi.MD()
    md.Priority = priority
    queue.put(f"priority {priority}".encode(), md)
order = []
for _ in range(3):
    md = pymqi.MD()
    queue.get(None, md)
    order.append(md.Priority)
assert order == [8, 5, 2]
queue.close()
qmgr.disconnect()
