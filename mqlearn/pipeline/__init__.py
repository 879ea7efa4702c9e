"""Replay and analyse traces of MQI operations with the engine's expiry rules (docs/pipeline.md).

The pandas side lives here (schema, validation, single-process replay, event-log conversion); the
Spark side (``spark*``, ``generate``, ``analytics``, ``sweep``) calls :func:`replay_partition`.
The names below load on first use (PEP 562): ``mqlearn pipeline run --engine local`` imports
``mqlearn.pipeline.stream`` alone and never pays for pandas or the engine's event log.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mqlearn.pipeline.replay import Replay, replay_local, replay_partition
    from mqlearn.pipeline.schema import (
        OUTPUT_COLUMNS,
        QUEUE_COLUMNS,
        SCHEMA_VERSION,
        TRACE_COLUMNS,
        ReconcileError,
        SchemaError,
        missing_or_mistyped,
    )
    from mqlearn.pipeline.session_trace import queues_of, trace_from_events

_HOMES = {
    "queues_of": "session_trace",
    "trace_from_events": "session_trace",
    "Replay": "replay",
    "replay_local": "replay",
    "replay_partition": "replay",
    "OUTPUT_COLUMNS": "schema",
    "QUEUE_COLUMNS": "schema",
    "SCHEMA_VERSION": "schema",
    "TRACE_COLUMNS": "schema",
    "ReconcileError": "schema",
    "SchemaError": "schema",
    "missing_or_mistyped": "schema",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"mqlearn.pipeline.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'mqlearn.pipeline' has no attribute {name!r}")


__all__ = [
    "OUTPUT_COLUMNS",
    "QUEUE_COLUMNS",
    "SCHEMA_VERSION",
    "TRACE_COLUMNS",
    "ReconcileError",
    "Replay",
    "SchemaError",
    "missing_or_mistyped",
    "queues_of",
    "replay_local",
    "replay_partition",
    "trace_from_events",
]
