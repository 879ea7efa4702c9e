"""The Spark settings the CLI starts a session with, chosen from the machine and the trace.

``mqlearn pipeline run`` should be as fast with its defaults as the benchmark is with hand-picked
settings, on a laptop and on a cluster. :func:`choose` decides, from what it can see before any
JVM starts (docs/pipeline.md, "Spark settings the CLI chooses"):

- **driver memory** (``spark.driver.memory``), only for a local master, where the executors live
  in the driver's JVM: 1 GiB plus twice the trace's size on disk, at most a quarter of the RAM
  and at most MAX_HEAP (the process tree stays within 4 GiB with the Python workers);
  on a cluster the driver only collects one row of counts a task, so the cluster's own setting
  stays;
- **shuffle partitions** (``spark.sql.shuffle.partitions``) for a local master: two per core
  (Spark's default of 200 makes hundreds of near-empty tasks on a laptop); on a cluster,
  Spark's (adaptive execution coalesces them there);
- **strategy**: "auto" (whole files in the tasks when every queue lies in one file, else a
  shuffle), whatever the files: even a trace in one file, which keeps one task on one core, was
  replayed three times faster that way than shuffled over both cores (docs/pipeline.md);
- **partitions** (tasks of the replay): left to ``replay_spark``: two per core, and with the
  shuffle at most ROWS_PER_TASK rows each (it counts the rows first).

``--driver-memory``, ``--conf k=v``, ``--partitions`` and ``--strategy`` override the choice.
Importing this module loads neither pyspark nor pandas.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

GIB = 1024**3
MIB = 1024**2
BASE_HEAP = 1 * GIB  # Spark's own default driver heap, and the least the CLI gives it
HEAP_PER_TRACE_BYTE = 2  # heap per byte of trace on disk, above BASE_HEAP
MAX_HEAP = 4 * GIB
HEAP_SHARE_OF_RAM = 4  # at most RAM / 4 for the JVM heap
SHUFFLE_PARTITIONS_PER_CORE = 2
STRATEGIES = ("auto", "shuffle")  # the ways replay_spark splits a trace over its tasks
_LOCAL = re.compile(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?$")


@dataclass(frozen=True)
class Machine:
    """What the settings depend on in the machine: cores this process may use, physical RAM."""

    cores: int
    memory_bytes: int

    @classmethod
    def here(cls) -> Machine:
        """This machine (the cores of this process's CPU affinity where the OS tells it)."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        try:
            memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, ValueError, OSError):  # not a POSIX system: assume a small one
            memory = 8 * GIB
        return cls(cores=cores or os.cpu_count() or 1, memory_bytes=memory)


@dataclass(frozen=True)
class TraceFiles:
    """What the settings depend on in the trace: its bytes on disk and data files (0, 0 when
    it is not on a local file system: then only the machine counts)."""

    bytes: int
    files: int
    csv: bool = False

    @classmethod
    def at(cls, path: str | Path | None) -> TraceFiles:
        """Sizes of the trace at ``path`` (a file, or a directory of parts; names starting with
        ``_`` or ``.`` are not data, as Spark and pyarrow skip them)."""
        if path is None:
            return cls(0, 0)
        text = str(path)
        csv = text.lower().rstrip("/").endswith(".csv")
        if "://" in text and not text.startswith("file://"):
            return cls(0, 0, csv)
        where = Path(text.removeprefix("file://"))
        if where.is_file():
            return cls(where.stat().st_size, 1, csv)
        sizes = [
            p.stat().st_size
            for p in where.rglob("*")
            if p.is_file() and not any(part[0] in "._" for part in p.relative_to(where).parts)
        ]
        return cls(sum(sizes), len(sizes), csv)


def local_cores(master: str, machine: Machine) -> int | None:
    """The cores a local master uses (``local`` 1, ``local[N]`` N, ``local[*]`` all), or None
    for a cluster's master URL."""
    found = _LOCAL.match(master.strip())
    if found is None:
        return None
    threads = found.group(1)
    if threads is None:
        return 1
    return machine.cores if threads == "*" else int(threads)


def memory_text(size: int) -> str:
    """A JVM memory size as Spark writes it (``1536m``, ``4g``)."""
    mib = max(1, size // MIB)
    return f"{mib // 1024}g" if mib % 1024 == 0 else f"{mib}m"


def parse_conf(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``--conf k=v`` values as a mapping; ValueError naming a value without ``=`` or key."""
    conf: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"--conf {pair!r}: expected KEY=VALUE, e.g. spark.driver.memory=4g")
        conf[key.strip()] = value
    return conf


@dataclass(frozen=True)
class SparkSettings:
    """What a session and a replay start with, and where each setting came from."""

    master: str
    conf: dict[str, str]
    """Settings for the session (``spark.driver.memory`` among them when chosen)."""
    strategy: str
    partitions: int | None
    """Replay tasks; None: ``replay_spark`` decides (two per core; the shuffle: by rows too)."""
    basis: str
    """What the choice saw: the machine, the trace."""
    given: tuple[str, ...] = field(default=())
    """Names of the settings the user gave (they win over the choice)."""

    def describe(self) -> str:
        """One line for stderr: the settings and what they were chosen from."""
        conf = ", ".join(f"{key}={value}" for key, value in sorted(self.conf.items()))
        tasks = self.partitions if self.partitions is not None else "two per core"
        given = f"; given: {', '.join(self.given)}" if self.given else ""
        return (
            f"spark settings: master {self.master}, {conf or 'Spark defaults'}, strategy "
            f"{self.strategy}, tasks {tasks} (from {self.basis}{given})"
        )


def choose(
    master: str,
    machine: Machine,
    trace: TraceFiles | None = None,
    *,
    driver_memory: str | None = None,
    conf: Mapping[str, str] | None = None,
    strategy: str | None = None,
    partitions: int | None = None,
) -> SparkSettings:
    """The settings for ``master`` on ``machine`` for ``trace`` (None: a command that reads no
    trace, such as generate); the keyword arguments are the user's, and win."""
    if strategy is not None and strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    cores = local_cores(master, machine)
    size = trace or TraceFiles(0, 0)
    chosen: dict[str, str] = {}
    chosen_strategy = "auto"
    if cores is not None:  # a local master: the executors run in this JVM, on these cores
        cap = min(MAX_HEAP, machine.memory_bytes // HEAP_SHARE_OF_RAM)
        heap = max(BASE_HEAP, min(cap, BASE_HEAP + HEAP_PER_TRACE_BYTE * size.bytes))
        chosen["spark.driver.memory"] = memory_text(heap)
        chosen["spark.sql.shuffle.partitions"] = str(SHUFFLE_PARTITIONS_PER_CORE * cores)
        basis = f"{cores} local cores, {machine.memory_bytes / GIB:.1f} GiB RAM"
    else:
        basis = "a cluster master: the cluster's own memory and parallelism"
    if trace is not None and (size.files or size.bytes):
        basis += f", trace {size.bytes / MIB:,.1f} MiB in {size.files} files"
    given: list[str] = []
    if driver_memory is not None:
        chosen["spark.driver.memory"] = driver_memory
        given.append("--driver-memory")
    if conf:
        chosen.update(conf)
        given.extend(f"--conf {key}" for key in conf)
    if strategy is not None:
        chosen_strategy = strategy
        given.append("--strategy")
    if partitions is not None:
        given.append("--partitions")
    return SparkSettings(
        master=master,
        conf=chosen,
        strategy=chosen_strategy,
        partitions=partitions,
        basis=basis,
        given=tuple(given),
    )
