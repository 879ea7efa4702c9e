import struct

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
dlq_name = qmgr.inquire(pymqi.CMQC.MQCA_DEAD_LETTER_Q_NAME).strip()
assert dlq_name == b"DEV.DEAD.LETTER.QUEUE"
# a dead-letter header, as a queue manager writes one, in front of the original data
dlh = struct.pack(
    "=4sii48s48sii8si28s8s8s",
    b"DLH ",
    1,
    pymqi.CMQC.MQRC_Q_FULL,
    b"APP.ORDERS".ljust(48),
    b"QM1".ljust(48),
    pymqi.CMQC.MQENC_NATIVE,
    1208,
    pymqi.CMQC.MQFMT_STRING,
    6,
    b"orders".ljust(28),
    b"20260101",
    b"09000000",
)
md = pymqi.MD(Format=pymqi.CMQC.MQFMT_DEAD_LETTER_HEADER)
qmgr.put1(dlq_name, dlh + b"order 42", md)

dlq = pymqi.Queue(qmgr, dlq_name, pymqi.CMQC.MQOO_BROWSE)
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_BROWSE_FIRST)
got_md = pymqi.MD()
body = dlq.get(None, got_md, gmo)
assert got_md.Format == pymqi.CMQC.MQFMT_DEAD_LETTER_HEADER
struc_id, version, reason, dest_q, dest_qmgr = struct.unpack("=4sii48s48s", body[:108])
assert struc_id == pymqi.CMQC.MQDLH_STRUC_ID and reason == pymqi.CMQC.MQRC_Q_FULL
assert dest_q.strip() == b"APP.ORDERS"
assert body[pymqi.CMQC.MQDLH_LENGTH_1 :] == b"order 42"
dlq.close()
qmgr.disconnect()
