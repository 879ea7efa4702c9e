import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
assert qmgr.inquire(pymqi.CMQC.MQCA_Q_MGR_NAME).strip() == b"QM1"
assert qmgr.inquire(pymqi.CMQC.MQIA_MAX_PRIORITY) == 9
assert qmgr.inquire(pymqi.CMQC.MQIA_TRIGGER_INTERVAL) == 999999999  # TRIGINT's default
assert qmgr.inquire(pymqi.CMQC.MQCA_DEAD_LETTER_Q_NAME).strip() == b"DEV.DEAD.LETTER.QUEUE"
qmgr.disconnect()
