"""MQI structures as pymqi/ibmmq shape them: MD, GMO and PMO with IBM's field names and initial values.

Each structure is a plain object whose fields are class attributes (the initial values from IBM's
documentation, the "Initial values" section of "MQMD (Message descriptor) on IBM i") until the
program or the queue manager sets them on the instance. Setting a name that is not a field raises
AttributeError, so a typo such as ``md.expiry = 50`` never passes silently.

Field kinds in the layouts: ``"l"`` an MQLONG (4-byte signed integer), ``"c"`` a character field
(``str``, blank-padded to its length when packed), ``"b"`` a byte string (``bytes`` of exact length,
NUL-padded). The layouts drive the byte-exact packing in :mod:`mqlearn.mqi.binary`.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, Self

from mqlearn.mqi import cmqc as C


class Field(NamedTuple):
    """One field of an MQ structure: its IBM name, kind (l/c/b), length in bytes and version."""

    name: str
    kind: str
    length: int
    version: int = 1


class MQStruct:
    """Base of the MQI structures: IBM field names, class-level initial values, typo protection."""

    _LAYOUT: ClassVar[tuple[Field, ...]] = ()
    _NAMES: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._NAMES = frozenset(f.name for f in cls._LAYOUT)

    def __init__(self, **fields: Any) -> None:
        if fields:
            if not fields.keys() <= self._NAMES:
                unknown = sorted(fields.keys() - self._NAMES)[0]
                raise TypeError(self._unknown_message(unknown))
            self.__dict__.update(fields)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._NAMES:
            raise AttributeError(self._unknown_message(name))
        self.__dict__[name] = value

    @classmethod
    def _unknown_message(cls, name: str) -> str:
        close = [n for n in cls._NAMES if n.lower() == name.lower()]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{cls.__name__} has no field {name!r}{hint}"

    def get(self) -> dict[str, Any]:
        """All fields and their current values, in IBM's layout order (like pymqi's ``get()``)."""
        return {f.name: getattr(self, f.name) for f in self._LAYOUT}

    def set(self, **fields: Any) -> None:
        """Set several fields at once (like pymqi's ``set()``)."""
        for name, value in fields.items():
            setattr(self, name, value)

    def copy(self) -> Self:
        """A shallow copy (field values are immutable: ints, str, bytes)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.get() == other.get()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({changed})"


class MD(MQStruct):
    """MQMD, the message descriptor (324 bytes as version 1, 364 as version 2; rule MD-01).

    ``MsgId``, ``CorrelId``, ``GroupId`` and ``AccountingToken`` are bytes; the other character fields
    are str. ``Format`` keeps its 8 characters (compare it with ``CMQC.MQFMT_*``); names such as
    ``ReplyToQ`` are given and returned without trailing blanks.
    """

    _LAYOUT = (
        Field("StrucId", "c", 4),
        Field("Version", "l", 4),
        Field("Report", "l", 4),
        Field("MsgType", "l", 4),
        Field("Expiry", "l", 4),
        Field("Feedback", "l", 4),
        Field("Encoding", "l", 4),
        Field("CodedCharSetId", "l", 4),
        Field("Format", "c", 8),
        Field("Priority", "l", 4),
        Field("Persistence", "l", 4),
        Field("MsgId", "b", 24),
        Field("CorrelId", "b", 24),
        Field("BackoutCount", "l", 4),
        Field("ReplyToQ", "c", 48),
        Field("ReplyToQMgr", "c", 48),
        Field("UserIdentifier", "c", 12),
        Field("AccountingToken", "b", 32),
        Field("ApplIdentityData", "c", 32),
        Field("PutApplType", "l", 4),
        Field("PutApplName", "c", 28),
        Field("PutDate", "c", 8),
        Field("PutTime", "c", 8),
        Field("ApplOriginData", "c", 4),
        Field("GroupId", "b", 24, 2),
        Field("MsgSeqNumber", "l", 4, 2),
        Field("Offset", "l", 4, 2),
        Field("MsgFlags", "l", 4, 2),
        Field("OriginalLength", "l", 4, 2),
    )
    StrucId: str = C.MQMD_STRUC_ID
    Version: int = C.MQMD_VERSION_1
    Report: int = C.MQRO_NONE
    MsgType: int = C.MQMT_DATAGRAM
    Expiry: int = C.MQEI_UNLIMITED
    Feedback: int = C.MQFB_NONE
    Encoding: int = C.MQENC_NATIVE
    CodedCharSetId: int = C.MQCCSI_Q_MGR
    Format: str = C.MQFMT_NONE
    Priority: int = C.MQPRI_PRIORITY_AS_Q_DEF
    Persistence: int = C.MQPER_PERSISTENCE_AS_Q_DEF
    MsgId: bytes = C.MQMI_NONE
    CorrelId: bytes = C.MQCI_NONE
    BackoutCount: int = 0
    ReplyToQ: str = ""
    ReplyToQMgr: str = ""
    UserIdentifier: str = ""
    AccountingToken: bytes = C.MQACT_NONE
    ApplIdentityData: str = ""
    PutApplType: int = C.MQAT_NO_CONTEXT
    PutApplName: str = ""
    PutDate: str = ""
    PutTime: str = ""
    ApplOriginData: str = ""
    GroupId: bytes = C.MQGI_NONE
    MsgSeqNumber: int = 1
    Offset: int = 0
    MsgFlags: int = C.MQMF_NONE
    OriginalLength: int = C.MQOL_UNDEFINED

    def pack(self, encoding: int | None = None) -> bytes:
        """The descriptor as IBM lays it out: 324 bytes (Version 1) or 364 (Version 2).

        Integers use ``encoding``: by default the queue manager's native one (546, little-endian),
        since an MQMD is always in native encoding while its ``Encoding`` field describes the
        message data; 273 gives big-endian.
        """
        from mqlearn.mqi.binary import pack_struct

        return pack_struct(self, C.MQENC_NATIVE if encoding is None else encoding)

    @classmethod
    def unpack(cls, raw: bytes, encoding: int | None = None) -> MD:
        """Read a descriptor from bytes; the version is taken from the bytes themselves."""
        from mqlearn.mqi.binary import unpack_md

        return unpack_md(raw, encoding)


class GMO(MQStruct):
    """MQGMO, get-message options. Initial MatchOptions match on MsgId and CorrelId (IBM's default)."""

    _LAYOUT = (
        Field("StrucId", "c", 4),
        Field("Version", "l", 4),
        Field("Options", "l", 4),
        Field("WaitInterval", "l", 4),
        Field("Signal1", "l", 4),
        Field("Signal2", "l", 4),
        Field("ResolvedQName", "c", 48),
        Field("MatchOptions", "l", 4, 2),
        Field("GroupStatus", "c", 1, 2),
        Field("SegmentStatus", "c", 1, 2),
        Field("Segmentation", "c", 1, 2),
        Field("Reserved1", "c", 1, 2),
        Field("MsgToken", "b", 16, 3),
        Field("ReturnedLength", "l", 4, 3),
        Field("Reserved2", "l", 4, 4),
        Field("MsgHandle", "q", 8, 4),
    )
    StrucId: str = C.MQGMO_STRUC_ID
    Version: int = C.MQGMO_VERSION_1
    Options: int = C.MQGMO_NO_WAIT
    WaitInterval: int = 0
    Signal1: int = 0
    Signal2: int = 0
    ResolvedQName: str = ""
    MatchOptions: int = C.MQMO_MATCH_MSG_ID | C.MQMO_MATCH_CORREL_ID
    GroupStatus: str = chr(C.MQGS_NOT_IN_GROUP)  # IBM defines these MQCHAR codes as ints
    SegmentStatus: str = chr(C.MQSS_NOT_A_SEGMENT)
    Segmentation: str = chr(C.MQSEG_INHIBITED)
    Reserved1: str = " "
    MsgToken: bytes = C.MQMTOK_NONE
    ReturnedLength: int = C.MQRL_UNDEFINED
    Reserved2: int = 0
    MsgHandle: int = 0  # MQHM_NONE: the message handle a get fills with the message's properties


class PMO(MQStruct):
    """MQPMO, put-message options."""

    _LAYOUT = (
        Field("StrucId", "c", 4),
        Field("Version", "l", 4),
        Field("Options", "l", 4),
        Field("Timeout", "l", 4),
        Field("Context", "l", 4),
        Field("KnownDestCount", "l", 4),
        Field("UnknownDestCount", "l", 4),
        Field("InvalidDestCount", "l", 4),
        Field("ResolvedQName", "c", 48),
        Field("ResolvedQMgrName", "c", 48),
        Field("RecsPresent", "l", 4, 2),
        Field("PutMsgRecFields", "l", 4, 2),
        Field("PutMsgRecOffset", "l", 4, 2),
        Field("ResponseRecOffset", "l", 4, 2),
        Field("PutMsgRecPtr", "q", 8, 2),  # pointers (64-bit), kept as integers
        Field("ResponseRecPtr", "q", 8, 2),
        Field("OriginalMsgHandle", "q", 8, 3),
        Field("NewMsgHandle", "q", 8, 3),
        Field("Action", "l", 4, 3),
        Field("PubLevel", "l", 4, 3),
    )
    StrucId: str = C.MQPMO_STRUC_ID
    Version: int = C.MQPMO_VERSION_1
    Options: int = C.MQPMO_NONE
    Timeout: int = -1
    Context: int = 0
    KnownDestCount: int = 0
    UnknownDestCount: int = 0
    InvalidDestCount: int = 0
    ResolvedQName: str = ""
    ResolvedQMgrName: str = ""
    RecsPresent: int = 0
    PutMsgRecFields: int = 0
    PutMsgRecOffset: int = 0
    ResponseRecOffset: int = 0
    PutMsgRecPtr: int = 0
    ResponseRecPtr: int = 0
    OriginalMsgHandle: int = 0  # MQHM_NONE; a message handle whose properties the put carries
    NewMsgHandle: int = 0  # MQHM_NONE
    Action: int = 0  # MQACTP_NEW
    PubLevel: int = 9
