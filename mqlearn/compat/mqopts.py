"""The MQI structures as pymqi and ibmmq shape them: MD, GMO, PMO, OD, SD, CD, ... with IBM's
field names, ``bytes`` character fields, item access, ``set``/``get``, ``pack``/``unpack``.

Both libraries build each structure from a list of ``[name, initial value, struct format]``; so
does this module (the lists are written here from IBM's MQI reference, field by field). What
differs between the two libraries is a few initial values, chiefly the versions (pymqi: MD, GMO,
PMO and OD version 1; ibmmq: MD 2, GMO 4, PMO 3, OD 4, CD 11), and how a ``str`` given for a
character field is treated (pymqi refuses it with TypeError; ibmmq encodes it as ASCII). Those
come from a :class:`Flavour`; :func:`structures` makes the classes of one flavour.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from mqlearn.compat import CMQC, CMQXC

LONG = "i"  # MQLONG on 64-bit platforms

# Fields that are byte strings in every library (never converted to or from text).
BINARY_FIELDS = frozenset(
    {
        "AccountingToken",
        "AlternateSecurityId",
        "ConnectionId",
        "ConnTag",
        "CorrelId",
        "GroupId",
        "MCASecurityId",
        "MsgId",
        "MsgToken",
        "PubAccountingToken",
        "RemoteSecurityId",
        "SubCorrelId",
    }
)


@dataclass(frozen=True)
class Flavour:
    """What one library's structures differ in."""

    name: str  # "pymqi" or "ibmmq"
    versions: dict[str, int]  # structure -> initial Version
    str_fields: bool  # whether a str given for a character field is encoded (ibmmq) or refused
    struc_id: str  # pymqi names the field "StrucId", ibmmq "_StrucId"
    pub_str: bool  # whether Topic.pub encodes a str (ibmmq) or refuses it (pymqi: TypeError)


PYMQI = Flavour(
    "pymqi",
    {
        "MD": CMQC.MQMD_VERSION_1,
        "GMO": CMQC.MQGMO_VERSION_1,
        "PMO": CMQC.MQPMO_VERSION_1,
        "OD": CMQC.MQOD_VERSION_1,
        "CD": CMQXC.MQCD_VERSION_6,
        "SCO": CMQC.MQSCO_VERSION_5,
        "STS": CMQC.MQSTS_VERSION_2,
    },
    str_fields=False,
    struc_id="StrucId",
    pub_str=False,
)
IBMMQ = Flavour(
    "ibmmq",
    {
        "MD": CMQC.MQMD_VERSION_2,
        "GMO": CMQC.MQGMO_VERSION_4,
        "PMO": CMQC.MQPMO_VERSION_3,
        "OD": CMQC.MQOD_VERSION_4,
        "CD": CMQXC.MQCD_VERSION_11,
        "SCO": CMQC.MQSCO_VERSION_5,
        "STS": CMQC.MQSTS_VERSION_2,
    },
    str_fields=True,
    struc_id="_StrucId",
    pub_str=True,
)


def is_text(value: object) -> bool:
    return isinstance(value, str)


