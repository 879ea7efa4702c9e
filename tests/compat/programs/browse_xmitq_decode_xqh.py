import struct

import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, "DEV.ADMIN.SVRCONN", conn_info, "admin", "passw0rd")
pcf = pymqi.PCFExecute(qmgr)
pcf.MQCMD_CREATE_Q(
    {
        pymqi.CMQC.MQCA_Q_NAME: b"QM2",
        pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_LOCAL,
        pymqi.CMQC.MQIA_USAGE: pymqi.CMQC.MQUS_TRANSMISSION,
    }
)
pcf.MQCMD_CREATE_Q(
    {
        pymqi.CMQC.MQCA_Q_NAME: b"PAYMENTS.REMOTE",
        pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_REMOTE,
        pymqi.CMQC.MQCA_REMOTE_Q_NAME: b"PAYMENTS",
        pymqi.CMQC.MQCA_REMOTE_Q_MGR_NAME: b"QM2",
        pymqi.CMQC.MQCA_XMIT_Q_NAME: b"QM2",
    }
)
md = pymqi.MD(Expiry=600)
qmgr.put1("PAYMENTS.REMOTE", b"pay 10 EUR", md)

xmitq = pymqi.Queue(qmgr, "QM2", pymqi.CMQC.MQOO_BROWSE)
got_md = pymqi.MD()
body = xmitq.get(None, got_md, pymqi.GMO(Options=pymqi.CMQC.MQGMO_BROWSE_FIRST))
assert got_md.Format == pymqi.CMQC.MQFMT_XMIT_Q_HEADER
struc_id, version, remote_q, remote_qmgr = struct.unpack("=4si48s48s", body[:104])
assert struc_id == pymqi.CMQC.MQXQH_STRUC_ID
assert remote_q.strip() == b"PAYMENTS" and remote_qmgr.strip() == b"QM2"
embedded_expiry = struct.unpack("=i", body[104 + 16 : 104 + 20])[0]
assert embedded_expiry == 600
assert body[pymqi.CMQC.MQXQH_LENGTH_1 :] == b"pay 10 EUR"
xmitq.close()
qmgr.disconnect()
