"""Read the JSON that IBM's ``amqsevt -o json`` (C) and ``amqsevtg`` (Go) samples print.

Each event is one JSON object: ``eventSource``, ``eventType`` (an activity trace is
``{"name": "Activity Trace", "value": 209}``), ``eventReason``, ``eventCreation`` and
``eventData``, which holds the trace header's parameters and ``activityTrace``: one object per
MQI operation. The C sample prints the objects one after another, pretty-printed, with a blank
line before each; the Go sample prints them pretty-printed, one per line (``-o compact``) or as
one JSON array (``-o array``). All of these are read: objects separated by white space, commas
or the brackets of an array.

The C sample escapes only ``"`` and ``\\`` in strings, so other control characters may appear
raw: the decoder is not strict about them. Malformed JSON raises :class:`ActivityFormatError`
naming the file, line and column.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from mqlearn.pipeline.activity_fields import (
    MQCMD_ACTIVITY_TRACE,
    ActivityFormatError,
    Operation,
    Record,
    canonical,
    integer,
)

_DECODER = json.JSONDecoder(strict=False)
_SEPARATORS = " \t\r\n,[]"


def _events(content: str, source: str) -> Iterator[tuple[int, int, Any]]:
    """(start, end, value) of each top-level JSON value."""
    pos, size, first = 0, len(content), True
    while True:
        while pos < size and content[pos] in _SEPARATORS:
            pos += 1
        if pos >= size:
            return
        try:
            value, end = _DECODER.raw_decode(content, pos)
        except json.JSONDecodeError as error:
            hint = "; is it amqsevt -o json output?" if first else ""
            raise ActivityFormatError(
                f"{source}:{error.lineno}:{error.colno}: malformed JSON ({error.msg}){hint}"
            ) from None
        yield pos, end, value
        pos, first = end, False


_SPECIAL = re.compile(r'[\\"{}\[\]]')


def _operation_starts(content: str, start: int, end: int) -> list[int]:
    """Offsets of the objects that are elements of an array directly inside ``eventData``
    (the operations), found by walking the brackets of the event's text outside strings."""
    starts: list[int] = []
    stack: list[str] = []
    in_string = False
    skip = -1  # the offset of an escaped character
    for found in _SPECIAL.finditer(content, start, end):
        index, char = found.start(), found.group()
        if index == skip:
            continue
        if in_string:
            if char == "\\":
                skip = index + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            if char == "{" and stack == ["{", "{", "["]:
                starts.append(index)
            stack.append(char)
        elif stack:
            stack.pop()
    return starts


def _is_activity_trace(event: Mapping[str, Any]) -> str | None:
    """None for an activity trace event, else what the event is."""
    kind = event.get("eventType")
    try:
        if integer(kind) == MQCMD_ACTIVITY_TRACE:
            return None
    except ValueError:
        pass
    name = kind.get("name", kind) if isinstance(kind, Mapping) else kind
    if str(name).replace(" ", "").replace("_", "").lower() in (
        "activitytrace",
        "mqcmdactivitytrace",
    ):
        return None
    return f"event {name!r}, not an activity trace"


def _record(event: Any, line: int, op_lines: list[int], source: str) -> Record:
    if not isinstance(event, Mapping) or "eventData" not in event:
        raise ActivityFormatError(f"{source}:{line}: a JSON value that is not an amqsevt event")
    record = Record(line=line, not_trace=_is_activity_trace(event))
    data = event["eventData"]
    if record.not_trace is not None or not isinstance(data, Mapping):
        return record
    operations: list[Any] = []
    for key, value in data.items():
        name = canonical(key)
        if name is not None:
            record.header[name] = value
        elif key.replace("_", "").lower() in ("activitytrace", "mqgacfactivitytrace"):
            operations = list(value) if isinstance(value, list) else [value]
    if len(op_lines) != len(operations):  # another array of objects: fall back to the event's line
        op_lines = [line] * len(operations)
    for op_line, group in zip(op_lines, operations, strict=True):
        if not isinstance(group, Mapping):
            raise ActivityFormatError(
                f"{source}:{op_line}: an activityTrace entry is not an object"
            )
        named = ((canonical(key), value) for key, value in group.items())
        fields = {name: value for name, value in named if name is not None}
        record.operations.append(Operation(line=op_line, fields=fields))
    return record


def parse_amqsevt_json(content: str, source: str) -> list[Record]:
    """The records of an ``amqsevt -o json`` / ``amqsevtg`` output (see the module docstring)."""
    newlines = [found.start() for found in re.finditer("\n", content)]

    def line_of(offset: int) -> int:
        return bisect.bisect_left(newlines, offset) + 1

    records = []
    for start, end, event in _events(content, source):
        op_lines = [line_of(offset) for offset in _operation_starts(content, start, end)]
        records.append(_record(event, line_of(start), op_lines, source))
    if not records:
        raise ActivityFormatError(f"{source}: no JSON events in the file")
    return records