class MQOpts:
    """Base of every structure: fields as attributes, as items and as keywords."""

    _FIELDS: tuple[tuple[str, Any, str], ...] = ()
    _FLAVOUR: Flavour = PYMQI

    def __init__(self, **kw: Any) -> None:
        values = self.__dict__
        for name, default, _ in self._FIELDS:
            values[name] = list(default) if isinstance(default, list) else default
        if kw:
            self.set(**kw)

    def __getattr__(self, name: str) -> Any:
        """Only for a name that is not a field (fields are instance attributes)."""
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        """Any assignment passes, as in both libraries; the MQI call checks the value."""
        object.__setattr__(self, name, value)

    def _value(self, value: Any) -> Any:
        if is_text(value):
            if not self._FLAVOUR.str_fields:
                raise TypeError(
                    "Python 3 style string (unicode) found but not allowed here: "
                    f"`{value}`. Convert to bytes."
                )
            return value.encode("ascii")
        return value

    def set(self, **kw: Any) -> None:
        """Set fields by keyword; an unknown name raises AttributeError (as the libraries do)."""
        for key, value in kw.items():
            getattr(self, key)
            object.__setattr__(self, key, self._value(value))

    def __setitem__(self, key: str, value: Any) -> None:
        getattr(self, key)
        object.__setattr__(self, key, self._value(value))

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def get(self) -> dict[str, Any]:
        """Every field and its value, in IBM's order."""
        return {name: getattr(self, name) for name, _, _ in self._FIELDS}

    def _format(self) -> str:
        return "".join(fmt for _, _, fmt in self._FIELDS)

    def get_length(self) -> int:
        return struct.calcsize(self._format())

    def pack(self) -> bytes:
        """The structure as the C library would lay it out (native byte order and alignment)."""
        args: list[Any] = []
        for name, _, _ in self._FIELDS:
            value = getattr(self, name)
            values = value if isinstance(value, list) else [value]
            for item in values:
                if is_text(item):
                    if not self._FLAVOUR.str_fields:
                        raise TypeError(
                            "Python 3 style string (unicode) found but not allowed here: "
                            f"`{item}`. Convert to bytes."
                        )
                    item = item.encode("ascii")
                args.append(item)
        return struct.pack(self._format(), *args)

    def unpack(self, buff: bytes) -> MQOpts:
        """Read the fields from bytes (padded with NULs when short); returns the structure."""
        if is_text(buff):
            raise TypeError("unpack needs bytes")
        buff = bytes(buff).ljust(self.get_length(), b"\0")[: self.get_length()]
        values = list(struct.unpack(self._format(), buff))
        for name, default, fmt in self._FIELDS:
            if isinstance(default, list):
                count = int(fmt[:-1])
                object.__setattr__(self, name, values[:count])
                del values[:count]
            else:
                object.__setattr__(self, name, values.pop(0))
        return self

    def to_string(self, encoding: str = "utf8") -> MQOpts:
        """ibmmq's helper: character fields (not identifiers) become stripped str."""
        for name, _, _ in self._FIELDS:
            value = getattr(self, name)
            if isinstance(value, bytes) and name not in BINARY_FIELDS:
                try:
                    text = value.split(b"\0", 1)[0].decode(encoding).strip()
                except UnicodeError:
                    continue
                object.__setattr__(self, name, text)
        return self

    def set_vs(self, vs_name: str, vs_value: Any = None, *_: Any) -> None:
        """Set a variable-length string (ObjectString, SubName, SelectionString ...)."""
        if is_text(vs_value):
            vs_value = vs_value.encode("utf8")
        object.__setattr__(self, f"_vs_{vs_name}", vs_value)
        if f"{vs_name}VSLength" in self.get():
            object.__setattr__(self, f"{vs_name}VSLength", len(vs_value or b""))

    def get_vs(self, vs_name: str) -> bytes | None:
        value: bytes | None = getattr(self, f"_vs_{vs_name}", None)
        return value

    def __str__(self) -> str:
        return "\n".join(f"{name}: {getattr(self, name)}" for name, _, _ in self._FIELDS)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.get()!r})"


def _vs(prefix: str) -> list[tuple[str, Any, str]]:
    """The five fields of an MQCHARV (variable-length string)."""
    return [
        (f"{prefix}VSPtr", 0, "P"),
        (f"{prefix}VSOffset", 0, LONG),
        (f"{prefix}VSBufSize", 0, LONG),
        (f"{prefix}VSLength", 0, LONG),
        (f"{prefix}VSCCSID", 0, LONG),
    ]


