"""dmpmqmsg files: load a dump onto a queue, and dump a queue in the same format.

dmpmqmsg (IBM MQ 8.0 and later) is IBM's queue load/unload utility, published earlier as qload.
Its files hold one record per line: ``*`` comments, ``A <key> <value>`` descriptor attributes,
``N`` (no descriptor), and the message data as ``X`` (hex), ``S`` (quoted string) or ``T`` (text)
lines. The reader here follows qload's reader (``ReadFileMessage``) with two differences, both
stricter: a malformed value raises :class:`DumpFormatError` where qload would quietly read a
prefix of it, and a file whose last line has no line break is taken as truncated. The writer
follows qload's default output (hex data, 25 bytes per line, ApplIdentityData and ApplOriginData
in hex). Details and choices: docs/interop.md.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from mqlearn.engine.handle import Queue
from mqlearn.interop.dump_errors import DumpFormatError
from mqlearn.interop.fields import field_bytes, field_length, printed_chars, printed_hex
from mqlearn.interop.reading import read_all
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD, PMO

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager

DUMP_VERSION = "10.0.0.0"  # the dmpmqmsg release whose output the writer reproduces
DATA_WIDTH = 25  # message bytes per X line (dmpmqmsg's default, option -dw changes it)
_HEADER_PREFIXES = ("* QLOAD", "* DMPMQMSG")  # the file header line qload looks for
_RECORD_TYPES = "ANXST"
_DATA_TYPES = "XST"
_ESCAPE = "~"
_MQLONG_MIN, _MQLONG_MAX = -(2**31), 2**31 - 1
_LONG_TEXT = re.compile(r"[+-]?[0-9]+")
_HEX_RUN = re.compile(r"[0-9A-Fa-f]*")
_ASCII_COLUMN = re.compile(r"(?: +<.*>)? *")  # what option -da appends after the hex digits


class _Attr(NamedTuple):
    """One ``A`` line key: the MQMD field it sets and how its value is written."""

    key: str
    field: str
    kind: str  # "long" (decimal), "char" (the characters), "hex" (2 hex digits per byte)
    version: int = 1  # 2: written only for a version-2 descriptor


# The keys in the order dmpmqmsg writes them (qload's field table, docs/interop.md).
_WRITTEN = (
    _Attr("VER", "Version", "long", 2),
    _Attr("RPT", "Report", "long"),
    _Attr("MST", "MsgType", "long"),
    _Attr("EXP", "Expiry", "long"),
    _Attr("FDB", "Feedback", "long"),
    _Attr("ENC", "Encoding", "long"),
    _Attr("CCS", "CodedCharSetId", "long"),
    _Attr("FMT", "Format", "char"),
    _Attr("PRI", "Priority", "long"),
    _Attr("PER", "Persistence", "long"),
    _Attr("MSI", "MsgId", "hex"),
    _Attr("COI", "CorrelId", "hex"),
    _Attr("BOC", "BackoutCount", "long"),
    _Attr("RTQ", "ReplyToQ", "char"),
    _Attr("RTM", "ReplyToQMgr", "char"),
    _Attr("USR", "UserIdentifier", "char"),
    _Attr("ACC", "AccountingToken", "hex"),
    _Attr("AIX", "ApplIdentityData", "hex"),
    _Attr("PAT", "PutApplType", "long"),
    _Attr("PAN", "PutApplName", "char"),
    _Attr("PTD", "PutDate", "char"),
    _Attr("PTT", "PutTime", "char"),
    _Attr("AOX", "ApplOriginData", "hex"),
    _Attr("GRP", "GroupId", "hex", 2),
    _Attr("MSQ", "MsgSeqNumber", "long", 2),
    _Attr("OFF", "Offset", "long", 2),
    _Attr("MSF", "MsgFlags", "long", 2),
    _Attr("ORL", "OriginalLength", "long", 2),
)
# Written instead of AIX/AOX only with option -dc; read like any other key.
_CHARACTER_FORMS = (
    _Attr("AID", "ApplIdentityData", "char"),
    _Attr("AOD", "ApplOriginData", "char"),
)
_BY_KEY = {attr.key: attr for attr in _WRITTEN + _CHARACTER_FORMS}
_KNOWN_KEYS = ", ".join(_BY_KEY)


class DumpedMessage(NamedTuple):
    """One message read from a dump: its descriptor, its data, and the line it starts on."""

    md: MD
    data: bytes
    line: int


# ---------------------------------------------------------------------------------------------
# reading
def parse_dmpmqmsg(text: str) -> list[DumpedMessage]:
    """Every message in a dump's text, or :class:`DumpFormatError` for the first bad line.

    Each message starts from IBM's initial MQMD values (``MD()``: Version 1, Expiry -1, Priority
    -1, Persistence 2, ...), so an attribute without an ``A`` line keeps its initial value. The
    program banner that precedes the file header in a captured stdout is skipped.
    """
    messages: list[DumpedMessage] = []
    draft: _Draft | None = None
    last = 0
    for number, line in _numbered_lines(text):
        last = number
        if not line or line[0] == "*":
            continue
        kind = _record_type(line, number, draft)
        if kind in _DATA_TYPES:
            assert draft is not None  # _record_type refuses data outside a message
            draft.chunks.append(_data(kind, line, number))
            continue
        if draft is not None and draft.chunks:
            messages.append(draft.finish())
            draft = None
        if kind == "N":
            if draft is not None:
                raise DumpFormatError(number, draft.wants_data("an N line"))
            draft = _Draft(number)
        else:
            if draft is None:
                draft = _Draft(number)
            _set_attribute(draft.md, line, number)
    if draft is not None:
        if not draft.chunks:
            raise DumpFormatError(
                last, draft.wants_data("the end of the file") + " (is the file truncated?)"
            )
        messages.append(draft.finish())
    return messages


class _Draft:
    """The message being read: its descriptor so far and its decoded data lines."""

    def __init__(self, line: int) -> None:
        self.md = MD()
        self.line = line
        self.chunks: list[bytes] = []

    def wants_data(self, found: str) -> str:
        return (
            f"expected message data (an X, S or T line) for the message that starts at line "
            f"{self.line}, found {found}"
        )

    def finish(self) -> DumpedMessage:
        return DumpedMessage(self.md, b"".join(self.chunks), self.line)


def _numbered_lines(text: str) -> list[tuple[int, str]]:
    """The lines with their numbers, banner lines left out; checks bytes and the final newline."""
    if not text.isascii():
        try:
            text.encode("latin-1")
        except UnicodeEncodeError as error:
            raise DumpFormatError(
                text.count("\n", 0, error.start) + 1,
                f"character {text[error.start]!r} is not a byte: a dump file holds bytes, so "
                f"write other characters as X lines of their encoded bytes",
            ) from None
    lines = text.split("\n")
    if lines[-1]:
        raise DumpFormatError(
            len(lines),
            "the last line has no line break, so the file looks truncated "
            "(dmpmqmsg ends every line with one)",
        )
    lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    numbered = list(enumerate(lines, start=1))
    header = next((i for i, line in enumerate(lines) if line.startswith(_HEADER_PREFIXES)), None)
    if header is not None and all(
        not line or line[0] not in "*" + _RECORD_TYPES for line in lines[:header]
    ):
        return numbered[header:]  # what came before is the program's banner (a stdout capture)
    return numbered


def _record_type(line: str, number: int, draft: _Draft | None) -> str:
    """The record type letter of a non-comment line, if it may come here; else the error."""
    kind = line[0]
    well_formed = kind in _RECORD_TYPES and (len(line) == 1 or line[1] == " ")
    if kind == "N":
        well_formed = line.rstrip(" ") == "N"
    if draft is None:
        expected, allowed = "a message attribute line (A or N)", "AN"
    elif not draft.chunks:
        expected, allowed = "another A line or message data (X, S or T)", "ANXST"
    else:
        expected, allowed = "more message data (X, S or T) or the next message (A or N)", "ANXST"
    if well_formed and kind in allowed:
        return kind
    if well_formed and kind in _DATA_TYPES:
        found = f"message data (an {kind} line) before any A or N line of its message"
    else:
        found = repr(line[:40])
    raise DumpFormatError(number, f"expected {expected}, found {found}")


def _set_attribute(md: MD, line: str, number: int) -> None:
    """Apply one ``A <key> <value>`` line; a line without a value leaves the field as it is."""
    if len(line) < 5:
        raise DumpFormatError(number, f"expected 'A <key> <value>', found {line!r}")
    key = line[2:5]
    attr = _BY_KEY.get(key)
    if attr is None:
        raise DumpFormatError(
            number, f"unknown attribute key {key!r}; expected one of {_KNOWN_KEYS}"
        )
    if len(line) > 5 and line[5] != " ":
        raise DumpFormatError(number, f"expected a space after the key {key}, found {line[5]!r}")
    if len(line) < 7:
        return  # qload: "Doesn't have a value"
    value = line[6:]
    if attr.kind == "long":
        setattr(md, attr.field, _long_value(attr, value, number))
    elif attr.kind == "char":
        setattr(md, attr.field, _char_value(attr, value, number))
    else:
        setattr(md, attr.field, _hex_value(attr, value, md, number))


def _long_value(attr: _Attr, value: str, number: int) -> int:
    text = value.strip(" ")
    if not _LONG_TEXT.fullmatch(text):
        raise DumpFormatError(number, f"A {attr.key}: expected a whole number, found {text!r}")
    result = int(text)
    if not _MQLONG_MIN <= result <= _MQLONG_MAX:
        raise DumpFormatError(number, f"A {attr.key}: {result} does not fit in an MQLONG")
    return result


def _char_value(attr: _Attr, value: str, number: int) -> str:
    """Characters as MD keeps them: trailing blanks dropped, except Format (a CMQC constant)."""
    text = value.rstrip(" ")
    length = field_length(MD, attr.field)
    if len(text) > length:
        raise DumpFormatError(
            number, f"A {attr.key}: the field holds {length} characters, the value has {len(text)}"
        )
    return text.ljust(length) if attr.field == "Format" else text


def _hex_value(attr: _Attr, value: str, md: MD, number: int) -> bytes | str:
    """Hex digits into a byte field, or a character field written in hex (AIX, AOX).

    As in qload, a value shorter than the field replaces only the leading bytes.
    """
    digits = value.rstrip(" ")
    length = field_length(MD, attr.field)
    run = _HEX_RUN.match(digits)
    assert run is not None  # the pattern matches the empty string
    if run.end() < len(digits):
        bad = digits[run.end()]
        raise DumpFormatError(
            number, f"A {attr.key}: expected hex digits, found {bad!r} at column {7 + run.end()}"
        )
    if len(digits) % 2:
        raise DumpFormatError(number, f"A {attr.key}: odd number of hex digits (2 per byte)")
    raw = bytes.fromhex(digits)
    if len(raw) > length:
        raise DumpFormatError(
            number, f"A {attr.key}: the field holds {length} bytes, the value has {len(raw)}"
        )
    merged = raw + field_bytes(md, attr.field)[len(raw) :]
    if isinstance(getattr(md, attr.field), bytes):
        return merged
    return merged.decode("latin-1").rstrip(" ")


def _data(kind: str, line: str, number: int) -> bytes:
    """The bytes of one X, S or T line."""
    if kind == "T":
        return line[2:].encode("latin-1") + b"\n"  # qload ends every T line's content with LF
    rest = line[1:].lstrip(" ")
    column = len(line) - len(rest) + 1
    if kind == "X":
        return _hex_data(rest, column, number)
    if rest.startswith('"'):
        return _quoted(rest, number).encode("latin-1")
    return rest.rstrip(" ").encode("latin-1")


def _hex_data(rest: str, column: int, number: int) -> bytes:
    run = _HEX_RUN.match(rest)
    assert run is not None
    digits = run.group()
    if not _ASCII_COLUMN.fullmatch(rest, run.end()):
        bad = rest[run.end()]
        raise DumpFormatError(
            number, f"X line: expected hex digits, found {bad!r} at column {column + run.end()}"
        )
    if len(digits) % 2:
        raise DumpFormatError(number, "X line: odd number of hex digits (2 per byte)")
    return bytes.fromhex(digits)


def _quoted(rest: str, number: int) -> str:
    """An S line's quoted string: ``~"`` stands for ``"`` and ``~~`` for ``~``."""
    out: list[str] = []
    i = 1
    while i < len(rest):
        char = rest[i]
        if char == '"':
            if rest[i + 1 :].strip(" "):
                raise DumpFormatError(number, "S line: expected nothing after the closing '\"'")
            return "".join(out)
        if char == _ESCAPE:
            escaped = rest[i + 1 : i + 2]
            if escaped not in ('"', _ESCAPE):
                raise DumpFormatError(
                    number, f"S line: '~' escapes only '\"' and '~', found '~{escaped}'"
                )
            out.append(escaped)
            i += 2
            continue
        out.append(char)
        i += 1
    raise DumpFormatError(number, "S line: expected a closing '\"'")


