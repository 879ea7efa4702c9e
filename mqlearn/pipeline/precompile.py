"""Compile the replay's numba code before its first run (``mqlearn pipeline compile``).

numba compiles a function the first time it is called with a new combination of argument types,
and caches the machine code (``njit(cache=True)``: beside the module, or in NUMBA_CACHE_DIR), so
the first run after an install pays for all of it: about 14 s on the development machine, where
a warm run of a small trace takes 1.4 s. ``make lab``, ``make test`` and Binder's postBuild run
:func:`compile_replay` right after installing, so that a learner's first replay starts warm.

The argument types depend on the input's layout, not its size: a piece replayed as the file
holds it passes Arrow's own read-only arrays, a piece the replay had to sort passes arrays of its
own, and only a trace cut into pieces carries messages over. One small generated trace in each
layout (whole queues, seq order, shuffled) replayed in pieces meets every combination; the
functions only a big trace reaches are called directly. ``tests/pipeline/test_precompile.py``
checks that other traces compile nothing more.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from mqlearn.pipeline.generate import TraceSpec, generate_local
from mqlearn.pipeline.order import by_bucket
from mqlearn.pipeline.progress_bar import Progress
from mqlearn.pipeline.replay import replay_local
from mqlearn.pipeline.schema import TRACE_COLUMNS
from mqlearn.pipeline.spark import arrow_schema
from mqlearn.pipeline.stream import replay_files

# small, but with every kind of row: puts, gets, matching gets, browses, outages and scans
SPEC = TraceSpec(seed=11, events=12_000, queues=6, qmgrs=2, hours=1.0, outage_share=0.5)
PIECE_ROWS = 1_000  # a dozen pieces: messages are carried across every cut
SCAN_S = 60  # every queue manager's expiry interval: scans discard, and depth rows record them


def _layouts(trace: pa.Table) -> dict[str, pa.Table]:
    """The trace as the replay meets traces: whole queues, seq order, and no order at all."""
    by_queue = trace.sort_by([("qmgr", "ascending"), ("queue", "ascending"), ("seq", "ascending")])
    shuffled = np.random.default_rng(SPEC.seed).permutation(trace.num_rows)
    return {"grouped": by_queue, "seq": trace, "shuffled": trace.take(pa.array(shuffled))}


def compile_replay(work: Path | None = None) -> float:
    """Replay :data:`SPEC` in every layout (files in ``work``, a temporary directory by
    default) so that numba compiles and caches every function for every argument type a
    replay passes it; returns the seconds it took."""
    start = time.perf_counter()
    frame, queues = generate_local(SPEC)
    # (the generator may leave a queue manager without scans)
    queues["expiry_interval_s"] = np.full(len(queues), SCAN_S, dtype=np.int32)
    replay_local(frame, queues)
    trace = pa.Table.from_pandas(frame, schema=arrow_schema(TRACE_COLUMNS), preserve_index=False)
    with tempfile.TemporaryDirectory(dir=work) as scratch:
        root = Path(scratch)
        queues.to_parquet(root / "definitions.parquet", index=False)
        for name, table in _layouts(trace).items():
            pq.write_table(table, root / f"{name}.parquet")
            replay_files(
                root / f"{name}.parquet",
                root / "definitions.parquet",
                root / name,
                batch_rows=PIECE_ROWS,
                progress=Progress(),
            )
    by_bucket(np.arange(64, dtype=np.int64), 4)  # spilling repeated seq values: > 8M rows
    return time.perf_counter() - start
