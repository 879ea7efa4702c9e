import pymqi

qmgr = pymqi.QueueManager("QM1")
assert qmgr.is_connected
qmgr.disconnect()
