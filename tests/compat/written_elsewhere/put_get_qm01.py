# Written as pymqi's own examples are: a private queue manager QM01 listening at
# 192.168.1.135(1434), a server-connection channel SVRCONN.1 that takes no user, a queue TEST.1,
# and the constants imported from pymqi 1.x's top-level CMQC module. tests/compat/test_runner.py
# runs it with `mqlearn run --qmgr QM01 --port 1434 --channel SVRCONN.1 --mqsc qm01.mqsc`.
import sys

import CMQC
import pymqi

queue_manager = "QM01"
channel = "SVRCONN.1"
host = "192.168.1.135"
port = "1434"
queue_name = "TEST.1"
message = sys.argv[1].encode("ascii") if len(sys.argv) > 1 else b"Hello from Python!"
conn_info = "%s(%s)" % (host, port)  # noqa: UP031 - as pymqi's examples write it

qmgr = pymqi.connect(queue_manager, channel, conn_info)

queue = pymqi.Queue(qmgr, queue_name)
queue.put(message)
queue.close()

queue = pymqi.Queue(qmgr, queue_name)
md = pymqi.MD()
gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_FAIL_IF_QUIESCING, WaitInterval=5000)
got = queue.get(None, md, gmo)
queue.close()
qmgr.disconnect()

print("got", got.decode("ascii"), "from", queue_name, "on", queue_manager)
