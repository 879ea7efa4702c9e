"""Message properties: message handles, what a message keeps, what a get gives.

``MessageHandle(qm)`` is MQCRTMH; its ``set``, ``inq`` and ``dlt`` are MQSETMP, MQINQMP and
MQDLTMP, and ``delete`` is MQDLTMH. Its integer ``msg_handle`` goes where the MQI puts an MQHMSG:
``PMO.OriginalMsgHandle`` / ``PMO.NewMsgHandle`` on a put (version-3 PMO), ``GMO.MsgHandle`` on a
get (version-4 GMO).

A put stores the handle's properties with the message (:func:`for_put`), in its record's
``extra`` under :data:`PROPERTIES`, as one atomic ``bytes`` value (:func:`pack`), so the record
stays untracked by the garbage collector (:mod:`mqlearn.engine.message`). What the queue manager
makes from a message carries them as IBM says (:func:`copied`): a channel's arrival and a dead
letter keep them all; a report and a subscriber's copy keep those whose copy options include
MQCOPY_REPORT / MQCOPY_PUBLISH (the default, MQCOPY_DEFAULT, has both). A get (:func:`for_get`)
returns them in the GMO's message handle, or in an MQRFH2 in front of the data, or not at all, as
the GMO's property option and the queue's PROPCTL say. Readings of IBM's text: docs/engine.md,
"Message properties".
"""

from __future__ import annotations

import itertools
import marshal
import math
import struct
import weakref
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final, NamedTuple
from xml.sax.saxutils import escape

from mqlearn.engine.message import EXTRA, MessageView, Record, field
from mqlearn.engine.message import PROPERTIES as PROPERTIES
from mqlearn.engine.mqi_checks import PROPERTY_GET_OPTIONS, fail
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError

if TYPE_CHECKING:
    from mqlearn.engine.objects import QLocal
    from mqlearn.mqi.structs import GMO, PMO

PROPCTL_VALUES: Final = ("COMPAT", "ALL", "FORCE", "NONE", "V6COMPAT")

TYPE_NAMES: Final = {
    C.MQTYPE_NULL: "MQTYPE_NULL",
    C.MQTYPE_BOOLEAN: "MQTYPE_BOOLEAN",
    C.MQTYPE_BYTE_STRING: "MQTYPE_BYTE_STRING",
    C.MQTYPE_INT8: "MQTYPE_INT8",
    C.MQTYPE_INT16: "MQTYPE_INT16",
    C.MQTYPE_INT32: "MQTYPE_INT32",
    C.MQTYPE_INT64: "MQTYPE_INT64",
    C.MQTYPE_FLOAT32: "MQTYPE_FLOAT32",
    C.MQTYPE_FLOAT64: "MQTYPE_FLOAT64",
    C.MQTYPE_STRING: "MQTYPE_STRING",
}
_INT_BITS: Final = {C.MQTYPE_INT8: 8, C.MQTYPE_INT16: 16, C.MQTYPE_INT32: 32, C.MQTYPE_INT64: 64}
_FLOAT32 = struct.Struct("<f")
MAX_NAME_LENGTH: Final = 4095  # MQ_MAX_PROPERTY_NAME_LENGTH
_KEYWORDS = frozenset(
    {"NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE"}
)
RESERVED_FOLDERS: Final = ("mcd", "jms", "usr", "mqext")  # PROPCTL COMPAT looks for these


class Property(NamedTuple):
    """One message property: its name, MQTYPE_* type, value and MQCOPY_* copy options."""

    name: str
    type: int
    value: Any
    copy_options: int = C.MQCOPY_DEFAULT

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.type]

    def shown(self) -> str:
        """``name = value (MQTYPE_...)`` as the views print it."""
        value = self.value
        text = value.hex() if isinstance(value, bytes) else repr(value)
        return f"{self.name} = {text} ({self.type_name})"


