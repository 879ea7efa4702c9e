"""PCFExecute: the PCF commands programs use to define, change, delete and inquire queues.

A real PCFExecute puts a PCF message on SYSTEM.ADMIN.COMMAND.QUEUE and reads the command
server's replies from a dynamic reply queue. Here the command runs directly against the
simulated queue manager, and the result has the shape the libraries return: a list of dicts,
one per object, keyed by MQCA_*/MQIA_*/MQCACF_*/MQIACF_* selectors, character values as
blank-padded bytes. The reply queue is still made from the model queue, as the real one is, so
it shows in the queue manager's list of queues. Supported: MQCMD_PING_Q_MGR,
MQCMD_INQUIRE_Q_MGR, MQCMD_CREATE_Q / CHANGE_Q / DELETE_Q / CLEAR_Q (local, alias, remote and
model queues), MQCMD_INQUIRE_Q, MQCMD_INQUIRE_Q_NAMES and MQCMD_INQUIRE_Q_STATUS (CURDEPTH counts
expired messages not yet discarded, rule EXP-25). Any other command raises MQMIError with
MQRCCF_COMMAND_FAILED and a ``detail`` saying it is not simulated.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from typing import Any

from mqlearn.compat import CMQC, CMQCFC, CMQXC, authority, dynamic, inquiry
from mqlearn.compat.calls import engine_call, text
from mqlearn.compat.hosting import Host, Model
from mqlearn.compat.pcf_types import CFH, ByteString, PCFStructure, _Filter, passes
from mqlearn.compat.queue import Queue
from mqlearn.engine.objects import QAlias, QLocal, QRemote

_TYPES = {
    CMQC.MQQT_LOCAL: "QLOCAL",
    CMQC.MQQT_ALIAS: "QALIAS",
    CMQC.MQQT_REMOTE: "QREMOTE",
    CMQC.MQQT_MODEL: "QMODEL",
}
_ENGINE_TYPES = {QLocal: CMQC.MQQT_LOCAL, QAlias: CMQC.MQQT_ALIAS, QRemote: CMQC.MQQT_REMOTE}


def _yes_no(value: int) -> str:
    return "YES" if value else "NO"


# PCF parameter -> (the engine's MQSC attribute, how the value converts)
ATTRIBUTES: dict[int, tuple[str, Callable[[Any], Any]]] = {
    CMQC.MQIA_MAX_Q_DEPTH: ("maxdepth", int),
    CMQC.MQIA_DEF_PRIORITY: ("defprty", int),
    CMQC.MQIA_DEF_PERSISTENCE: ("defpsist", _yes_no),
    CMQC.MQIA_INHIBIT_PUT: ("put", lambda v: "DISABLED" if v else "ENABLED"),
    CMQC.MQIA_INHIBIT_GET: ("get", lambda v: "DISABLED" if v else "ENABLED"),
    CMQC.MQIA_MSG_DELIVERY_SEQUENCE: (
        "msgdlvsq",
        lambda v: "FIFO" if v == CMQC.MQMDS_FIFO else "PRIORITY",
    ),
    CMQC.MQIA_USAGE: ("usage", lambda v: "XMITQ" if v == CMQC.MQUS_TRANSMISSION else "NORMAL"),
    CMQC.MQIA_CAP_EXPIRY: ("capexpry", int),
    CMQC.MQIA_TRIGGER_CONTROL: ("trigger", bool),
    CMQC.MQIA_TRIGGER_DEPTH: ("trigdpth", int),
    CMQC.MQIA_TRIGGER_MSG_PRIORITY: ("trigmpri", int),
    CMQC.MQCA_TRIGGER_DATA: ("trigdata", text),
    CMQC.MQCA_INITIATION_Q_NAME: ("initq", text),
    CMQC.MQCA_BASE_Q_NAME: ("target", text),
    CMQC.MQCA_REMOTE_Q_NAME: ("rname", text),
    CMQC.MQCA_REMOTE_Q_MGR_NAME: ("rqmname", text),
    CMQC.MQCA_XMIT_Q_NAME: ("xmitq", text),
}
_IGNORED = {CMQC.MQCA_Q_DESC}  # accepted, not kept by the engine


class PCFMixin:
    """The PCFExecute behaviour, mixed into each flavour's QueueManager class."""

    _LIB: Any
    qm: Any = None

    def __init__(
        self,
        name: Any = None,
        disconnect_on_exit: bool = True,
        model_queue_name: Any = b"SYSTEM.DEFAULT.MODEL.QUEUE",
        dynamic_queue_name: Any = b"PYMQPCF.*",
        command_queue_name: Any = b"SYSTEM.ADMIN.COMMAND.QUEUE",
        response_wait_interval: int = 5000,
        convert: bool = False,
        **more: Any,
    ) -> None:
        if more.get("reply_queue_name"):
            model_queue_name = more["reply_queue_name"]
        if hasattr(name, "_connected"):
            self.qm = name
            super().__init__(None)  # type: ignore[call-arg]
            self._host = name._connected()
            self._name = name._name
        else:
            super().__init__(name)  # type: ignore[call-arg]
            self.qm = self
        self.command_queue_name = command_queue_name
        self.response_wait_interval = response_wait_interval
        self.convert = convert
        od = self._LIB.OD(ObjectName=model_queue_name, DynamicQName=dynamic_queue_name)
        self.reply_queue: Queue | None = Queue(self.qm, od, CMQC.MQOO_INPUT_EXCLUSIVE)
        self.reply_queue_name = od.ObjectName.strip()

    def __getattr__(self, name: str) -> Callable[..., list[dict[int, Any]]]:
        if not name.startswith("MQCMD_"):
            raise AttributeError(name)
        command = getattr(CMQCFC, name, None)
        if command is None:
            raise AttributeError(name)

        def execute(*args: Any, **kwargs: Any) -> list[Any]:
            if len(args) > 2:
                raise TypeError("give the parameters, and the filters, at most")
            params = parameters(args[0] if args else {})
            filters = list(args[1]) if len(args) == 2 else []
            host = self.qm._connected()
            with engine_call(self._LIB, host):
                replies = run(self._LIB, host, name, params)
            replies = [r for r in replies if all(_passes(r, f) for f in filters)]
            responses = kwargs.get("responses")
            if responses is None:
                return replies
            if not isinstance(responses, list):
                raise TypeError("responses must be a list")
            del responses[:]  # ibmmq's form: (parameters, MQCFH) pairs
            count = len(replies)
            for n, reply in enumerate(replies, start=1):
                header = CFH(
                    Type=CMQCFC.MQCFT_RESPONSE,
                    Command=command,
                    MsgSeqNumber=n,
                    Control=CMQCFC.MQCFC_LAST if n == count else CMQCFC.MQCFC_NOT_LAST,
                    ParameterCount=len(reply),
                )
                responses.append((reply, header))
            return responses

        return execute

    def disconnect(self) -> None:
        """Close the reply queue (the connection itself stays, as in both libraries)."""
        if self.reply_queue is not None and self.reply_queue.get_handle() is not None:
            self.reply_queue.close()
        self.reply_queue = None


