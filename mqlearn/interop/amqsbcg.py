"""Messages printed as IBM's browse sample amqsbcg prints them.

amqsbcg (``amqsbcg QName [QMgrName]``) browses a queue and prints, for each message, the message
descriptor, a dead-letter header when the message has one, and the data as rows of 16 bytes in
hex with a character column. Learners meet its output in IBM's documentation, in forums and in
their own terminals; printing mqlearn's messages the same way lets them compare line for line.

The layout is that of the sample's ``printMD``, ``printDLH`` and main loop (IBM MQ 9.x), including
the summary at the end of a run. The spacing between the hex and the character column is the one
amqsbcg prints under a UTF-8 locale (MB_CUR_MAX 6), as in the real captures, and a valid UTF-8
sequence shows as its character, as it does there. Message properties (``printProperties``) are
not printed: the browse here names no message handle, so a message's properties come as an MQRFH2
at the start of the data, or not at all, as the queue's PROPCTL says (docs/engine.md, "Message
properties"), as they do for the older amqsbcg of the captures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mqlearn.interop.fields import printed_chars, printed_hex
from mqlearn.interop.reading import read_all
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import reason_name
from mqlearn.mqi.headers import MQDLH
from mqlearn.mqi.structs import GMO, MD

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager

BUFFER_LENGTH = 65536  # amqsbcg reads at most this many bytes of a message (MQGMO_ACCEPT_TRUNCATED)
CHARS_PER_LINE = 16
MB_CUR_MAX = 6  # the C library's longest multibyte character under a UTF-8 locale (glibc)
_PAGE_LINES = 60  # after this many rows amqsbcg prints a spacer line
_FIRST_PAGE_USED = 29  # rows already counted on the page before the first message's data
_NEXT_PAGE_USED = 22  # ... before the data of each later message
_UTF8_LENGTHS = ((0xC2, 0xDF, 2), (0xE0, 0xEF, 3), (0xF0, 0xF4, 4))
_DOT = ord(".")
_BLANK = ord(" ")


def format_amqsbcg(md: MD, data: bytes, *, index: int = 1) -> str:
    """One message as amqsbcg prints it, from `` MQGET of message number <index>`` to its last row.

    The descriptor block lists every MQMD field (version-2 fields included, as amqsbcg browses
    with a version-2 MQMD); a dead-letter header block follows when Format is MQFMT_DEAD_LETTER_HEADER
    and the data starts with an MQDLH, and the rows then show the data after it. Data beyond
    65 536 bytes is not shown, and the call is then reported with MQRC_TRUNCATED_MSG_ACCEPTED, as
    amqsbcg's buffer makes it. ``index`` is the message's number in the browse.
    """
    return _message(md, data, index).removeprefix("\n") + "\n"


def format_amqsbcg_run(queue: str, messages: Sequence[tuple[MD, bytes]]) -> str:
    """The whole output of an amqsbcg run over a queue holding ``messages``, summary included."""
    out = [
        "\nAMQSBCG0 - starts here\n",
        "**********************\n ",
        f"\n MQOPEN - '{queue[:48]}'\n ",
    ]
    for index, (md, data) in enumerate(messages, start=1):
        if index > 1:
            out.append("\n ")  # the top of amqsbcg's get loop, after the first page
        out.append("\n ")
        out.append(_message(md, data, index))
    if messages:
        out.append("\n ")
    out.append("\n \n \n No more messages ")
    if messages:
        lengths = [len(data) for _, data in messages]
        out.append(
            f"\n\n****   Summary      ****\n {len(lengths)} messages browsed.\n"
            f" Smallest message {min(lengths)} bytes.\n Largest message {max(lengths)} bytes.\n"
            f" Average message {sum(lengths) // len(lengths)} bytes.\n"
        )
    out.append("\n MQCLOSE\n MQDISC\n")
    return "".join(out)


def browse_amqsbcg(qm: QueueManager, queue: str) -> str:
    """Browse ``queue`` as amqsbcg does and return what it would print.

    The browse is a real one on the simulated queue: expired messages met on the way are
    discarded and never printed (lazy expiry, rules EXP-21, EXP-24), and each Expiry shown is
    the remaining lifetime (EXP-11). Opening a queue that does not exist raises MQMIError (2085).
    """
    gmo = GMO(
        Version=C.MQGMO_VERSION_2,
        MatchOptions=C.MQMO_NONE,
        Options=C.MQGMO_NO_WAIT | C.MQGMO_ACCEPT_TRUNCATED_MSG | C.MQGMO_BROWSE_NEXT,
    )
    messages = read_all(qm, queue, gmo)
    return format_amqsbcg_run(queue, messages)


def _message(md: MD, data: bytes, index: int) -> str:
    """What amqsbcg prints for one message, starting with the newline before ``MQGET of``."""
    truncated = len(data) > BUFFER_LENGTH
    comp = C.MQCC_WARNING if truncated else C.MQCC_OK
    reason = C.MQRC_TRUNCATED_MSG_ACCEPTED if truncated else C.MQRC_NONE
    out = [f"\n MQGET of message number {index}, CompCode:{comp} Reason:{reason}", _descriptor(md)]
    dlh = _dead_letter_header(md, data)
    offset = 0
    if dlh is not None:
        out.append(_dlh_block(dlh))
        offset = C.MQDLH_LENGTH_1
    length = len(data) - offset
    shown = data[offset : offset + min(length, BUFFER_LENGTH - offset)]
    out.append(f"\n \n****   Message      ****\n \n length - {len(shown)} of {length} bytes\n ")
    out.append(_rows(shown, _FIRST_PAGE_USED if index == 1 else _NEXT_PAGE_USED))
    return "".join(out)


def _descriptor(md: MD) -> str:
    """printMD: every descriptor field, IBM's labels and spacing."""
    return "".join(
        (
            "\n****Message descriptor****\n",
            f"\n  StrucId  : '{printed_chars(md, 'StrucId')}'  Version : {md.Version}",
            f"\n  Report   : {md.Report}  MsgType : {md.MsgType}",
            f"\n  Expiry   : {md.Expiry}  Feedback : {md.Feedback}",
            f"\n  Encoding : {md.Encoding}  CodedCharSetId : {md.CodedCharSetId}",
            f"\n  Format : '{printed_chars(md, 'Format')}'",
            f"\n  Priority : {md.Priority}  Persistence : {md.Persistence}",
            f"\n  MsgId : X'{printed_hex(md, 'MsgId')}'",
            f"\n  CorrelId : X'{printed_hex(md, 'CorrelId')}'",
            f"\n  BackoutCount : {md.BackoutCount}",
            f"\n  ReplyToQ       : '{printed_chars(md, 'ReplyToQ')}'",
            f"\n  ReplyToQMgr    : '{printed_chars(md, 'ReplyToQMgr')}'",
            "\n  ** Identity Context",
            f"\n  UserIdentifier : '{printed_chars(md, 'UserIdentifier')}'",
            f"\n  AccountingToken : \n   X'{printed_hex(md, 'AccountingToken')}'",
            f"\n  ApplIdentityData : '{printed_chars(md, 'ApplIdentityData')}'",
            "\n  ** Origin Context",
            f"\n  PutApplType    : '{md.PutApplType}'",
            f"\n  PutApplName    : '{printed_chars(md, 'PutApplName')}'",
            f"\n  PutDate  : '{printed_chars(md, 'PutDate')}'",
            f"    PutTime  : '{printed_chars(md, 'PutTime')}'",
            f"\n  ApplOriginData : '{printed_chars(md, 'ApplOriginData')}'\n",
            f"\n  GroupId : X'{printed_hex(md, 'GroupId')}'",
            f"\n  MsgSeqNumber   : '{md.MsgSeqNumber}'",
            f"\n  Offset         : '{md.Offset}'",
            f"\n  MsgFlags       : '{md.MsgFlags}'",
            f"\n  OriginalLength : '{md.OriginalLength}'",
        )
    )