def _layouts(f: Flavour) -> dict[str, list[tuple[str, Any, str]]]:
    sid = f.struc_id
    v = f.versions
    return {
        "MD": [
            (sid, CMQC.MQMD_STRUC_ID, "4s"),
            ("Version", v["MD"], LONG),
            ("Report", CMQC.MQRO_NONE, LONG),
            ("MsgType", CMQC.MQMT_DATAGRAM, LONG),
            ("Expiry", CMQC.MQEI_UNLIMITED, LONG),
            ("Feedback", CMQC.MQFB_NONE, LONG),
            ("Encoding", CMQC.MQENC_NATIVE, LONG),
            ("CodedCharSetId", CMQC.MQCCSI_Q_MGR, LONG),
            ("Format", b"", "8s"),
            ("Priority", CMQC.MQPRI_PRIORITY_AS_Q_DEF, LONG),
            ("Persistence", CMQC.MQPER_PERSISTENCE_AS_Q_DEF, LONG),
            ("MsgId", b"", "24s"),
            ("CorrelId", b"", "24s"),
            ("BackoutCount", 0, LONG),
            ("ReplyToQ", b"", "48s"),
            ("ReplyToQMgr", b"", "48s"),
            ("UserIdentifier", b"", "12s"),
            ("AccountingToken", b"", "32s"),
            ("ApplIdentityData", b"", "32s"),
            ("PutApplType", CMQC.MQAT_NO_CONTEXT, LONG),
            ("PutApplName", b"", "28s"),
            ("PutDate", b"", "8s"),
            ("PutTime", b"", "8s"),
            ("ApplOriginData", b"", "4s"),
            ("GroupId", b"", "24s"),
            ("MsgSeqNumber", 1, LONG),
            ("Offset", 0, LONG),
            ("MsgFlags", CMQC.MQMF_NONE, LONG),
            ("OriginalLength", CMQC.MQOL_UNDEFINED, LONG),
        ],
        "GMO": [
            (sid, CMQC.MQGMO_STRUC_ID, "4s"),
            ("Version", v["GMO"], LONG),
            ("Options", CMQC.MQGMO_NO_WAIT, LONG),
            ("WaitInterval", 0, LONG),
            ("Signal1", 0, LONG),
            ("Signal2", 0, LONG),
            ("ResolvedQName", b"", "48s"),
            ("MatchOptions", CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID, LONG),
            ("GroupStatus", CMQC.MQGS_NOT_IN_GROUP, "b"),
            ("SegmentStatus", CMQC.MQSS_NOT_A_SEGMENT, "b"),
            ("Segmentation", CMQC.MQSEG_INHIBITED, "b"),
            ("Reserved1", b" ", "c"),
            ("MsgToken", b"", "16s"),
            ("ReturnedLength", CMQC.MQRL_UNDEFINED, LONG),
            ("Reserved2", 0, LONG),
            ("MsgHandle", 0, "q"),
        ],
        "PMO": [
            (sid, CMQC.MQPMO_STRUC_ID, "4s"),
            ("Version", v["PMO"], LONG),
            ("Options", CMQC.MQPMO_NONE, LONG),
            ("Timeout", -1, LONG),
            ("Context", 0, LONG),
            ("KnownDestCount", 0, LONG),
            ("UnknownDestCount", 0, LONG),
            ("InvalidDestCount", 0, LONG),
            ("ResolvedQName", b"", "48s"),
            ("ResolvedQMgrName", b"", "48s"),
            ("RecsPresent", 0, LONG),
            ("PutMsgRecFields", 0, LONG),
            ("PutMsgRecOffset", 0, LONG),
            ("ResponseRecOffset", 0, LONG),
            ("PutMsgRecPtr", 0, "P"),
            ("ResponseRecPtr", 0, "P"),
            ("OriginalMsgHandle", 0, "q"),
            ("NewMsgHandle", 0, "q"),
            ("Action", 0, LONG),
            ("PubLevel", 9, LONG),
        ],
        "OD": [
            (sid, CMQC.MQOD_STRUC_ID, "4s"),
            ("Version", v["OD"], LONG),
            ("ObjectType", CMQC.MQOT_Q, LONG),
            ("ObjectName", b"", "48s"),
            ("ObjectQMgrName", b"", "48s"),
            ("DynamicQName", b"AMQ.*", "48s"),
            ("AlternateUserId", b"", "12s"),
            ("RecsPresent", 0, LONG),
            ("KnownDestCount", 0, LONG),
            ("UnknownDestCount", 0, LONG),
            ("InvalidDestCount", 0, LONG),
            ("ObjectRecOffset", 0, LONG),
            ("ResponseRecOffset", 0, LONG),
            ("ObjectRecPtr", 0, "P"),
            ("ResponseRecPtr", 0, "P"),
            ("AlternateSecurityId", b"", "40s"),
            ("ResolvedQName", b"", "48s"),
            ("ResolvedQMgrName", b"", "48s"),
            *_vs("ObjectString"),
            *_vs("SelectionString"),
            *_vs("ResObjectString"),
            ("ResolvedType", -3, LONG),
        ],
        "SD": [
            (sid, CMQC.MQSD_STRUC_ID, "4s"),
            ("Version", CMQC.MQSD_VERSION_1, LONG),
            ("Options", CMQC.MQSO_NON_DURABLE, LONG),
            ("ObjectName", b"", "48s"),
            ("AlternateUserId", b"", "12s"),
            ("AlternateSecurityId", CMQC.MQSID_NONE, "40s"),
            ("SubExpiry", CMQC.MQEI_UNLIMITED, LONG),
            *_vs("ObjectString"),
            *_vs("SubName"),
            *_vs("SubUserData"),
            ("SubCorrelId", CMQC.MQCI_NONE, "24s"),
            ("PubPriority", CMQC.MQPRI_PRIORITY_AS_Q_DEF, LONG),
            ("PubAccountingToken", CMQC.MQACT_NONE, "32s"),
            ("PubApplIdentityData", b"", "32s"),
            *_vs("SelectionString"),
            ("SubLevel", 1, LONG),
            *_vs("ResObjectString"),
        ],
        "SRO": [
            (sid, CMQC.MQSRO_STRUC_ID, "4s"),
            ("Version", CMQC.MQSRO_VERSION_1, LONG),
            ("Options", CMQC.MQSRO_FAIL_IF_QUIESCING, LONG),
            ("NumPubs", 0, LONG),
        ],
        "STS": [
            (sid, CMQC.MQSTS_STRUC_ID, "4s"),
            ("Version", v["STS"], LONG),
            ("CompCode", CMQC.MQCC_OK, LONG),
            ("Reason", CMQC.MQRC_NONE, LONG),
            ("PutSuccessCount", 0, LONG),
            ("PutWarningCount", 0, LONG),
            ("PutFailureCount", 0, LONG),
            ("ObjectType", CMQC.MQOT_Q, LONG),
            ("ObjectName", b"", "48s"),
            ("ObjectQMgrName", b"", "48s"),
            ("ResolvedObjectName", b"", "48s"),
            ("ResolvedQMgrName", b"", "48s"),
            *_vs("ObjectString"),
            *_vs("SubName"),
            ("OpenOptions", 0, LONG),
            ("SubOptions", 0, LONG),
        ],
        "CD": [
            ("ChannelName", b"", "20s"),
            ("Version", v["CD"], LONG),
            ("ChannelType", CMQXC.MQCHT_CLNTCONN, LONG),
            ("TransportType", CMQXC.MQXPT_TCP, LONG),
            ("Desc", b"", "64s"),
            ("QMgrName", b"", "48s"),
            ("XmitQName", b"", "48s"),
            ("ShortConnectionName", b"", "20s"),
            ("MCAName", b"", "20s"),
            ("ModeName", b"", "8s"),
            ("TpName", b"", "64s"),
            ("BatchSize", 50, LONG),
            ("DiscInterval", 6000, LONG),
            ("MaxMsgLength", 4194304, LONG),
            ("UserIdentifier", b"", "12s"),
            ("Password", b"", "12s"),
            ("ConnectionName", b"", "264s"),
            ("HeartbeatInterval", 300, LONG),
            ("SSLCipherSpec", b"", "32s"),
            ("SSLPeerNamePtr", 0, "P"),
            ("SSLClientAuth", 0, LONG),
            ("KeepAliveInterval", -1, LONG),
            ("HdrCompList", [0, -1], "2" + LONG),
            ("MsgCompList", [0] + 15 * [-1], "16" + LONG),
            ("SharingConversations", 10, LONG),
            ("CertificateLabel", b"", "64s"),
        ],
        "SCO": [
            (sid, CMQC.MQSCO_STRUC_ID, "4s"),
            ("Version", v["SCO"], LONG),
            ("KeyRepository", b"", "256s"),
            ("CryptoHardware", b"", "256s"),
            ("AuthInfoRecCount", 0, LONG),
            ("AuthInfoRecOffset", 0, LONG),
            ("AuthInfoRecPtr", 0, "P"),
            ("KeyResetCount", 0, LONG),
            ("FipsRequired", 0, LONG),
            ("EncryptionPolicySuiteB", [1, 0, 0, 0], "4" + LONG),
            ("CertificateValPolicy", 0, LONG),
            ("CertificateLabel", b"", "64s"),
        ],
        "CNO": [
            (sid, CMQC.MQCNO_STRUC_ID, "4s"),
            ("Version", CMQC.MQCNO_VERSION_5, LONG),
            ("Options", CMQC.MQCNO_NONE, LONG),
            ("ConnTag", b"", "128s"),
            ("ConnectionId", b"", "24s"),
            ("ApplName", b"", "28s"),
        ],
        "CSP": [
            (sid, CMQC.MQCSP_STRUC_ID, "4s"),
            ("Version", CMQC.MQCSP_VERSION_1, LONG),
            ("AuthenticationType", CMQC.MQCSP_AUTH_NONE, LONG),
            ("CSPUserId", None, "P"),
            ("CSPPassword", None, "P"),
        ],
        "CMHO": [
            (sid, CMQC.MQCMHO_STRUC_ID, "4s"),
            ("Version", CMQC.MQCMHO_VERSION_1, LONG),
            ("Options", CMQC.MQCMHO_DEFAULT_VALIDATION, LONG),
        ],
        "DMHO": [
            (sid, CMQC.MQDMHO_STRUC_ID, "4s"),
            ("Version", CMQC.MQDMHO_VERSION_1, LONG),
            ("Options", CMQC.MQDMHO_NONE, LONG),
        ],
        "PD": [
            (sid, CMQC.MQPD_STRUC_ID, "4s"),
            ("Version", CMQC.MQPD_VERSION_1, LONG),
            ("Options", CMQC.MQPD_NONE, LONG),
            ("Support", CMQC.MQPD_SUPPORT_OPTIONAL, LONG),
            ("Context", CMQC.MQPD_NO_CONTEXT, LONG),
            ("CopyOptions", CMQC.MQCOPY_DEFAULT, LONG),
        ],
        "SMPO": [
            (sid, CMQC.MQSMPO_STRUC_ID, "4s"),
            ("Version", CMQC.MQSMPO_VERSION_1, LONG),
            ("Options", CMQC.MQSMPO_SET_FIRST, LONG),
            ("ValueEncoding", CMQC.MQENC_NATIVE, LONG),
            ("ValueCCSID", CMQC.MQCCSI_APPL, LONG),
        ],
        "DMPO": [
            (sid, CMQC.MQDMPO_STRUC_ID, "4s"),
            ("Version", CMQC.MQDMPO_VERSION_1, LONG),
            ("Options", CMQC.MQDMPO_DEL_FIRST, LONG),
        ],
        "IMPO": [
            (sid, CMQC.MQIMPO_STRUC_ID, "4s"),
            ("Version", CMQC.MQIMPO_VERSION_1, LONG),
            ("Options", CMQC.MQIMPO_INQ_FIRST, LONG),
            ("RequestedEncoding", CMQC.MQENC_NATIVE, LONG),
            ("RequestedCCSID", CMQC.MQCCSI_APPL, LONG),
            ("ReturnedEncoding", CMQC.MQENC_NATIVE, LONG),
            ("ReturnedCCSID", 0, LONG),
            ("Reserved1", 0, LONG),
            *_vs("ReturnedName"),
            ("TypeString", b"", "8s"),
        ],
        "XQH": [
            (sid, CMQC.MQXQH_STRUC_ID, "4s"),
            ("Version", CMQC.MQXQH_VERSION_1, LONG),
            ("RemoteQName", b"", "48s"),
            ("RemoteQMgrName", b"", "48s"),
        ],
        "DLH": [
            (sid, CMQC.MQDLH_STRUC_ID, "4s"),
            ("Version", CMQC.MQDLH_VERSION_1, LONG),
            ("Reason", CMQC.MQRC_NONE, LONG),
            ("DestQName", b"", "48s"),
            ("DestQMgrName", b"", "48s"),
            ("Encoding", 0, LONG),
            ("CodedCharSetId", CMQC.MQCCSI_UNDEFINED, LONG),
            ("Format", CMQC.MQFMT_NONE, "8s"),
            ("PutApplType", 0, LONG),
            ("PutApplName", b"", "28s"),
            ("PutDate", b"", "8s"),
            ("PutTime", b"", "8s"),
        ],
    }


def structures(flavour: Flavour) -> dict[str, type[MQOpts]]:
    """The structure classes of one flavour, by IBM's short name (MD, GMO, ...)."""
    made: dict[str, type[MQOpts]] = {}
    for name, fields in _layouts(flavour).items():
        made[name] = type(
            name,
            (MQOpts,),
            {
                "_FIELDS": tuple(fields),
                "_FLAVOUR": flavour,
                "__doc__": f"MQ{name} as {flavour.name} shapes it.",
                "__module__": f"mqlearn.{flavour.name}",
            },
        )
    return made