def parameters(given: Any) -> dict[int, Any]:
    """A command's parameters as {selector: value}, from a dict (ByteString values unwrapped)
    or a list of PCF structures (CFST, CFIN, CFIL, ...)."""
    if isinstance(given, dict):
        items = list(given.items())
    elif isinstance(given, list | tuple):
        if not all(isinstance(p, PCFStructure) for p in given):
            raise TypeError("a parameter list holds PCF structures (CFST, CFIN, CFIL, ...)")
        items = [(p.Parameter, p.value()) for p in given]
    else:
        raise TypeError("give the command's parameters as a dict or a list of PCF structures")
    return {k: v.value if isinstance(v, ByteString) else v for k, v in items}


def _passes(reply: dict[int, Any], given: Any) -> bool:
    if isinstance(given, _Filter):
        return passes(reply, given.selector, given.operator, given.value)
    if isinstance(given, PCFStructure) and hasattr(given, "Operator"):
        return passes(reply, given.Parameter, given.Operator, given.FilterValue)
    raise TypeError("a filter is a Filter(...) result or a CFIF / CFSF / CFBF")


def _fail(lib: Any, reason: int, detail: str = "") -> Exception:
    error: Exception = lib.MQMIError(CMQC.MQCC_FAILED, reason, detail=detail)
    return error


def _matches(pattern: str, name: str) -> bool:
    return fnmatch.fnmatchcase(name, pattern) if pattern.endswith("*") else name == pattern


def _qtype_of(host: Host, name: str) -> int:
    model: int = CMQC.MQQT_MODEL
    return model if name in host.models else _ENGINE_TYPES[type(host.qm.objects[name])]


def _names(host: Host) -> list[str]:
    return sorted([*host.qm.objects, *host.models])


def _wanted_type(params: dict[int, Any]) -> int:
    return int(params.get(CMQC.MQIA_Q_TYPE, CMQC.MQQT_ALL))


def _selected(host: Host, params: dict[int, Any]) -> list[str]:
    pattern = text(params.get(CMQC.MQCA_Q_NAME, b"*"))
    qtype = _wanted_type(params)
    return [
        n
        for n in _names(host)
        if _matches(pattern, n) and qtype in (CMQC.MQQT_ALL, _qtype_of(host, n))
    ]


