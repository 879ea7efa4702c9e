import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

cd = pymqi.CD(ChannelName=channel.encode(), ConnectionName=conn_info.encode())
sco = pymqi.SCO()
qmgr = pymqi.QueueManager(None)
qmgr.connect_with_options(queue_manager, cd, sco, user=user, password=password)
assert qmgr.is_connected
qmgr.disconnect()
