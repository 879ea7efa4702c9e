"""The PCF building blocks programs pass to PCFExecute: parameter structures (CFST, CFIN, CFIL,
CFSL, CFBS, CFIF, CFSF, CFGR, CFH), ByteString, and the Filter helpers.

The simulator runs PCF commands directly (mqlearn.compat.pcf), so these carry values from the
program to the command; they are not packed into a PCF message.
"""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC, CMQCFC


class PCFStructure:
    """A PCF structure: its IBM field names, as attributes, items and keywords."""

    _FIELDS: tuple[tuple[str, Any], ...] = ()

    def __init__(self, **kw: Any) -> None:
        for name, default in self._FIELDS:
            setattr(self, name, list(default) if isinstance(default, list) else default)
        for key, value in kw.items():
            getattr(self, key)
            setattr(self, key, value)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        getattr(self, key)
        setattr(self, key, value)

    def get(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name, _ in self._FIELDS}

    def value(self) -> Any:
        """The value this parameter carries."""
        for field in ("String", "Value", "Values", "Strings", "FilterValue"):
            if field in dict(self._FIELDS):
                return getattr(self, field)
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.get()!r})"


def _pcf(name: str, *fields: tuple[str, Any]) -> type[PCFStructure]:
    return type(name, (PCFStructure,), {"_FIELDS": fields, "__doc__": f"MQ{name}."})


CFH = _pcf(
    "CFH",
    ("Type", CMQCFC.MQCFT_COMMAND),
    ("StrucLength", CMQCFC.MQCFH_STRUC_LENGTH),
    ("Version", CMQCFC.MQCFH_VERSION_3),
    ("Command", CMQCFC.MQCMD_NONE),
    ("MsgSeqNumber", 1),
    ("Control", CMQCFC.MQCFC_LAST),
    ("CompCode", CMQC.MQCC_OK),
    ("Reason", CMQC.MQRC_NONE),
    ("ParameterCount", 0),
)
CFST = _pcf(
    "CFST",
    ("Type", CMQCFC.MQCFT_STRING),
    ("Parameter", 0),
    ("CodedCharSetId", CMQC.MQCCSI_DEFAULT),
    ("String", b""),
)
CFIN = _pcf("CFIN", ("Type", CMQCFC.MQCFT_INTEGER), ("Parameter", 0), ("Value", 0))
CFIN64 = _pcf("CFIN64", ("Type", CMQCFC.MQCFT_INTEGER64), ("Parameter", 0), ("Value", 0))
CFIL = _pcf("CFIL", ("Type", CMQCFC.MQCFT_INTEGER_LIST), ("Parameter", 0), ("Values", []))
CFIL64 = _pcf("CFIL64", ("Type", CMQCFC.MQCFT_INTEGER64_LIST), ("Parameter", 0), ("Values", []))
CFSL = _pcf(
    "CFSL",
    ("Type", CMQCFC.MQCFT_STRING_LIST),
    ("Parameter", 0),
    ("CodedCharSetId", CMQC.MQCCSI_DEFAULT),
    ("Strings", []),
)
CFBS = _pcf("CFBS", ("Type", CMQCFC.MQCFT_BYTE_STRING), ("Parameter", 0), ("String", b""))
CFIF = _pcf(
    "CFIF",
    ("Type", CMQCFC.MQCFT_INTEGER_FILTER),
    ("Parameter", 0),
    ("Operator", 0),
    ("FilterValue", 0),
)
CFSF = _pcf(
    "CFSF",
    ("Type", CMQCFC.MQCFT_STRING_FILTER),
    ("Parameter", 0),
    ("Operator", 0),
    ("CodedCharSetId", CMQC.MQCCSI_DEFAULT),
    ("FilterValue", b""),
)
CFBF = _pcf(
    "CFBF",
    ("Type", CMQCFC.MQCFT_BYTE_STRING_FILTER),
    ("Parameter", 0),
    ("Operator", 0),
    ("FilterValue", b""),
)
CFGR = _pcf("CFGR", ("Type", CMQCFC.MQCFT_GROUP), ("Parameter", 0), ("ParameterCount", 0))
STRUCTURES = {
    cls.__name__: cls
    for cls in (CFH, CFST, CFIN, CFIN64, CFIL, CFIL64, CFSL, CFBS, CFIF, CFSF, CFBF, CFGR)
}


class ByteString:
    """A value PCF should send as a byte string (MQCFBS) rather than a character string."""

    def __init__(self, value: bytes | str) -> None:
        self.value = value.encode("ascii") if isinstance(value, str) else value

    def __len__(self) -> int:
        return len(self.value)