# ---------------------------------------------------------------------------------------------
# writing
def format_dmpmqmsg(
    messages: Iterable[tuple[MD, bytes]], *, created: datetime, qmgr: str = "", queue: str = ""
) -> str:
    """A dump in dmpmqmsg's default format: header, then per message its A lines and X lines.

    The header's ``Created:`` is ``created`` as C's ctime() writes it; the ``* Qmgr`` and
    ``* Queue`` lines appear when those names are given (dmpmqmsg writes them when it reads a
    queue). VER and GRP..ORL are written only for a version-2 descriptor, character fields keep
    their trailing blanks, and an empty message is written as ``X `` with no digits.
    """
    out = [f"* DMPMQMSG Version:{DUMP_VERSION} Created:{created.ctime()}\n"]
    if qmgr:
        out.append(f"* Qmgr  = {qmgr[:48]}\n")
    if queue:
        out.append(f"* Queue = {queue[:48]}\n")
    out.append("\n")
    for md, data in messages:
        out.extend(_attribute_line(md, attr) for attr in _WRITTEN if md.Version >= attr.version)
        if data:
            out.extend(
                f"X {data[i : i + DATA_WIDTH].hex().upper()}\n"
                for i in range(0, len(data), DATA_WIDTH)
            )
        else:
            out.append("X \n")
        out.append("\n")
    return "".join(out)