def _dead_letter_header(md: MD, data: bytes) -> MQDLH | None:
    """The MQDLH at the start of ``data`` when amqsbcg would print one, else None.

    amqsbcg's test: Format MQFMT_DEAD_LETTER_HEADER, at least 172 bytes, StrucId "DLH ". A header
    whose Version mqlearn does not know is left in the data rows.
    """
    if md.Format.ljust(8) != C.MQFMT_DEAD_LETTER_HEADER or len(data) < C.MQDLH_LENGTH_1:
        return None
    if data[:4] != C.MQDLH_STRUC_ID.encode("ascii"):
        return None
    try:
        return MQDLH.unpack(data)
    except ValueError:
        return None


def _dlh_block(dlh: MQDLH) -> str:
    """printDLH: the dead-letter header's fields, the reason code with its name."""
    name = reason_name(dlh.Reason)
    if not name.startswith("MQRC_") or name.startswith("MQRC_UNKNOWN("):
        name = "UNKNOWN RC"  # amqsbcg names reason codes only (MQRC_STR), not feedback codes
    return "".join(
        (
            "\n\n****Dead Letter Header****\n",
            f"\n  StrucId  : '{printed_chars(dlh, 'StrucId')}'  Version : {dlh.Version}",
            f"\n  Reason   : {dlh.Reason} [{name}]",
            f"\n  DestQName      : '{printed_chars(dlh, 'DestQName')}'",
            f"\n  DestQMgrName   : '{printed_chars(dlh, 'DestQMgrName')}'",
            f"\n  Encoding : {dlh.Encoding}  CodedCharSetId : {dlh.CodedCharSetId}",
            f"\n  Format : '{printed_chars(dlh, 'Format')}'",
            f"\n  PutApplType    : '{dlh.PutApplType}'",
            f"\n  PutApplName    : '{printed_chars(dlh, 'PutApplName')}'",
            f"\n  PutDate  : '{printed_chars(dlh, 'PutDate')}'",
            f"    PutTime  : '{printed_chars(dlh, 'PutTime')}'",
        )
    )