def _attributes(host: Host, name: str) -> dict[int, Any]:
    if name in host.models:
        model = host.models[name]
        return {
            CMQC.MQCA_Q_NAME: inquiry.pad(name),
            CMQC.MQIA_Q_TYPE: CMQC.MQQT_MODEL,
            CMQC.MQIA_DEFINITION_TYPE: (
                CMQC.MQQDT_TEMPORARY_DYNAMIC
                if model.deftype == "TEMPDYN"
                else CMQC.MQQDT_PERMANENT_DYNAMIC
            ),
        }
    readers = inquiry.queue_attributes(host, host.qm.definition(name))
    values = {selector: read() for selector, read in readers.items()}
    for count in (CMQC.MQIA_OPEN_INPUT_COUNT, CMQC.MQIA_OPEN_OUTPUT_COUNT):
        values.pop(count, None)  # DISPLAY QSTATUS's, not DISPLAY QUEUE's
    return values


def run(lib: Any, host: Host, command: str, params: dict[int, Any]) -> list[dict[int, Any]]:
    """Execute one PCF command; returns the replies' parameters."""
    qm = host.qm
    if command == "MQCMD_PING_Q_MGR":
        return []
    if command == "MQCMD_INQUIRE_Q_MGR":
        return [{s: read() for s, read in inquiry.qmgr_attributes(host).items()}]
    if command in ("MQCMD_INQUIRE_Q", "MQCMD_INQUIRE_Q_NAMES", "MQCMD_INQUIRE_Q_STATUS"):
        names = _selected(host, params)
        if command == "MQCMD_INQUIRE_Q_STATUS":
            names = [n for n in names if n in qm.objects and isinstance(qm.objects[n], QLocal)]
        if not names:
            raise _fail(lib, CMQC.MQRC_UNKNOWN_OBJECT_NAME, "no queue matches")
        if command == "MQCMD_INQUIRE_Q_NAMES":
            return [
                {
                    CMQCFC.MQCACF_Q_NAMES: [inquiry.pad(n) for n in names],
                    CMQCFC.MQIACF_Q_TYPES: [_qtype_of(host, n) for n in names],
                }
            ]
        if command == "MQCMD_INQUIRE_Q_STATUS":
            return [_status(host, n) for n in names]
        wanted = params.get(CMQCFC.MQIACF_Q_ATTRS)
        replies = []
        for name in names:
            values = _attributes(host, name)
            if wanted and CMQCFC.MQIACF_ALL not in (
                wanted if isinstance(wanted, list) else [wanted]
            ):
                keep = set(wanted if isinstance(wanted, list) else [wanted])
                keep |= {CMQC.MQCA_Q_NAME, CMQC.MQIA_Q_TYPE}
                values = {k: v for k, v in values.items() if k in keep}
            replies.append(values)
        return replies
    if command in ("MQCMD_CREATE_Q", "MQCMD_CHANGE_Q", "MQCMD_DELETE_Q", "MQCMD_CLEAR_Q"):
        name = text(params.get(CMQC.MQCA_Q_NAME))
        if not name:
            raise _fail(lib, CMQCFC.MQRCCF_CFST_PARM_ID_ERROR, "MQCA_Q_NAME is required")
        if command == "MQCMD_CREATE_Q":
            _create(lib, host, name, params)
        elif command == "MQCMD_CHANGE_Q":
            _change(lib, host, name, params)
        elif command == "MQCMD_DELETE_Q":
            _delete(lib, host, name, params)
        else:
            qm.clear_qlocal(name)
        return []
    if command in CHANNEL_COMMANDS:
        return _channels(lib, host, command, params)
    if command == "MQCMD_SET_AUTH_REC":
        authority.set_auth_rec(host, params)
        return []
    raise _fail(lib, CMQCFC.MQRCCF_COMMAND_FAILED, f"{command} is not simulated")


CHANNEL_COMMANDS = (
    "MQCMD_CREATE_CHANNEL",
    "MQCMD_DELETE_CHANNEL",
    "MQCMD_INQUIRE_CHANNEL",
    "MQCMD_INQUIRE_CHANNEL_NAMES",
)


