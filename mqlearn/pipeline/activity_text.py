"""Read the verbose text that IBM's ``amqsact -v`` sample prints.

Each activity trace message starts with ``MonitoringType: MQI Activity Trace``, then the
message descriptor's ``Correl_id`` (the connection id, as a hex dump) and the header's
parameters, one ``Label: value`` a line; then ``MQI Operation: N`` for each operation, with its
parameters indented by two spaces; then a line of ``=``. Strings are quoted (``'APP.Q'``),
integers are decimal or a constant's name (``MQXF_PUT``, ``MQCC_OK``), byte strings (``Msg_id``,
``Correl_id``) follow their label as hex dump lines ``00000000:  414D 5120 ...  'AMQ ...'``.
Parameters of a group nested in an operation (a distribution list) are indented further.

Anything else in the file is an :class:`ActivityFormatError` naming the file and line: a
verbose trace that cannot be read whole is not guessed at.
"""

from __future__ import annotations

import re

from mqlearn.pipeline.activity_fields import ActivityFormatError, Operation, Record, canonical

_SEPARATOR = re.compile(r"=+\s*")
_START = re.compile(r"MonitoringType:\s*(.*?)\s*")
_HEX_LINE = re.compile(r"\s*[0-9A-Fa-f]{8}:\s((?: [0-9A-Fa-f]{2,4})+)(?:\s+'.*')?\s*")
_OPERATION = re.compile(r"MQI Operation:\s*\d+\s*")
_FIELD = re.compile(r"( *)([^:']+?)\s*:(?: (.*?))?\s*")
_QUOTED = re.compile(r"'(.*)'")
NESTED = "nested_group"  # a field set on an operation that holds a nested group


class _Reader:
    """Walks the lines, keeping the record and operation being read and the byte string whose
    hex dump lines may follow."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.records: list[Record] = []
        self.record: Record | None = None
        self.operation: Operation | None = None
        self.pending: tuple[dict[str, object], str] | None = None  # (fields, name) of hex

    def fail(self, number: int, line: str, why: str) -> ActivityFormatError:
        return ActivityFormatError(f"{self.source}:{number}: {why}: {line.strip()!r}")

    def line(self, number: int, line: str) -> None:
        if not line.strip():
            return
        if self.pending is not None:
            hexed = _HEX_LINE.fullmatch(line)
            if hexed:
                fields, name = self.pending
                fields[name] = str(fields.get(name, "")) + hexed.group(1).replace(" ", "")
                return
            self.pending = None
        started = _START.fullmatch(line)
        if started:
            kind = started.group(1)
            trace = kind.startswith("MQI Activity Trace")
            self.record = Record(line=number, not_trace=None if trace else f"MonitoringType {kind}")
            self.records.append(self.record)
            self.operation = None
            return
        if _SEPARATOR.fullmatch(line):
            self.record = self.operation = None
            return
        if self.record is None:
            if not self.records:
                raise self.fail(
                    number,
                    line,
                    "expected 'MonitoringType: MQI Activity Trace' (amqsact -v output)",
                )
            raise self.fail(number, line, "not in an activity trace record")
        if _OPERATION.fullmatch(line):
            self.operation = Operation(line=number)
            self.record.operations.append(self.operation)
            return
        found = _FIELD.fullmatch(line)
        if not found:
            raise self.fail(number, line, "cannot read this line as amqsact -v output")
        self.field(len(found.group(1)), found.group(2), found.group(3) or "")

    def field(self, indent: int, label: str, value: str) -> None:
        assert self.record is not None
        operation = self.operation if indent >= 2 else None
        if indent >= 4 or (operation is not None and label.startswith(("GROUP(", "Distribution"))):
            if self.operation is not None:
                self.operation.fields[NESTED] = label
            return
        name = canonical(label)
        fields = self.record.header if operation is None else operation.fields
        if not value:  # a byte string: its hex dump lines follow (kept if we use it)
            key = "md_correl_id" if operation is None and name == "correl_id" else name
            self.pending = (fields, key) if key is not None else ({}, label)
            return
        if name is None:
            return
        quoted = _QUOTED.fullmatch(value)
        fields[name] = quoted.group(1) if quoted else value


def parse_amqsact(content: str, source: str) -> list[Record]:
    """The records of an ``amqsact -v`` output (see the module docstring)."""
    reader = _Reader(source)
    for number, line in enumerate(content.splitlines(), start=1):
        reader.line(number, line)
    if not reader.records:
        raise ActivityFormatError(
            f"{source}: no activity trace records (no 'MonitoringType:' line); is it the output "
            "of amqsact -v?"
        )
    for record in reader.records:
        correl = record.header.pop("md_correl_id", None)
        record.md_correl_id = None if correl is None else str(correl).lower()
    return reader.records
