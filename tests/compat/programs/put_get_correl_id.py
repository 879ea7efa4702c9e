import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
queue = pymqi.Queue(qmgr, "DEV.QUEUE.1", pymqi.CMQC.MQOO_OUTPUT | pymqi.CMQC.MQOO_INPUT_SHARED)
for n, correl in enumerate([b"first", b"second", b"third"]):
    put_md = pymqi.MD(CorrelId=correl.ljust(24, b"\0"))
    queue.put(f"body {n}".encode(), put_md)
get_md = pymqi.MD(CorrelId=b"second".ljust(24, b"\0"))
gmo = pymqi.GMO(Version=pymqi.CMQC.MQGMO_VERSION_2, MatchOptions=pymqi.CMQC.MQMO_MATCH_CORREL_ID)
assert queue.get(None, get_md, gmo) == b"body 1"
assert get_md.CorrelId.rstrip(b"\0") == b"second"
queue.close()
qmgr.disconnect()
