import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

with pymqi.connect(queue_manager, channel, conn_info, user, password) as qmgr:
    with pymqi.Queue(qmgr, "DEV.QUEUE.1") as queue:
        queue.put("inside a with block")
    with pymqi.Queue(qmgr, "DEV.QUEUE.1") as queue:
        assert queue.get() == b"inside a with block"
assert not qmgr.is_connected