def _channels(lib: Any, host: Host, command: str, params: dict[int, Any]) -> list[dict[int, Any]]:
    """Channel definitions: a name and a type. A channel defined here admits no client (the
    developer container's back-stop CHLAUTH rule blocks every channel but its own two)."""
    name = text(params.get(CMQCFC.MQCACH_CHANNEL_NAME, b"*"))
    length = CMQC.MQ_CHANNEL_NAME_LENGTH
    if command == "MQCMD_CREATE_CHANNEL":
        ctype = params.get(CMQCFC.MQIACH_CHANNEL_TYPE)
        if ctype is None:
            raise _fail(lib, CMQCFC.MQRCCF_CHANNEL_TYPE_ERROR, "MQIACH_CHANNEL_TYPE is required")
        replace = params.get(CMQCFC.MQIACF_REPLACE) == CMQCFC.MQRP_YES
        if name in host.channel_types and not replace:
            raise _fail(lib, CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS, f"channel {name} exists")
        host.channel_types[name] = int(ctype)
        host.channels.setdefault(name, set())
        return []
    if command == "MQCMD_DELETE_CHANNEL":
        if name not in host.channel_types:
            raise _fail(lib, CMQCFC.MQRCCF_CHANNEL_NOT_FOUND, f"no channel {name}")
        del host.channel_types[name]
        host.channels.pop(name, None)
        host.mcausers.pop(name, None)
        return []
    wanted = params.get(CMQCFC.MQIACH_CHANNEL_TYPE)
    names = sorted(
        n
        for n, t in host.channel_types.items()
        if _matches(name, n) and wanted in (None, CMQXC.MQCHT_ALL, t)
    )
    if not names:
        raise _fail(lib, CMQC.MQRC_UNKNOWN_OBJECT_NAME, "no channel matches")
    if command == "MQCMD_INQUIRE_CHANNEL_NAMES":
        return [{CMQCFC.MQCACH_CHANNEL_NAMES: [inquiry.pad(n, length) for n in names]}]
    return [
        {
            CMQCFC.MQCACH_CHANNEL_NAME: inquiry.pad(n, length),
            CMQCFC.MQIACH_CHANNEL_TYPE: host.channel_types[n],
        }
        for n in names
    ]


def _status(host: Host, name: str) -> dict[int, Any]:
    qm = host.qm
    opened = host.opened.get(name, [0, 0])
    return {
        CMQC.MQCA_Q_NAME: inquiry.pad(name),
        CMQC.MQIA_CURRENT_Q_DEPTH: qm.curdepth(name),  # rule EXP-25
        CMQC.MQIA_OPEN_INPUT_COUNT: opened[0],
        CMQC.MQIA_OPEN_OUTPUT_COUNT: opened[1],
        CMQCFC.MQIACF_UNCOMMITTED_MSGS: qm.uncommitted(name),
    }


def _engine_attrs(lib: Any, params: dict[int, Any]) -> dict[str, Any]:
    attrs = {}
    for key, value in params.items():
        if key in (CMQC.MQCA_Q_NAME, CMQC.MQIA_Q_TYPE, CMQCFC.MQIACF_REPLACE) or key in _IGNORED:
            continue
        if key == CMQC.MQIA_DEFINITION_TYPE:
            attrs["deftype"] = "PERMDYN" if value == CMQC.MQQDT_PERMANENT_DYNAMIC else "TEMPDYN"
            continue
        if key not in ATTRIBUTES:
            raise _fail(lib, CMQCFC.MQRCCF_PARM_SYNTAX_ERROR, f"parameter {key} is not simulated")
        attr, convert = ATTRIBUTES[key]
        attrs[attr] = convert(value)
    return attrs


def _create(lib: Any, host: Host, name: str, params: dict[int, Any]) -> None:
    qtype = params.get(CMQC.MQIA_Q_TYPE)
    if qtype not in _TYPES:
        raise _fail(lib, CMQCFC.MQRCCF_Q_TYPE_ERROR, "MQIA_Q_TYPE is required")
    replace = params.get(CMQCFC.MQIACF_REPLACE) == CMQCFC.MQRP_YES
    exists = name in host.qm.objects or name in host.models
    if exists and not replace:
        raise _fail(lib, CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS, f"{name} exists")
    attrs = _engine_attrs(lib, params)
    qm = host.qm
    if qtype == CMQC.MQQT_MODEL:
        deftype = attrs.pop("deftype", "TEMPDYN")
        host.models[name] = Model(name, deftype, attrs)
    elif qtype == CMQC.MQQT_LOCAL:
        qm.define_qlocal(name, replace=replace, **attrs)
    elif qtype == CMQC.MQQT_ALIAS:
        qm.define_qalias(name, replace=replace, **attrs)
    else:
        qm.define_qremote(name, replace=replace, **attrs)


def _change(lib: Any, host: Host, name: str, params: dict[int, Any]) -> None:
    attrs = _engine_attrs(lib, params)
    if name in host.models:
        model = host.models[name]
        model.deftype = attrs.pop("deftype", model.deftype)
        model.attrs.update(attrs)
        return
    host.qm.alter(name, **attrs)


def _delete(lib: Any, host: Host, name: str, params: dict[int, Any]) -> None:
    if name in host.models:
        del host.models[name]
        return
    purge = params.get(CMQCFC.MQIACF_PURGE) == CMQCFC.MQPO_YES
    if purge and isinstance(host.qm.objects.get(name), QLocal):
        host.qm.clear_qlocal(name)
    host.qm.delete_queue(name)
    dynamic.host_forget(host, name)