class _Filter:
    """A PCF filter: ``selector`` ``operator`` ``value`` (MQCFIF / MQCFSF / MQCFBF)."""

    _filter_type: str | None = None

    def __init__(self, selector: int, value: Any, operator: int) -> None:
        self.selector = selector
        self.value = value.encode("ascii") if isinstance(value, str) else value
        self.operator = operator


class StringFilter(_Filter):
    _filter_type = "string"


class IntegerFilter(_Filter):
    _filter_type = "integer"


class ByteStringFilter(_Filter):
    _filter_type = "bytestring"


OPERATORS = {
    "less": CMQCFC.MQCFOP_LESS,
    "equal": CMQCFC.MQCFOP_EQUAL,
    "greater": CMQCFC.MQCFOP_GREATER,
    "not_less": CMQCFC.MQCFOP_NOT_LESS,
    "not_equal": CMQCFC.MQCFOP_NOT_EQUAL,
    "not_greater": CMQCFC.MQCFOP_NOT_GREATER,
    "like": CMQCFC.MQCFOP_LIKE,
    "not_like": CMQCFC.MQCFOP_NOT_LIKE,
    "contains": CMQCFC.MQCFOP_CONTAINS,
    "excludes": CMQCFC.MQCFOP_EXCLUDES,
    "contains_gen": CMQCFC.MQCFOP_CONTAINS_GEN,
    "excludes_gen": CMQCFC.MQCFOP_EXCLUDES_GEN,
}


class FilterOperator:
    """``Filter(selector).equal(value)`` and the other operators make a filter."""

    def __init__(self, selector: int, operator_name: str) -> None:
        if CMQC.MQIA_FIRST <= selector <= CMQC.MQIA_LAST:
            self.filter_cls: type[_Filter] = IntegerFilter
        elif CMQC.MQCA_FIRST <= selector <= CMQC.MQCA_LAST:
            self.filter_cls = StringFilter
        elif CMQC.MQBA_FIRST <= selector <= CMQC.MQBA_LAST:
            self.filter_cls = ByteStringFilter
        else:
            raise ValueError(f"selector [{selector}] is of an unsupported type")
        if operator_name not in OPERATORS:
            raise ValueError(f"Unrecognized operator [{operator_name}]")
        self.selector = selector
        self.operator = OPERATORS[operator_name]

    def __call__(self, value: Any) -> _Filter:
        return self.filter_cls(self.selector, value, self.operator)


class Filter:
    """The user-facing filter: ``Filter(CMQC.MQIA_CURRENT_Q_DEPTH).greater(0)``."""

    def __init__(self, selector: int) -> None:
        self.selector = selector

    def __getattribute__(self, name: str) -> Any:
        if name == "selector":
            return object.__getattribute__(self, name)
        return FilterOperator(self.selector, name)


def _text(value: Any) -> bytes:
    if isinstance(value, str):
        value = value.encode("ascii")
    return bytes(value).rstrip(b" \0")


def passes(found: dict[int, Any], selector: int, operator: int, wanted: Any) -> bool:
    """Whether a reply's attribute satisfies one filter (IBM's MQCFOP_* semantics)."""
    import fnmatch

    if selector not in found:
        return False
    value = found[selector]
    if isinstance(value, bytes | str):
        value, wanted = _text(value), _text(wanted)
    if operator in (CMQCFC.MQCFOP_LIKE, CMQCFC.MQCFOP_NOT_LIKE):
        matched = fnmatch.fnmatchcase(value.decode(), wanted.decode())
        return matched if operator == CMQCFC.MQCFOP_LIKE else not matched
    if operator in (CMQCFC.MQCFOP_CONTAINS, CMQCFC.MQCFOP_EXCLUDES):
        inside = wanted in value if isinstance(value, list) else wanted == value
        return inside if operator == CMQCFC.MQCFOP_CONTAINS else not inside
    compare = {
        CMQCFC.MQCFOP_LESS: lambda a, b: a < b,
        CMQCFC.MQCFOP_EQUAL: lambda a, b: a == b,
        CMQCFC.MQCFOP_GREATER: lambda a, b: a > b,
        CMQCFC.MQCFOP_NOT_LESS: lambda a, b: a >= b,
        CMQCFC.MQCFOP_NOT_EQUAL: lambda a, b: a != b,
        CMQCFC.MQCFOP_NOT_GREATER: lambda a, b: a <= b,
    }
    if operator not in compare:
        raise ValueError(f"filter operator {operator} is not simulated")
    return bool(compare[operator](value, wanted))