def _rows(data: bytes, page_used: int) -> str:
    """The hex rows: offset, 16 bytes in groups of two, the character column.

    As in amqsbcg, a multibyte character is kept whole on one row (the next row then starts
    with blanks in its place), and a spacer line follows every 60th line of the page.
    """
    out: list[str] = []
    position = 0
    overrun = 0
    while True:
        count = 0
        row = [f"\n{position:08X}: "]
        text = bytearray()
        while overrun > 0:  # the places taken by the end of the last row's character
            row.append("   " if overrun % 2 else "  ")
            text.append(_BLANK)
            count += 1
            overrun -= 1
        while count < CHARS_PER_LINE and position < len(data):
            width = _utf8_width(data, position)
            for byte in data[position : position + width]:
                if count % 2 == 0 and count < CHARS_PER_LINE:
                    row.append(" ")
                row.append(f"{byte:02X}")
                text.append(byte if width > 1 or 0x20 <= byte < 0x7F else _DOT)
                count += 1
            position += width
        overrun = max(count - CHARS_PER_LINE, 0)
        for place in range(count, CHARS_PER_LINE):
            row.append("   " if place % 2 == 0 else "  ")
            text.append(_BLANK)
        row.append(" " * ((MB_CUR_MAX - overrun - 1) * 2))
        row.append(f" '{text.decode('utf-8')}'")
        out.append("".join(row))
        page_used += 1
        if page_used >= _PAGE_LINES:
            page_used = 0
            out.append("\n ")
        if position >= len(data):
            return "".join(out)


def _utf8_width(data: bytes, position: int) -> int:
    """Bytes in the character at ``position``: a valid UTF-8 sequence's length, else 1 (mblen)."""
    lead = data[position]
    for low, high, width in _UTF8_LENGTHS:
        if low <= lead <= high:
            try:
                data[position : position + width].decode("utf-8")
            except UnicodeDecodeError:  # not valid, or cut short by the end of the data
                return 1
            return width
    return 1
