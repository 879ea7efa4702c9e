"""What ``mqlearn pipeline import-activity`` offers, without pandas or pyarrow: the two file
formats and their parsers, the get-match choices and the default queue definition. The command's
parser is built from these on every ``mqlearn`` call (``mqlearn course`` included), so this module
imports only the parsers, which need neither."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mqlearn.pipeline.activity_fields import Record
from mqlearn.pipeline.activity_json import parse_amqsevt_json
from mqlearn.pipeline.activity_text import parse_amqsact

FORMATS: dict[str, Callable[[str, str], list[Record]]] = {
    "amqsevt-json": parse_amqsevt_json,
    "amqsact": parse_amqsact,
}
GET_MATCH = ("none", "msg_id", "correl_id")


@dataclass(frozen=True)
class QueueDefaults:
    """The definition given to every traced queue that ``queues`` does not define: MQ's defaults
    for DEFINE QLOCAL on a distributed queue manager, with its 300 s expiry task."""

    msgdlvsq: str = "PRIORITY"
    defprty: int = 0
    maxdepth: int = 5000
    capexpry: int = -1
    profile: str = "distributed"
    expiry_interval_s: int = 300