def _attribute_line(md: MD, attr: _Attr) -> str:
    if attr.kind == "long":
        return f"A {attr.key} {getattr(md, attr.field):d}\n"
    if attr.kind == "char":
        return f"A {attr.key} {printed_chars(md, attr.field)}\n"
    return f"A {attr.key} {printed_hex(md, attr.field)}\n"


# ---------------------------------------------------------------------------------------------
# queues
def load_dmpmqmsg(
    qm: QueueManager,
    queue: str,
    source: str | bytes | os.PathLike[str],
    *,
    transaction_limit: int | None = None,
) -> int:
    """Put every message of a dump onto ``queue``, with its descriptor; returns how many.

    ``source`` is the dump: a path (``os.PathLike``, or a ``str`` without a line break), its
    text (a ``str`` with line breaks) or its bytes. The whole file is parsed first, so a
    malformed one raises :class:`DumpFormatError` before anything is put. The messages are
    then put with MQPMO_SET_ALL_CONTEXT (MsgId, UserIdentifier, PutDate, PutTime... survive)
    and MQPMO_SYNCPOINT, so the queue manager must have no unit of work open (ValueError
    otherwise).

    ``transaction_limit`` chooses how the puts are committed. ``None``, the default, is
    mqlearn's own choice: the whole file is one unit of work, so if any put fails the unit of
    work is backed out and the queue is left as it was. A number ``n`` works as IBM's utility
    does with ``dmpmqmsg -t n``: a commit after every ``n`` messages, so a failing put backs
    out only the batch still open, and the batches committed before it stay on the queue. Either
    way the MQMIError is raised again, saying which message was refused and what was kept.

    Expiry: a dump records the *remaining* lifetime at unload time (rule EXP-11), and the load
    puts with that value, so each loaded message's lifetime starts again at load time
    (EXP-01) and it expires lazily like any message (EXP-20..24). BackoutCount is output-only
    on MQPUT: loaded messages start at 0.
    """
    if transaction_limit is not None and (
        isinstance(transaction_limit, bool) or not isinstance(transaction_limit, int)
    ):
        raise TypeError(
            f"transaction_limit must be an int or None, got {type(transaction_limit).__name__}"
        )
    if transaction_limit is not None and transaction_limit < 1:
        raise ValueError(f"transaction_limit must be 1 or more, got {transaction_limit}")
    messages = parse_dmpmqmsg(_source_text(source))
    if qm.in_unit_of_work:
        raise ValueError(
            f"load_dmpmqmsg loads in its own unit of work, but {qm.name} has one open with "
            f"{qm.in_unit_of_work} operation(s): commit or back it out first"
        )
    handle = Queue(qm, queue)  # MQOPEN: an unknown queue fails here, before any put
    pmo_options = C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_SYNCPOINT
    committed = 0
    try:
        for position, message in enumerate(messages, start=1):
            try:
                handle.put(message.data, message.md.copy(), PMO(Options=pmo_options))
            except MQMIError as error:
                kept = _kept(committed)
                raise MQMIError(
                    error.comp,
                    error.reason,
                    f"message {position} of {len(messages)} (line {message.line}) was refused"
                    f"{': ' + error.detail if error.detail else ''}; {kept}",
                ) from error
            if transaction_limit is not None and position % transaction_limit == 0:
                qm.commit()  # dmpmqmsg -t: the batch is safe from here on
                committed = position
    except BaseException:
        qm.backout()  # only the batch still open: committed batches stay
        raise
    finally:
        handle.close()
    qm.commit()
    return len(messages)