# -- names and values --------------------------------------------------------------------------
def check_name(name: object) -> str:
    """A property name as MQSETMP accepts it, else MQRC_PROPERTY_NAME_ERROR (2442) saying why
    (IBM, "Property names", "Property name restrictions", reason 2442's explanation)."""
    if isinstance(name, bytes):
        name = name.decode("utf-8")
    if not isinstance(name, str):
        raise TypeError(f"a property name is a str, got {type(name).__name__}")
    if not name:
        raise fail(C.MQRC_PROPERTY_NAME_ERROR, "a property name cannot be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise fail(C.MQRC_PROPERTY_NAME_LENGTH_ERR, f"{len(name)} characters; at most 4095")
    why = _name_problem(name)
    if why:
        raise fail(C.MQRC_PROPERTY_NAME_ERROR, f"property name {name!r}: {why}")
    return name


def _name_problem(name: str) -> str:
    if name.startswith(("JMS", "usr.JMS")):
        return "names beginning JMS are the JMS synonyms, which mqlearn does not model"
    if name.upper().removeprefix("USR.") in _KEYWORDS:
        return "a selector keyword (NULL, TRUE, AND ...) is not a property name"
    if name.startswith("Root.MQMD."):
        return "the message-descriptor properties (Root.MQMD.*) are not modelled: set the MD field"
    if name.startswith(("Body", "Root")):
        return "names beginning Body or Root are reserved"
    if name.startswith(".") or name.endswith(".") or ".." in name:
        return "a '.' cannot start or end a name or follow another '.'"
    if name[:2].lower() == "mq" and not name.startswith("mq_usr") and name.count(".") > 1:
        return "a name beginning 'mq' holds at most one '.'"
    for part in name.split("."):
        if not (part[0].isalpha() or part[0] in "_$") or not all(
            ch.isalnum() or ch in "_$" for ch in part
        ):
            return f"{part!r} is not a Java identifier"
    return ""


def check_value(value: object, type_: int | None = None) -> tuple[int, Any]:
    """(type, value) as stored: ``type_`` None infers it from the Python value (bool BOOLEAN,
    int INT64, float FLOAT64, str STRING, bytes BYTE_STRING, None NULL). A value the type
    cannot hold raises MQRC_PROPERTY_TYPE_ERROR (2473) or MQRC_PROPERTY_VALUE_TOO_BIG (2469)."""
    if type_ is None:
        type_ = _inferred(value)
    if type_ not in TYPE_NAMES:
        raise fail(C.MQRC_PROPERTY_TYPE_ERROR, f"{type_!r} is not an MQTYPE_* property type")
    if type_ == C.MQTYPE_NULL:
        if value is not None:
            raise fail(C.MQRC_PROPERTY_TYPE_ERROR, "MQTYPE_NULL holds None only")
        return type_, None
    if type_ == C.MQTYPE_BOOLEAN:
        if value not in (True, False) or not isinstance(value, bool | int):
            raise fail(C.MQRC_PROPERTY_TYPE_ERROR, f"MQTYPE_BOOLEAN holds True/False: {value!r}")
        return type_, bool(value)
    if type_ == C.MQTYPE_STRING:
        if not isinstance(value, str):
            raise fail(C.MQRC_PROPERTY_TYPE_ERROR, f"MQTYPE_STRING holds a str: {value!r}")
        return type_, value
    if type_ == C.MQTYPE_BYTE_STRING:
        if not isinstance(value, bytes | bytearray):
            raise fail(C.MQRC_PROPERTY_TYPE_ERROR, f"MQTYPE_BYTE_STRING holds bytes: {value!r}")
        return type_, bytes(value)
    if type_ in _INT_BITS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(C.MQRC_PROPERTY_TYPE_ERROR, f"{TYPE_NAMES[type_]} holds an int: {value!r}")
        bits = _INT_BITS[type_]
        if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            raise fail(C.MQRC_PROPERTY_VALUE_TOO_BIG, f"{value} does not fit {TYPE_NAMES[type_]}")
        return type_, value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(C.MQRC_PROPERTY_TYPE_ERROR, f"{TYPE_NAMES[type_]} holds a float: {value!r}")
    if type_ == C.MQTYPE_FLOAT32:
        try:
            return type_, _FLOAT32.unpack(_FLOAT32.pack(value))[0]  # the nearest 4-byte float
        except OverflowError:
            raise fail(
                C.MQRC_PROPERTY_VALUE_TOO_BIG, f"{value} does not fit MQTYPE_FLOAT32"
            ) from None
    return type_, float(value)


def _inferred(value: object) -> int:
    if value is None:
        return C.MQTYPE_NULL
    if isinstance(value, bool):
        return C.MQTYPE_BOOLEAN
    if isinstance(value, int):
        return C.MQTYPE_INT64
    if isinstance(value, float):
        return C.MQTYPE_FLOAT64
    if isinstance(value, str):
        return C.MQTYPE_STRING
    if isinstance(value, bytes | bytearray):
        return C.MQTYPE_BYTE_STRING
    raise TypeError(f"no MQ property type holds a {type(value).__name__}; give type=MQTYPE_*")


def converted(prop: Property, type_: int) -> Any:
    """MQINQMP's value in the type asked for (MQTYPE_AS_SET: as set). mqlearn converts between
    the integer types (2469 when it does not fit), from numbers and booleans to a string, and
    from a string to a number (2472 when it is not one); any other pair is 2470."""
    if type_ in (C.MQTYPE_AS_SET, prop.type):
        return prop.value
    value = prop.value
    if type_ == C.MQTYPE_STRING and prop.type not in (C.MQTYPE_BYTE_STRING, C.MQTYPE_NULL):
        return ("TRUE" if value else "FALSE") if prop.type == C.MQTYPE_BOOLEAN else str(value)
    if type_ in _INT_BITS and prop.type in _INT_BITS:
        return check_value(value, type_)[1]
    if prop.type == C.MQTYPE_STRING and type_ in (*_INT_BITS, C.MQTYPE_FLOAT32, C.MQTYPE_FLOAT64):
        try:
            number = int(value) if type_ in _INT_BITS else float(value)
        except ValueError:
            raise fail(C.MQRC_PROP_NUMBER_FORMAT_ERROR, f"{value!r} is not a number") from None
        return check_value(number, type_)[1]
    raise fail(
        C.MQRC_PROP_CONV_NOT_SUPPORTED,
        f"{prop.name} is {prop.type_name}; mqlearn does not convert it to {TYPE_NAMES.get(type_)}",
    )


# -- message handles -----------------------------------------------------------------------------
_HANDLES: weakref.WeakValueDictionary[int, MessageHandle] = weakref.WeakValueDictionary()
_NEXT = itertools.count(1)


class MessageHandle:
    """MQCRTMH: a message handle, for the properties a put sends or a get receives.

    ``qm``: the connection it belongs to (None: unassociated, usable with any). The handle is
    valid while the object lives and until :meth:`delete`; its ``msg_handle`` is the MQHMSG
    a PMO or GMO names. Properties keep the order they were first set in.
    """

    def __init__(self, qm: object = None) -> None:
        self.qm = qm
        self.msg_handle = next(_NEXT)
        self._props: dict[str, Property] = {}
        self._cursor: tuple[str, int] | None = None  # MQIMPO_INQ_NEXT: (pattern, last index)
        self.deleted = False
        _HANDLES[self.msg_handle] = self

    def __repr__(self) -> str:
        return f"<MessageHandle {self.msg_handle}: {len(self._props)} properties>"

    def _usable(self) -> None:
        if self.deleted:
            raise fail(C.MQRC_HMSG_ERROR, f"message handle {self.msg_handle} was deleted")

    def set(
        self,
        name: str,
        value: Any,
        prop_type: int | None = None,
        copy_options: int = C.MQCOPY_DEFAULT,
    ) -> None:
        """MQSETMP: set (or replace) a property; ``prop_type`` None infers it from the value."""
        self._usable()
        name = check_name(name)
        type_, value = check_value(value, prop_type)
        if isinstance(copy_options, bool) or not isinstance(copy_options, int) or copy_options < 0:
            raise fail(C.MQRC_PD_ERROR, f"CopyOptions {copy_options!r}")
        self._props[name] = Property(name, type_, value, copy_options)

    def inq(
        self, name: str, prop_type: int = C.MQTYPE_AS_SET, options: int = C.MQIMPO_INQ_FIRST
    ) -> Property:
        """MQINQMP: the property ``name`` (a trailing ``%`` matches any name it begins), its
        value in ``type``; MQIMPO_INQ_NEXT returns the next match after the last one returned.
        MQRC_PROPERTY_NOT_AVAILABLE (2471) when there is none."""
        self._usable()
        if isinstance(name, bytes):
            name = name.decode("utf-8")
        found = list(self._props.values())
        start = 0
        if options & C.MQIMPO_INQ_NEXT and self._cursor is not None and self._cursor[0] == name:
            start = self._cursor[1] + 1
        for index in range(start, len(found)):
            prop = found[index]
            if prop.name == name or (name.endswith("%") and prop.name.startswith(name[:-1])):
                self._cursor = (name, index)
                return prop._replace(value=converted(prop, prop_type))
        raise fail(C.MQRC_PROPERTY_NOT_AVAILABLE, f"no property {name!r} on this handle")

    def value(self, name: str, prop_type: int = C.MQTYPE_AS_SET) -> Any:
        """The value of property ``name`` (MQINQMP)."""
        return self.inq(name, prop_type).value

    def dlt(self, name: str) -> None:
        """MQDLTMP: 2471 (a warning in the MQI) when there is no such property."""
        self._usable()
        if isinstance(name, bytes):
            name = name.decode("utf-8")
        if self._props.pop(name, None) is None:
            raise fail(C.MQRC_PROPERTY_NOT_AVAILABLE, f"no property {name!r} to delete")

    def delete(self) -> None:
        """MQDLTMH: the handle is no longer valid."""
        self._usable()
        self.deleted = True
        self._props.clear()
        _HANDLES.pop(self.msg_handle, None)

    @property
    def properties(self) -> tuple[Property, ...]:
        """Every property, in the order they were first set."""
        return tuple(self._props.values())

    def __len__(self) -> int:
        return len(self._props)

    def __iter__(self) -> Iterator[Property]:
        return iter(tuple(self._props.values()))

    def receive(self, props: Iterable[Property]) -> None:
        """What a get does to the handle: its properties become the message's."""
        self._props = {p.name: p for p in props}
        self._cursor = None


def handle(value: object, where: str) -> MessageHandle | None:
    """The MessageHandle an MQHMSG field names: None for MQHM_NONE (and MQHM_UNUSABLE_HMSG),
    MQRC_HMSG_ERROR (2460) for a value that names no live handle."""
    if value in (C.MQHM_NONE, C.MQHM_UNUSABLE_HMSG):
        return None
    found = _HANDLES.get(value) if type(value) is int else None
    if found is None or found.deleted:
        raise fail(C.MQRC_HMSG_ERROR, f"{where} {value!r} is not a message handle")
    return found


# -- what a message keeps ------------------------------------------------------------------------
def pack(props: Iterable[Property]) -> bytes | None:
    """Properties as a record keeps them (None: there are none): one ``bytes`` value, the
    marshal form of the flat tuple (name, type, value, copy options, name, ...). The collector
    never tracks bytes, while a tuple in ``extra`` is untracked only once a collection has seen
    it (and the tuples inside it before it), so the record holds no more than it did."""
    items = tuple(item for prop in props for item in prop)
    return marshal.dumps(items) if items else None


def unpack(packed: bytes | None) -> tuple[Property, ...]:
    """The properties :func:`pack` kept."""
    if not packed:
        return ()
    items = marshal.loads(packed)
    return tuple(Property(*items[i : i + 4]) for i in range(0, len(items), 4))


def of(record: Record | MessageView) -> tuple[Property, ...]:
    """The properties a stored message carries (none: an empty tuple)."""
    extra = record[EXTRA]
    if extra is None or PROPERTIES not in extra:  # the common case, without a slice
        return ()
    names = extra[0::2]
    if PROPERTIES not in names:
        return ()  # a field's value happens to read "Properties"
    return unpack(extra[2 * names.index(PROPERTIES) + 1])


def copied(packed: bytes | None, copy_option: int) -> bytes | None:
    """The properties a message made from another carries (a report: MQCOPY_REPORT; a
    subscriber's copy: MQCOPY_PUBLISH): those whose copy options include it or MQCOPY_ALL."""
    wanted = copy_option | C.MQCOPY_ALL
    return pack(p for p in unpack(packed) if p.copy_options & wanted)


def for_put(pmo: PMO) -> bytes | None:
    """The properties a put's PMO gives the message (:func:`pack`), or None.

    A version-3 PMO names up to two handles. With Action MQACTP_NEW the message takes the
    properties of OriginalMsgHandle and then NewMsgHandle's (the same name: the new one wins);
    with MQACTP_FORWARD, _REPLY or _REPORT only the original's properties whose copy options
    ask for that kind of message. A bad handle is MQRC_HMSG_ERROR (2460)."""
    d = pmo.__dict__
    if "OriginalMsgHandle" not in d and "NewMsgHandle" not in d:
        return None
    if pmo.Version < C.MQPMO_VERSION_3:
        return None  # the MQI ignores the fields a PMO's Version does not have
    original = handle(pmo.OriginalMsgHandle, "PMO.OriginalMsgHandle")
    new = handle(pmo.NewMsgHandle, "PMO.NewMsgHandle")
    action = pmo.Action
    copy_for = {
        C.MQACTP_NEW: None,
        C.MQACTP_FORWARD: C.MQCOPY_FORWARD,
        C.MQACTP_REPLY: C.MQCOPY_REPLY,
        C.MQACTP_REPORT: C.MQCOPY_REPORT,
    }
    if action not in copy_for:
        raise fail(C.MQRC_ACTION_ERROR, f"PMO.Action {action!r} (MQACTP_NEW .. MQACTP_REPORT)")
    kept: dict[str, Property] = {}
    if original is not None:
        wanted = copy_for[action]
        for prop in original.properties:
            if wanted is None or prop.copy_options & (wanted | C.MQCOPY_ALL):
                kept[prop.name] = prop
    if new is not None:
        kept.update((p.name, p) for p in new.properties)
    return pack(kept.values())


def publication_pmo(pmo: PMO) -> tuple[PMO, MessageHandle | None]:
    """The PMO each subscriber's copy of a publication is put with, and the handle it names
    (keep it while the copies are put): the copies carry the publication's properties whose copy
    options include MQCOPY_PUBLISH (rule EIP-05)."""
    items = for_put(pmo)
    if items is None:
        return pmo, None
    carrier = MessageHandle()
    carrier.receive(unpack(copied(items, C.MQCOPY_PUBLISH)))
    copy = pmo.copy()
    copy.set(OriginalMsgHandle=carrier.msg_handle, NewMsgHandle=C.MQHM_NONE, Action=C.MQACTP_NEW)
    return copy, carrier


# -- what a get returns --------------------------------------------------------------------------
def get_target(gmo: GMO, options: int) -> MessageHandle | None:
    """The message handle a get fills (GMO.MsgHandle, version 4), checked with the GMO's other
    fields before any message is looked for: one property option at most (MQRC_OPTIONS_ERROR),
    a live handle (MQRC_HMSG_ERROR), and a handle when MQGMO_PROPERTIES_IN_HANDLE asks for one.
    MQGET asks only when the GMO has a property option or is version 4."""
    wanted = options & PROPERTY_GET_OPTIONS
    if wanted & (wanted - 1):
        raise fail(C.MQRC_OPTIONS_ERROR, "more than one MQGMO_*PROPERTIES* option")
    target = handle(gmo.MsgHandle, "GMO.MsgHandle") if gmo.Version >= 4 else None
    if wanted == C.MQGMO_PROPERTIES_IN_HANDLE and target is None:
        raise fail(C.MQRC_HMSG_ERROR, "MQGMO_PROPERTIES_IN_HANDLE needs a GMO.MsgHandle")
    return target


def for_get(
    local: QLocal,
    record: Record,
    target: MessageHandle | None,
    options: int,
    data: bytes,
    extension: int | None,
    ccsid: int,
) -> tuple[bytes, tuple[str, int, int] | None]:
    """A get's properties: into ``target`` (:func:`get_target`), or as an MQRFH2 in front of
    ``data``, or nowhere, by the GMO's property option and the queue's PROPCTL. MQGET asks only
    when there is a target or the message has properties.

    ``extension``: ``data`` starts with an MQMDE (rule MD-07) in that CCSID. Returns the data
    and, when an MQRFH2 now leads it, what the MD says instead (MQFMT_RF_HEADER_2, the queue
    manager's native encoding and ``ccsid``); the MQRFH2 describes what follows it."""
    wanted = options & PROPERTY_GET_OPTIONS
    props = of(record)
    if wanted == C.MQGMO_NO_PROPERTIES:
        return data, None
    propctl = local.propctl
    force = wanted == C.MQGMO_PROPERTIES_FORCE_MQRFH2 or (not wanted and propctl == "FORCE")
    if target is not None and not force and wanted != C.MQGMO_PROPERTIES_COMPATIBILITY:
        if extension is None and field(record, "Format", "") == C.MQFMT_RF_HEADER_2:
            found = from_rfh2(data, field(record, "Encoding", C.MQENC_NATIVE))
            if found is not None:  # the putter's own MQRFH2 held properties: into the handle
                carried, data, described = found
                target.receive((*props, *carried))
                return data, described
        target.receive(props)
        return data, None
    if not props:
        return data, None
    if not force:
        mode = "COMPAT" if wanted == C.MQGMO_PROPERTIES_COMPATIBILITY else propctl
        if mode == "NONE":
            return data, None
        if mode in ("COMPAT", "V6COMPAT") and not any(
            folder_of(p.name) in RESERVED_FOLDERS for p in props
        ):
            return data, None
    if extension is not None:
        described = (C.MQFMT_MD_EXTENSION, C.MQENC_NATIVE, extension)
    else:
        described = (
            field(record, "Format", C.MQFMT_NONE),
            field(record, "Encoding", C.MQENC_NATIVE),
            field(record, "CodedCharSetId", ccsid),
        )
    return rfh2(props, *described) + data, (C.MQFMT_RF_HEADER_2, C.MQENC_NATIVE, ccsid)


# -- the MQRFH2 ------------------------------------------------------------------------------------
_DT = {
    C.MQTYPE_BOOLEAN: "boolean",
    C.MQTYPE_BYTE_STRING: "bin.hex",
    C.MQTYPE_INT8: "i1",
    C.MQTYPE_INT16: "i2",
    C.MQTYPE_INT32: "i4",
    C.MQTYPE_INT64: "i8",
    C.MQTYPE_FLOAT32: "r4",
    C.MQTYPE_FLOAT64: "r8",
}
# StrucId, Version, StrucLength, Encoding, CodedCharSetId, Format, Flags, NameValueCCSID
_RFH2_FIXED = struct.Struct("<4siiii8sii")  # 36 bytes, MQRFH_STRUC_LENGTH_FIXED_2
NAME_VALUE_CCSID: Final = 1208


def folder_of(name: str) -> str:
    """The MQRFH2 folder a property goes in: the part before the first '.', else ``usr``
    (IBM, "Mapping from property names to MQRFH2 folder and element names")."""
    return name.split(".", 1)[0] if "." in name else "usr"


def _element(prop: Property) -> str:
    leaf = prop.name.rsplit(".", 1)[-1]
    value = prop.value
    if prop.type == C.MQTYPE_NULL:
        return f"<{leaf} xsi:nil='true'></{leaf}>"
    if prop.type == C.MQTYPE_BOOLEAN:
        text = "1" if value else "0"
    elif prop.type == C.MQTYPE_BYTE_STRING:
        text = value.hex().upper()
    elif prop.type in (C.MQTYPE_FLOAT32, C.MQTYPE_FLOAT64):
        text = repr(value) if math.isfinite(value) else str(value).upper()
    else:
        text = escape(str(value))
    dt = _DT.get(prop.type)
    attribute = f" dt='{dt}'" if dt else ""
    return f"<{leaf}{attribute}>{text}</{leaf}>"


def folders(props: Iterable[Property]) -> dict[str, str]:
    """Each folder's NameValueData (before padding): groups for the name's middle parts."""
    content: dict[str, list[str]] = {}
    for prop in props:
        parts = prop.name.split(".")
        folder = folder_of(prop.name)
        groups = parts[1:-1] if len(parts) > 1 else []
        element = _element(prop)
        for group in reversed(groups):
            element = f"<{group}>{element}</{group}>"
        content.setdefault(folder, []).append(element)
    return {name: f"<{name}>{''.join(parts)}</{name}>" for name, parts in content.items()}


def rfh2(props: Iterable[Property], fmt: str, encoding: int, ccsid: int) -> bytes:
    """An MQRFH2 version 2 (native encoding) holding ``props`` in its folders; its Format,
    Encoding and CodedCharSetId describe the data after it."""
    body = b""
    for text in folders(props).values():
        data = text.encode("utf-8")
        data += b" " * (-len(data) % 4)  # each NameValueData a multiple of 4 bytes
        body += struct.pack("<i", len(data)) + data
    length = _RFH2_FIXED.size + len(body)
    fixed = _RFH2_FIXED.pack(
        b"RFH ", 2, length, encoding, ccsid, fmt.ljust(8).encode("ascii"), 0, NAME_VALUE_CCSID
    )
    return fixed + body


# -- an MQRFH2 the putter wrote ----------------------------------------------------------------
# folders whose elements are message properties (IBM, "Supported MQRFH2 folders"), besides any
# folder marked content='properties'
PROPERTY_FOLDERS: Final = ("usr", "mq_usr", "jms", "mcd", "mqext", "mq", "mqps")
_FROM_DT: Final = {dt: type_ for type_, dt in _DT.items()} | {
    "int": C.MQTYPE_INT32,
    "string": C.MQTYPE_STRING,
}


def from_rfh2(
    data: bytes, encoding: int
) -> tuple[tuple[Property, ...], bytes, tuple[str, int, int] | None] | None:
    """The properties in the MQRFH2 at the start of ``data`` (``encoding``: the MD's), taken out
    of it as a get into a message handle takes them (IBM, "PROPCTL queue options": name/value
    pairs that are not properties stay in the MQRFH2). Returns (the properties, the data
    without them, and when no folder is left and the MQRFH2 goes, the Format, Encoding and
    CodedCharSetId it gave what follows it); None when there is no well-formed version-2 MQRFH2
    with properties there (the data is then returned as it is)."""
    order = ">" if encoding & C.MQENC_INTEGER_MASK == C.MQENC_INTEGER_NORMAL else "<"
    if len(data) < _RFH2_FIXED.size or data[:4] != b"RFH ":
        return None
    version, length, next_encoding, next_ccsid = struct.unpack_from(order + "4i", data, 4)
    nv_ccsid = struct.unpack_from(order + "i", data, 32)[0]
    if version != 2 or not _RFH2_FIXED.size <= length <= len(data) or nv_ccsid != 1208:
        return None
    found: list[Property] = []
    kept: list[bytes] = []
    at = _RFH2_FIXED.size
    try:
        while at < length:
            size = struct.unpack_from(order + "i", data, at)[0]
            raw = data[at + 4 : at + 4 + size]
            if size < 0 or at + 4 + size > length:
                return None
            text = raw.decode("utf-8").rstrip(" \0").replace("xsi:nil=", "nil=")
            folder = ET.fromstring(text)
            if folder.tag in PROPERTY_FOLDERS or folder.get("content") == "properties":
                found.extend(
                    _folder_properties(folder, [] if folder.tag == "usr" else [folder.tag])
                )
            else:
                kept.append(raw)
            at += 4 + size
    except (ET.ParseError, UnicodeDecodeError, ValueError, struct.error, MQMIError):
        return None  # not an MQRFH2 mqlearn can read: left as data
    if not found:
        return None
    rest = data[length:]
    if not kept:
        fmt = data[20:28].decode("ascii", "replace")
        return tuple(found), rest, (fmt, next_encoding, next_ccsid)
    body = b"".join(struct.pack(order + "i", len(raw)) + raw for raw in kept)
    fixed = data[:8] + struct.pack(order + "i", _RFH2_FIXED.size + len(body)) + data[12:36]
    return tuple(found), fixed + body + rest, None


def _folder_properties(element: ET.Element, path: list[str]) -> Iterator[Property]:
    """The properties in a folder's (or group's) elements: ``path`` names the folder and groups."""
    for child in element:
        if len(child):
            yield from _folder_properties(child, [*path, child.tag])
            continue
        name = ".".join([*path, child.tag])
        if child.get("nil") == "true":
            yield Property(name, C.MQTYPE_NULL, None)
            continue
        type_ = _FROM_DT.get(child.get("dt") or "string", C.MQTYPE_STRING)
        text = child.text or ""
        if type_ == C.MQTYPE_BOOLEAN:
            value: Any = text.strip() in ("1", "true", "TRUE")
        elif type_ == C.MQTYPE_BYTE_STRING:
            value = bytes.fromhex(text)
        elif type_ in _INT_BITS:
            value = int(text)
        elif type_ in (C.MQTYPE_FLOAT32, C.MQTYPE_FLOAT64):
            value = float(text)
        else:
            value = text
        yield Property(name, *check_value(value, type_))
