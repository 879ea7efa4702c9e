# mqlearn-test: realtime
import threading
import time

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

got = []


def consumer():
    qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
    queue = pymqi.Queue(qmgr, "DEV.QUEUE.3")
    gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=10000)
    got.append(queue.get(None, pymqi.MD(), gmo))
    queue.close()
    qmgr.disconnect()


thread = threading.Thread(target=consumer)
thread.start()
time.sleep(0.3)
producer = pymqi.connect(queue_manager, channel, conn_info, user, password)
producer.put1("DEV.QUEUE.3", b"worth the wait")
thread.join(5)
assert got == [b"worth the wait"]
producer.disconnect()
