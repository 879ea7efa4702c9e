"""Replay and analyse traces of MQI operations with the engine's expiry rules (docs/pipeline.md).

The pandas side lives here (schema, validation, single-process replay, event-log conversion); the
Spark side (``spark*``, ``generate``, ``analytics``, ``sweep``) calls :func:`replay_partition`.
"""

from mqlearn.pipeline.events import queues_of, trace_from_events
from mqlearn.pipeline.replay import ReconcileError, Replay, replay_local, replay_partition
from mqlearn.pipeline.schema import (
    OUTPUT_COLUMNS,
    QUEUE_COLUMNS,
    SCHEMA_VERSION,
    TRACE_COLUMNS,
    SchemaError,
    missing_or_mistyped,
)

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