def _kept(committed: int) -> str:
    """What a failed load leaves behind, for its error message."""
    if not committed:
        return "nothing was loaded"
    kept = (
        "message 1 was committed before it and stays"
        if committed == 1
        else f"messages 1 to {committed} were committed before it and stay"
    )
    return f"{kept} on the queue; only the open batch was backed out"


def _source_text(source: str | bytes | os.PathLike[str]) -> str:
    """A dump's text, one character per byte (Latin-1), from a path, bytes or the text itself."""
    if isinstance(source, bytes):
        return source.decode("latin-1")
    if isinstance(source, str) and (not source or "\n" in source):
        return source
    return Path(source).read_bytes().decode("latin-1")


def dump_dmpmqmsg(qm: QueueManager, queue: str, browse: bool = True) -> str:
    """Every live message on ``queue`` in dmpmqmsg's format (see :func:`format_dmpmqmsg`).

    Browses (as ``dmpmqmsg -i``) or, with ``browse=False``, gets destructively (``-I``), using
    a version-2 descriptor, so the dump has VER and GRP..ORL lines. Expiry is each message's
    remaining lifetime (rule EXP-11), and expired messages met on the way are discarded, never
    dumped (lazy expiry, EXP-21, EXP-24). The header's ``Created:`` is the virtual clock's time.
    """
    options = C.MQGMO_NO_WAIT | (C.MQGMO_BROWSE_NEXT if browse else C.MQGMO_NO_SYNCPOINT)
    messages = read_all(qm, queue, GMO(Options=options))
    return format_dmpmqmsg(messages, created=qm.sim.datetime(), qmgr=qm.name, queue=queue)
