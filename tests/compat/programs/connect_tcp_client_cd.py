import pymqi

queue_manager = "QM1"
channel = "DEV.APP.SVRCONN"
conn_info = "127.0.0.1(1414)"
user = "app"
password = "passw0rd"

cd = pymqi.CD()
cd.ChannelName = channel.encode()
cd.ConnectionName = conn_info.encode()
cd.ChannelType = pymqi.CMQXC.MQCHT_CLNTCONN
cd.TransportType = pymqi.CMQXC.MQXPT_TCP
qmgr = pymqi.QueueManager(None)
qmgr.connect_tcp_client(queue_manager, pymqi.CD(), channel, conn_info, user, password)
assert qmgr.is_connected
qmgr.disconnect()
qmgr = pymqi.QueueManager(None)
qmgr.connect_with_options(queue_manager, cd=cd, user=user, password=password)
qmgr.disconnect()
