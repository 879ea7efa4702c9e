"""The MQ vocabulary: IBM's constants, short names, structures and errors (no behaviour)."""

from mqlearn.mqi import cmqc as CMQC
from mqlearn.mqi.errors import MQMIError, MQWarning, comp_name, reason_name
from mqlearn.mqi.headers import MQDLH, MQMDE, MQTM, MQXQH
from mqlearn.mqi.shortnames import from_short_name, to_short_name
from mqlearn.mqi.structs import GMO, MD, PMO, MQStruct

__all__ = [
    "CMQC",
    "GMO",
    "MD",
    "MQDLH",
    "MQMDE",
    "MQTM",
    "MQXQH",
    "PMO",
    "MQMIError",
    "MQStruct",
    "MQWarning",
    "comp_name",
    "from_short_name",
    "reason_name",
    "to_short_name",
]
