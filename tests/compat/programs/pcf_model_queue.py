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
        pymqi.CMQC.MQCA_Q_NAME: b"APP.PERM.MODEL",
        pymqi.CMQC.MQIA_Q_TYPE: pymqi.CMQC.MQQT_MODEL,
        pymqi.CMQC.MQIA_DEFINITION_TYPE: pymqi.CMQC.MQQDT_PERMANENT_DYNAMIC,
        pymqi.CMQC.MQIA_MAX_Q_DEPTH: 10,
    }
)
od = pymqi.OD(ObjectName=b"APP.PERM.MODEL", DynamicQName=b"APP.KEEP.*")
queue = pymqi.Queue(qmgr, od, pymqi.CMQC.MQOO_OUTPUT)
name = od.ObjectName.strip()
queue.put(b"stays after close")
queue.close()
again = pymqi.Queue(qmgr, name)
assert again.get() == b"stays after close"
assert again.inquire(pymqi.CMQC.MQIA_MAX_Q_DEPTH) == 10
again.close(pymqi.CMQC.MQCO_DELETE)
qmgr.disconnect()
