"""Engine benchmark: put+get cycles through mqlearn's public API against a bare deque baseline.

Run from the repository root::

    python3 benchmarks/bench_engine.py            # depths 1e3, 1e4, 1e5, 1e6 (about 15 minutes)
    python3 benchmarks/bench_engine.py --quick    # depths 1e3, 1e4, short repetitions (smoke test)
    python3 benchmarks/bench_engine.py --json results.json --profile

Every subject (engine with events on, engine with events off, baseline) at every depth runs in a
process of its own, as one user's program would, and is timed in two modes side by side:
*natural* (the garbage collector left alone, as a long-running program runs, with repetitions long
enough that every one holds the full collections the workload sets off) and *forced*
(``gc.collect()`` before each short repetition: the cost of the engine's own work). In both modes
the best repetition counts (a busy machine only ever adds time).

It is a report, not a test: it prints the tables and a PASS/FAIL line per target and exits 0 either
way. benchmarks/README.md describes the workload; the summary printed at the top says it again.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import math
import multiprocessing
import os
import platform
import pstats
import random
import selectors
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from subprocess import PIPE
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
# the engine measured: this checkout's, installed or not, or another checkout's in an A/B cell's
# process (--vs: the parent sets BENCH_ENGINE_ROOT for the other side's processes)
ENGINE_ROOT = os.environ.get("BENCH_ENGINE_ROOT", str(ROOT))
sys.path.insert(0, ENGINE_ROOT)

from baseline import ApiFloor, make_baseline  # noqa: E402
from results import table, write  # noqa: E402

import mqlearn as mq  # noqa: E402

CMQC = mq.CMQC

# ---------------------------------------------------------------------------------------------
# The workload. One round = 10 puts, then virtual time advances 100 ms, then 7 gets.
# 3 of the 10 puts have Expiry 1 tenth (100 ms): they have expired before any get can reach them.
# The other 7 are unlimited or 10^8 tenths (116 days, never reached). So the queue always holds
# exactly 0.7 × D live messages after a round, 30 % of the messages put are discarded instead of
# got, and the depth stays ≈ D. One "cycle" = 1 get + 10/7 puts on average (a round is 7 cycles).
# ---------------------------------------------------------------------------------------------
PUTS_PER_ROUND = 10
GETS_PER_ROUND = 7
SHORT_PER_ROUND = 3
STEP_MS = 100
SHORT_EXPIRY = 1
LONG_EXPIRY = 100_000_000
LANES = 10
MAXDEPTH = 2_000_000
KINDS = ("FIFO", "PRIORITY")
SEED = 20260101

THROUGHPUT_TARGET = 1 / 20
SCALING_TARGET = 1.3
MEMORY_TARGET = 400.0
MODES = ("natural", "forced")  # garbage collector left alone / gc.collect() before each repetition

Put = tuple[bytes, int, int]  # payload, Expiry (tenths), Priority
Round = tuple[Put, ...]


def make_rounds(n_rounds: int, seed: int = SEED) -> list[Round]:
    """The operation sequence, generated once with a seeded random and shared by every subject."""
    rng = random.Random(seed)
    rounds: list[Round] = []
    serial = 0
    for _ in range(n_rounds):
        short = set(rng.sample(range(PUTS_PER_ROUND), SHORT_PER_ROUND))
        puts = []
        for k in range(PUTS_PER_ROUND):
            long_expiry = rng.choice((CMQC.MQEI_UNLIMITED, LONG_EXPIRY))
            expiry = SHORT_EXPIRY if k in short else long_expiry
            puts.append((b"msg-%09d" % serial, expiry, rng.randrange(LANES)))
            serial += 1
        rounds.append(tuple(puts))
    return rounds


# ---------------------------------------------------------------------------------------------
# Subjects: the engine through its public API, and the bare baseline.
# ---------------------------------------------------------------------------------------------
class Subject(Protocol):
    """What priming, verification and the reference replay need (all of it untimed)."""

    def put(self, data: bytes, expiry: int, priority: int) -> None: ...
    def advance(self, ms: int) -> None: ...
    def get(self) -> bytes | None: ...


class EngineSubject:
    """One queue manager (profile ibmi, expiry task off: no background scans), one local queue "Q"."""

    def __init__(self, msgdlvsq: str, record_events: bool) -> None:
        self.record_events = record_events
        self.qm = mq.QueueManager("QM1", profile="ibmi", record_events=record_events)
        self.qm.alter_qmgr(expryint=0)
        self.qm.define_qlocal("Q", msgdlvsq=msgdlvsq, maxdepth=MAXDEPTH)
        self.q = mq.Queue(self.qm, "Q")
        self.sim = self.qm.sim
        self.pmo = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
        self.gmo = mq.GMO(Options=CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_NO_SYNCPOINT)

    def put(self, data: bytes, expiry: int, priority: int) -> None:
        self.q.put(data, mq.MD(Expiry=expiry, Priority=priority), self.pmo)

    def advance(self, ms: int) -> None:
        self.sim.advance(ms=ms)

    def get(self) -> bytes | None:
        try:
            data: bytes = self.q.get(None, mq.MD(), self.gmo)
        except mq.MQMIError as error:
            if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                return None
            raise
        return data

    def depth(self) -> int:
        return int(self.qm.curdepth("Q"))

    def count_events(self, kind: str) -> int | None:
        if not self.record_events:
            return None
        return sum(1 for event in self.qm.events if event.kind == kind)

    def timed_loop(self, rounds: Sequence[Round], start: int, count: int) -> None:
        """The measured loop, written the way a learner writes pymqi code: new MDs every call."""
        q, sim, pmo, gmo = self.q, self.sim, self.pmo, self.gmo
        n = len(rounds)
        for r in range(start, start + count):
            for payload, expiry, priority in rounds[r % n]:
                q.put(payload, mq.MD(Expiry=expiry, Priority=priority), pmo)
            sim.advance(ms=STEP_MS)
            for _ in range(GETS_PER_ROUND):
                q.get(None, mq.MD(), gmo)


class BaselineSubject:
    """The bare deque baseline (benchmarks/baseline.py) behind the same small interface."""

    def __init__(self, msgdlvsq: str) -> None:
        self.bq = make_baseline(msgdlvsq)
        self.put = self.bq.put
        self.advance = self.bq.advance
        self.get = self.bq.get

    def depth(self) -> int:
        return self.bq.depth()

    def timed_loop(self, rounds: Sequence[Round], start: int, count: int) -> None:
        """The same rounds, deque operations inlined: no MD objects, no call per message."""
        self.bq.run_rounds(rounds, start, count, STEP_MS, GETS_PER_ROUND)


class FloorSubject:
    """baseline.ApiFloor driven exactly like the engine: new MD objects every call (FIFO only)."""

    def __init__(self) -> None:
        self.q = ApiFloor()
        self.pmo, self.gmo = mq.PMO(), mq.GMO()

    def put(self, data: bytes, expiry: int, priority: int) -> None:
        self.q.put(data, mq.MD(Expiry=expiry, Priority=priority), self.pmo)

    def advance(self, ms: int) -> None:
        self.q.now += ms

    def get(self) -> bytes | None:
        return self.q.get(None, mq.MD(), self.gmo)

    def timed_loop(self, rounds: Sequence[Round], start: int, count: int) -> None:
        q, pmo, gmo = self.q, self.pmo, self.gmo
        n = len(rounds)
        for r in range(start, start + count):
            for payload, expiry, priority in rounds[r % n]:
                q.put(payload, mq.MD(Expiry=expiry, Priority=priority), pmo)
            q.now += STEP_MS
            for _ in range(GETS_PER_ROUND):
                q.get(None, mq.MD(), gmo)


def measure_floor(rounds: Sequence[Round], settings: Settings) -> dict[str, float]:
    """Cycles/s of the API floor and of the FIFO baseline at the smallest depth, interleaved."""
    depth = min(settings.depths)
    subjects: dict[str, FloorSubject | BaselineSubject] = {
        "API floor": FloorSubject(),
        "baseline": BaselineSubject("FIFO"),
    }
    best: dict[str, float] = {}
    for name, subject in subjects.items():
        prime(subject, rounds, depth)
        count, cursor = calibrate(
            subject, rounds, depth // PUTS_PER_ROUND, settings.min_rep_seconds
        )
        best[name] = 0.0
        for _ in range(settings.reps):
            t0 = time.perf_counter()
            subject.timed_loop(rounds, cursor, count)
            best[name] = max(best[name], count * GETS_PER_ROUND / (time.perf_counter() - t0))
            cursor += count
    return best


def print_floor(best: dict[str, float]) -> None:
    heading("API floor: what the call shape alone costs (FIFO, smallest depth)")
    ratio = best["API floor"] / best["baseline"]
    print(
        f"API floor {best['API floor']:>12,.0f} cycles/s, baseline {best['baseline']:>12,.0f}: "
        f"{ratio:.3f} = 1/{1 / ratio:.1f} of the baseline.\n"
        "The floor creates the same MD objects and makes the same put/get calls as the engine\n"
        "loop but does no MQ work at all: no engine with this API can be faster than it."
    )


def put_round(subject: Subject, puts: Round) -> None:
    """The puts of one round, then the round's step of virtual time (untimed paths)."""
    for payload, expiry, priority in puts:
        subject.put(payload, expiry, priority)
    subject.advance(STEP_MS)


def prime(subject: Subject, rounds: Sequence[Round], depth: int) -> None:
    """Put ``depth`` messages of the workload (no gets); afterwards 30 % of them have expired."""
    for r in range(depth // PUTS_PER_ROUND):
        put_round(subject, rounds[r % len(rounds)])


def run_recording(
    subject: Subject, rounds: Sequence[Round], start: int, count: int
) -> list[bytes | None]:
    """The workload's rounds, untimed, returning every payload got in order (None for 2033)."""
    got: list[bytes | None] = []
    for r in range(start, start + count):
        put_round(subject, rounds[r % len(rounds)])
        got.extend(subject.get() for _ in range(GETS_PER_ROUND))
    return got


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------
@dataclass
class Timing:
    """The repetitions of one subject at one depth in one mode: rounds and seconds of each."""

    kind: str
    depth: int
    subject: str
    mode: str
    rep_rounds: list[int]
    rep_seconds: list[float]
    full_collections: int  # generation-2 collections during the repetitions
    full_collection_seconds: float

    @property
    def cycles_per_s(self) -> float:
        """The best repetition: a busy machine only adds time, and a natural repetition is long
        enough to hold the full collections, so the best one has them too."""
        return max(
            n * GETS_PER_ROUND / seconds
            for n, seconds in zip(self.rep_rounds, self.rep_seconds, strict=True)
        )

    @property
    def us_per_cycle(self) -> float:
        return 1e6 / self.cycles_per_s


@dataclass
class CrossCheck:
    kind: str
    depth: int
    subject: str
    rounds: int
    got: int
    got_ref: int
    discarded: int
    discarded_events: int | None
    discarded_ref: int
    final_depth: int
    final_depth_ref: int
    same_payloads: bool

    @property
    def ok(self) -> bool:
        from_events = self.discarded_events is None or self.discarded_events == self.discarded_ref
        return (
            self.same_payloads
            and from_events
            and (self.got, self.discarded, self.final_depth)
            == (self.got_ref, self.discarded_ref, self.final_depth_ref)
        )


@dataclass
class Memory:
    subject: str
    messages: int
    bytes_per_message: float


@dataclass
class Settings:
    depths: tuple[int, ...]
    min_rep_seconds: float  # a forced repetition takes about this long
    natural_rounds: int  # rounds per natural repetition, whatever the depth
    verify_rounds: int
    memory_messages: int
    reps: int = 3


# A natural repetition of 40,000 rounds (280,000 cycles, 400,000 puts) outlasts the interval
# between two full collections even at depth 1e6, where CPython 3.11 runs one when the objects
# that survived since the last one reach a quarter of those that had (a million tracked messages
# would need 250,000 new ones, about 175,000 cycles): a shorter repetition could miss the pause.
FULL = Settings(
    depths=(1_000, 10_000, 100_000, 1_000_000),
    min_rep_seconds=0.3,
    natural_rounds=40_000,
    verify_rounds=2_000,
    memory_messages=1_000_000,
)
QUICK = Settings(
    depths=(1_000, 10_000),
    min_rep_seconds=0.01,
    natural_rounds=300,
    verify_rounds=100,
    memory_messages=10_000,
)

SUBJECTS = ("engine, events on", "engine, events off", "baseline")
ENGINES = SUBJECTS[:2]


def make_subject(name: str, kind: str) -> EngineSubject | BaselineSubject:
    if name == "baseline":
        return BaselineSubject(kind)
    return EngineSubject(kind, record_events=name.endswith("on"))


# ---------------------------------------------------------------------------------------------
# Measuring: one process per subject and depth
# ---------------------------------------------------------------------------------------------
class FullCollections:
    """Counts generation-2 collections and their duration (a ``gc.callbacks`` entry)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.count += 1
            self.seconds += time.perf_counter() - self._start


def serve(
    conn: Connection, kind: str, depth: int, name: str, rounds: Sequence[Round], settings: Settings
) -> None:
    """A worker process: one subject, primed and verified, then timed repetitions on request.

    Sends (first gets, tracked objects) when ready; answers each mode name with (rounds,
    seconds, full collections, their seconds); answers None with its cross-check figures.
    Natural repetitions never call ``gc.collect()``; the parent asks for every natural one before
    the first forced one, so until then this process runs as a program that never does.
    """
    subject = make_subject(name, kind)
    prime(subject, rounds, depth)
    cursor = depth // PUTS_PER_ROUND
    # Verification pass (untimed): what every get returns, compared across subjects.
    first_gets = run_recording(subject, rounds, cursor, settings.verify_rounds)
    cursor += settings.verify_rounds
    count, cursor = calibrate(subject, rounds, cursor, settings.min_rep_seconds)
    conn.send((first_gets, len(gc.get_objects())))
    full = FullCollections()
    gc.callbacks.append(full)
    while (mode := conn.recv()) is not None:
        n = settings.natural_rounds if mode == "natural" else count
        if mode == "forced":
            gc.collect()
        before = (full.count, full.seconds)
        t0 = time.perf_counter()
        subject.timed_loop(rounds, cursor, n)
        elapsed = time.perf_counter() - t0
        cursor += n
        conn.send((n, elapsed, full.count - before[0], full.seconds - before[1]))
    gc.callbacks.remove(full)
    if isinstance(subject, EngineSubject):
        conn.send(
            (cursor, subject.depth(), subject.count_events("get"), subject.count_events("discard"))
        )
    else:
        conn.send(None)
    conn.close()


@dataclass
class Worker:
    """The parent's end of one worker process."""

    kind: str
    depth: int
    name: str
    process: multiprocessing.process.BaseProcess
    conn: Connection
    first_gets: list[bytes | None]
    tracked_objects: int

    def time(self, mode: str) -> tuple[int, float, int, float]:
        self.conn.send(mode)
        result: tuple[int, float, int, float] = self.conn.recv()
        return result

    def finish(self) -> tuple[int, int, int | None, int | None] | None:
        self.conn.send(None)
        figures: tuple[int, int, int | None, int | None] | None = self.conn.recv()
        self.process.join()
        return figures


def start_worker(
    kind: str, depth: int, name: str, rounds: Sequence[Round], settings: Settings
) -> Worker:
    """Fork a worker and wait until its subject is primed (one at a time: priming is not timed,
    and workers priming side by side would only compete for the cores)."""
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe()
    process = context.Process(target=serve, args=(child, kind, depth, name, rounds, settings))
    process.start()
    child.close()
    first_gets, tracked = parent.recv()
    return Worker(kind, depth, name, process, parent, first_gets, tracked)


def measure_kind(
    kind: str, rounds: Sequence[Round], settings: Settings
) -> tuple[list[Timing], list[CrossCheck], dict[tuple[int, str], int]]:
    """Time every subject at every depth of one queue kind in both modes, then cross-check.

    The repetitions are interleaved over all subjects and depths (one process at a time), so
    that a slow spell of a shared machine hits them all alike: the engine/baseline ratios and the
    depth-scaling ratios compare runs made side by side. All natural repetitions come first.
    Returns the timings, the cross-checks and the objects the collector tracks in each worker
    once its queue is primed.
    """
    workers = []
    for depth in settings.depths:
        for name in SUBJECTS:
            workers.append(start_worker(kind, depth, name, rounds, settings))
        progress(f"primed {kind} depth {depth}")
    reps: dict[tuple[int, str, str], list[tuple[int, float, int, float]]] = {}
    for mode in MODES:
        for _ in range(settings.reps):
            for w in workers:
                reps.setdefault((w.depth, w.name, mode), []).append(w.time(mode))
        progress(f"timed {kind}, {mode}")
    timings = [
        Timing(
            kind,
            depth,
            name,
            mode,
            [r[0] for r in rows],
            [r[1] for r in rows],
            sum(r[2] for r in rows),
            sum(r[3] for r in rows),
        )
        for (depth, name, mode), rows in reps.items()
    ]
    reference = {w.depth: w.first_gets for w in workers if w.name == "baseline"}
    checks = []
    for w in workers:
        figures = w.finish()
        if figures is not None:
            same = w.first_gets == reference[w.depth]
            checks.append(cross_check(w, figures, rounds, same))
    tracked = {(w.depth, w.name): w.tracked_objects for w in workers}
    return timings, checks, tracked


def calibrate(
    subject: EngineSubject | BaselineSubject | FloorSubject,
    rounds: Sequence[Round],
    start: int,
    seconds: float,
) -> tuple[int, int]:
    """Warm the timed loop up, doubling its length until it runs ``seconds / 4``; then size one
    repetition to take about 1.2 × ``seconds``. Returns (rounds per repetition, next round)."""
    count = 8
    while True:
        t0 = time.perf_counter()
        subject.timed_loop(rounds, start, count)
        elapsed = time.perf_counter() - t0
        start += count
        if elapsed >= seconds / 4:
            return max(10, math.ceil(count * seconds * 1.2 / elapsed)), start
        count *= 2


def cross_check(
    worker: Worker,
    figures: tuple[int, int, int | None, int | None],
    rounds: Sequence[Round],
    same_payloads: bool,
) -> CrossCheck:
    """Replay the engine's whole operation sequence through a fresh baseline and compare counts.

    ``figures``: the engine worker's next round, CURDEPTH and its get and discard event counts
    (None with events off)."""
    cursor, final_depth, got_events, discarded_events = figures
    depth = worker.depth
    last_ms = cursor * STEP_MS
    if last_ms >= LONG_EXPIRY * 100:  # the long-lived messages must never expire
        raise RuntimeError(f"virtual time reached {last_ms} ms: raise LONG_EXPIRY")
    loop_rounds = cursor - depth // PUTS_PER_ROUND
    ref = BaselineSubject(worker.kind)
    prime(ref, rounds, depth)
    got_ref = sum(
        p is not None for p in run_recording(ref, rounds, depth // PUTS_PER_ROUND, loop_rounds)
    )
    # Every engine get succeeded (a failure raises), so got = gets issued; with events on the
    # log must agree. Discards follow from conservation: primed + put − got − depth now.
    got = GETS_PER_ROUND * loop_rounds if got_events is None else got_events
    discarded = depth + PUTS_PER_ROUND * loop_rounds - got - final_depth
    return CrossCheck(
        kind=worker.kind,
        depth=depth,
        subject=worker.name,
        rounds=loop_rounds,
        got=got,
        got_ref=got_ref,
        discarded=discarded,
        discarded_events=discarded_events,
        discarded_ref=ref.bq.discarded,
        final_depth=final_depth,
        final_depth_ref=ref.depth(),
        same_payloads=same_payloads,
    )


def memory_per_message(name: str, n_messages: int) -> Memory:
    """Traced bytes per queued message after filling a fresh queue, payloads made beforehand."""
    rounds = make_rounds(n_messages // PUTS_PER_ROUND, seed=SEED + 1)  # distinct payloads
    subject = make_subject(name, "PRIORITY")
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    prime(subject, rounds, n_messages)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del subject, rounds
    gc.collect()
    return Memory(name, n_messages, (after - before) / n_messages)


def profile_engine(kind: str, depth: int, rounds: Sequence[Round], n_rounds: int) -> str:
    """cProfile of the engine loop (events on) at one depth: the top functions by own time."""
    subject = EngineSubject(kind, record_events=True)
    prime(subject, rounds, depth)
    profiler = cProfile.Profile()
    profiler.enable()
    subject.timed_loop(rounds, depth // PUTS_PER_ROUND, n_rounds)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# Cells: this engine beside another checkout's (--vs), each cell in a process of its own
# ---------------------------------------------------------------------------------------------
# "cycle" is the workload above (events on, gc.collect() before each repetition). The other three
# are a request/reply cycle at constant depth: put a request and a second message, get one of
# them, then get the front message. "plain" gets the second message as it comes, "MsgId" gets the
# request by its MsgId (MQMO_MATCH_MSG_ID), "CorrelId" puts a reply whose CorrelId is the
# request's MsgId and gets it by CorrelId (MQMO_MATCH_CORREL_ID), as request/reply lessons do. So
# every message but a reply has CorrelId MQCI_NONE, and after the first matched get the store
# keeps an index of them all: a cell's cost per cycle should not depend on the depth. "GroupId"
# puts the request as a group of one (MQMF_LAST_MSG_IN_GROUP, MQGI_NONE: the queue manager
# generates its GroupId, issue 24) and gets it by MQMO_MATCH_GROUP_ID (issue 23 item 3); the
# primed messages are in no group, so the GroupId index holds only the few requests queued.
CELL_MODES = ("cycle", "plain", "MsgId", "CorrelId", "GroupId")
CELL_DEPTHS = {"full": (1_000, 1_000_000), "quick": (1_000, 10_000)}


class CellSubject:
    """One queue manager and queue primed to ``depth`` for one cell (events recorded)."""

    def __init__(self, kind: str, depth: int, mode: str) -> None:
        self.mode = mode
        self.engine = EngineSubject(kind, record_events=True)
        self.rounds = make_rounds(max(depth // PUTS_PER_ROUND, 10_000))
        self.cursor = 0
        rng = random.Random(SEED)
        self.priorities = [rng.randrange(LANES) for _ in range(1024)]
        if mode == "cycle":
            prime(self.engine, self.rounds, depth)
            self.cursor = depth // PUTS_PER_ROUND
        else:
            q, pmo, priorities = self.engine.q, self.engine.pmo, self.priorities
            for i in range(depth):
                q.put(b"primed", mq.MD(Priority=priorities[i % 1024]), pmo)
        version = {"Version": CMQC.MQGMO_VERSION_2}
        options = {"Options": CMQC.MQGMO_NO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, **version}
        self.by_msgid = mq.GMO(MatchOptions=CMQC.MQMO_MATCH_MSG_ID, **options)
        self.by_correlid = mq.GMO(MatchOptions=CMQC.MQMO_MATCH_CORREL_ID, **options)
        self.by_groupid = mq.GMO(MatchOptions=CMQC.MQMO_MATCH_GROUP_ID, **options)

    def run(self, count: int) -> None:
        """``count`` cycles (for "cycle", ``count`` rounds of 7 cycles each)."""
        if self.mode == "cycle":
            self.engine.timed_loop(self.rounds, self.cursor, count)
            self.cursor += count
            return
        q, pmo, gmo = self.engine.q, self.engine.pmo, self.engine.gmo
        by_msgid, by_correlid, priorities = self.by_msgid, self.by_correlid, self.priorities
        mode = self.mode
        one_group = {"Version": CMQC.MQMD_VERSION_2, "MsgFlags": CMQC.MQMF_LAST_MSG_IN_GROUP}
        for i in range(count):
            priority = priorities[i % 1024]
            grouped = one_group if mode == "GroupId" else {}
            request = mq.MD(Priority=priority, **grouped)
            q.put(b"request", request, pmo)
            if mode == "GroupId":
                q.put(b"other", mq.MD(Priority=priority), pmo)
                q.get(None, mq.MD(Version=2, GroupId=request.GroupId), self.by_groupid)
            elif mode == "CorrelId":
                q.put(b"reply", mq.MD(CorrelId=request.MsgId, Priority=priority), pmo)
                q.get(None, mq.MD(CorrelId=request.MsgId), by_correlid)
            elif mode == "MsgId":
                q.put(b"other", mq.MD(Priority=priority), pmo)
                q.get(None, mq.MD(MsgId=request.MsgId), by_msgid)
            else:
                q.put(b"other", mq.MD(Priority=priority), pmo)
                q.get(None, mq.MD(), gmo)
            q.get(None, mq.MD(), gmo)

    def cycles(self, count: int) -> int:
        return count * GETS_PER_ROUND if self.mode == "cycle" else count


def serve_cell(kind: str, depth: int, mode: str, seconds: float) -> None:
    """A cell's process (``--cell``): prime, size a repetition to about ``seconds``, print
    "ready"; then for every "rep" line on stdin, gc.collect(), time one repetition and print
    its cycles and seconds as JSON."""
    subject = CellSubject(kind, depth, mode)
    subject.run(16)  # one-time work out of the way (the first matched get builds its index)
    count = 1
    while True:
        t0 = time.perf_counter()
        subject.run(count)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds / 4:
            count = max(1, math.ceil(count * seconds / elapsed))
            break
        count *= 2
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "rep":
            break
        gc.collect()
        t0 = time.process_time()  # CPU seconds: a shared machine's other work adds little
        subject.run(count)
        elapsed = time.process_time() - t0
        print(json.dumps([subject.cycles(count), elapsed]), flush=True)


@dataclass
class Cell:
    kind: str
    depth: int
    mode: str
    engine: str  # "this" or the --vs checkout
    us_per_cycle: float | None  # best repetition; None: no answer within CELL_TIMEOUT


CELL_SECONDS = 0.3  # a cell's repetition takes about this long
CELL_TIMEOUT = 120.0  # seconds a cell's process may take to prime, or to run one repetition


def measure_cells(
    engines: dict[str, str],
    depths: Sequence[int],
    reps: int,
    seconds: float,
    modes: Sequence[str] = CELL_MODES,
) -> list[Cell]:
    """Every cell for every engine (name -> checkout root), the engines' repetitions
    interleaved A B A B ... one process each, a cell's processes alive together. A process
    that does not answer within CELL_TIMEOUT (priming, or a repetition) is stopped and its
    cell has no figure (the CorrelId index of an engine that copies it on every put cannot
    even be built at depth 1e6)."""
    cells: list[Cell] = []
    for mode in modes:
        for kind in KINDS:
            for depth in depths:
                children = {
                    name: start_cell(root, kind, depth, mode, seconds)
                    for name, root in engines.items()
                }
                best: dict[str, float | None] = dict.fromkeys(children, math.inf)
                for _ in range(reps):
                    for name, child in children.items():
                        answer = ask(child, "rep") if best[name] is not None else None
                        if answer is None:
                            best[name] = None
                            continue
                        cycles, elapsed = json.loads(answer)
                        best[name] = min(best[name] or math.inf, 1e6 * elapsed / cycles)
                for name, child in children.items():
                    if child.poll() is None:
                        child.kill()
                    child.wait()
                    cells.append(Cell(kind, depth, mode, name, best[name]))
                progress(f"cell {mode} {kind} {depth}")
    return cells


def start_cell(
    root: str, kind: str, depth: int, mode: str, seconds: float
) -> subprocess.Popen[str]:
    command = [sys.executable, __file__, "--cell", kind, str(depth), mode, str(seconds)]
    env = {**os.environ, "BENCH_ENGINE_ROOT": root}
    return subprocess.Popen(command, env=env, stdin=PIPE, stdout=PIPE, text=True)


def ask(child: subprocess.Popen[str], line: str) -> str | None:
    """Send ``line`` to a cell's process once it is ready and return its answer; None when
    getting ready or answering takes longer than CELL_TIMEOUT (the process is then stopped)."""
    assert child.stdin is not None and child.stdout is not None
    if not getattr(child, "ready", False):
        if _answer(child) != "ready":
            return None
        child.ready = True  # type: ignore[attr-defined]
    child.stdin.write(line + "\n")
    child.stdin.flush()
    return _answer(child)


def _answer(child: subprocess.Popen[str]) -> str | None:
    """The next line a cell's process prints (one at a time: it waits for the next order)."""
    assert child.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        if child.poll() is not None or not selector.select(CELL_TIMEOUT):
            child.kill()
            return None
    return child.stdout.readline().strip() or None


def cell_tables(cells: list[Cell], depths: Sequence[int]) -> list[dict[str, Any]]:
    """The cells as tables: µs per cycle per engine and the ratio this/other per cell, then
    each engine's cost at the largest depth over its cost at the smallest."""
    engines = list(dict.fromkeys(c.engine for c in cells))
    modes = list(dict.fromkeys(c.mode for c in cells))
    cost = {(c.mode, c.kind, c.depth, c.engine): c.us_per_cycle for c in cells}
    rows = []
    for mode in modes:
        for kind in KINDS:
            for depth in depths:
                row: list[Any] = [mode, kind, depth]
                figures = [cost[(mode, kind, depth, e)] for e in engines]
                row += [_shown(f, 2) for f in figures]
                if len(engines) == 2:
                    row.append(_shown(_ratio(figures[0], figures[1]), 3))
                rows.append(row)
    columns = ["cell", "queue", "depth", *(f"µs/cycle {e}" for e in engines)]
    if len(engines) == 2:
        columns.append(f"{engines[0]}/{engines[1]}")
    lo, hi = min(depths), max(depths)
    scale_rows = [
        [
            mode,
            kind,
            *(
                _shown(_ratio(cost[(mode, kind, hi, e)], cost[(mode, kind, lo, e)]), 2)
                for e in engines
            ),
        ]
        for mode in modes
        for kind in KINDS
    ]
    return [
        {
            "title": "Cells: cost per cycle, this engine"
            + (f" beside {engines[1]}" if len(engines) == 2 else ""),
            "columns": columns,
            "rows": rows,
            "notes": "CPU µs (time.process_time), best of the repetitions, gc.collect() before each; "
            "engines interleaved, "
            "one process per engine and cell. cycle: the workload above (1 get + 10/7 puts); "
            "plain/MsgId/CorrelId: 2 puts + 2 gets of a request/reply cycle. "
            f"> {CELL_TIMEOUT:.0f} s: no answer within that time (priming or one repetition).",
        },
        {
            "title": f"Cells: depth scaling (cost per cycle at {hi} / at {lo})",
            "columns": ["cell", "queue", *engines],
            "rows": scale_rows,
            "notes": "A flat index keeps every cell near 1 at any depth.",
        },
    ]


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a / b


def _shown(value: float | None, digits: int) -> float | str:
    return f"> {CELL_TIMEOUT:.0f} s" if value is None else round(value, digits)


def print_table(table: dict[str, Any]) -> None:
    heading(table["title"])
    widths = [
        max(len(str(v)) for v in [column, *(row[i] for row in table["rows"])])
        for i, column in enumerate(table["columns"])
    ]
    for row in [table["columns"], *table["rows"]]:
        print("  ".join(f"{v!s:>{w}}" for v, w in zip(row, widths, strict=True)))
    if table["notes"]:
        print(table["notes"])


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
def heading(title: str) -> None:
    print(f"\n== {title} ==")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def print_intro(settings: Settings) -> None:
    lines = (
        "mqlearn engine benchmark: put+get cycles through the public API vs a bare baseline",
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}, "
        f"{os.cpu_count()} cores; load average at the start {load()}",
        "Engine: QueueManager(profile='ibmi') with expryint=0: no background expiry scan, so",
        "  every discard is the lazy one a get performs (EXP-22 FIFO, EXP-23 PRIORITY); new MD",
        "  objects every call.",
        "Baseline: deque(s) of (deadline, payload) tuples, same expiry rule, loop inlined.",
        f"Workload: each round puts {PUTS_PER_ROUND} messages ({SHORT_PER_ROUND} with Expiry "
        f"{SHORT_EXPIRY} tenth, the others",
        f"  unlimited or {LONG_EXPIRY} tenths; priorities 0-9), advances virtual time "
        f"{STEP_MS} ms (the short",
        f"  ones expire), then gets {GETS_PER_ROUND}: 30 % of the messages are discarded, "
        "not got; depth stays ≈ D.",
        f"One cycle = 1 get + {PUTS_PER_ROUND}/{GETS_PER_ROUND} puts on average "
        f"(every {PUTS_PER_ROUND} puts there are {GETS_PER_ROUND} gets).",
        "Processes: each subject at each depth in a process of its own (forked), as a user's",
        "  program; priming untimed, then a verification pass of "
        f"{settings.verify_rounds} rounds and a warm-up.",
        f"Timing, natural: {settings.reps} repetitions of {settings.natural_rounds} rounds each, "
        "garbage collector left alone",
        "  (never gc.collect()), each long enough to hold the full collections; the best counts.",
        f"Timing, forced: gc.collect() before each of {settings.reps} repetitions of ≈ "
        f"{settings.min_rep_seconds} s; the best counts.",
        "Repetitions are interleaved over all subjects and depths (natural ones first); "
        "time.perf_counter.",
    )
    print("\n".join(lines))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def print_throughput(timings: list[Timing], mode: str) -> None:
    how = "no gc.collect()" if mode == "natural" else "gc.collect() before each repetition"
    heading(
        f"Throughput (cycles/s), {mode} collection ({how}); ratio = engine / baseline, "
        f"target ≥ 1/{1 / THROUGHPUT_TARGET:.0f} = {THROUGHPUT_TARGET:.3f}"
    )
    print(
        f"{'queue':<9} {'depth':>9} {'events on':>12} {'events off':>12} {'baseline':>12} "
        f"{'on/base':>8} {'off/base':>9} {'µs/cycle on':>12} {'off':>6} {'base':>6} "
        f"{'full gcs on':>12} {'s':>6} {'off':>5} {'s':>6}"
    )
    for (kind, depth), row in group_by_point(timings, mode).items():
        on, off, base = (row[name] for name in SUBJECTS)
        print(
            f"{kind:<9} {depth:>9} {on.cycles_per_s:>12,.0f} {off.cycles_per_s:>12,.0f} "
            f"{base.cycles_per_s:>12,.0f} {on.cycles_per_s / base.cycles_per_s:>8.3f} "
            f"{off.cycles_per_s / base.cycles_per_s:>9.3f} {on.us_per_cycle:>12.2f} "
            f"{off.us_per_cycle:>6.2f} {base.us_per_cycle:>6.2f} "
            f"{on.full_collections:>12} {on.full_collection_seconds:>6.2f} "
            f"{off.full_collections:>5} {off.full_collection_seconds:>6.2f}"
        )
    print("full gcs: generation-2 collections during all the repetitions, and their seconds")


def throughput_table(timings: list[Timing], mode: str) -> dict[str, Any]:
    """The throughput section as a results table."""
    rows = []
    for (kind, depth), row in group_by_point(timings, mode).items():
        on, off, base = (row[name] for name in SUBJECTS)
        rows.append(
            [
                kind,
                depth,
                round(on.us_per_cycle, 2),
                round(off.us_per_cycle, 2),
                round(base.us_per_cycle, 2),
                round(on.cycles_per_s / base.cycles_per_s, 3),
                round(off.cycles_per_s / base.cycles_per_s, 3),
            ]
        )
    return table(
        f"Cost per cycle, {mode} collection",
        ["queue", "depth", "µs events on", "µs events off", "µs baseline", "on/base", "off/base"],
        rows,
        "Wall µs, best repetition; ratio = engine cycles/s over the baseline's (target ≥ 1/20).",
    )


def print_tracked(tracked: dict[tuple[str, int, str], int]) -> None:
    heading("Objects the garbage collector tracks in each engine process once its queue is primed")
    print(f"{'queue':<9} {'depth':>9} " + " ".join(f"{name:>20}" for name in ENGINES))
    points = sorted(
        {(kind, depth) for kind, depth, _ in tracked}, key=lambda p: (KINDS.index(p[0]), p[1])
    )
    for kind, depth in points:
        counts = " ".join(f"{tracked[(kind, depth, name)]:>20,}" for name in ENGINES)
        print(f"{kind:<9} {depth:>9} {counts}")


def group_by_point(timings: list[Timing], mode: str) -> dict[tuple[str, int], dict[str, Timing]]:
    grouped: dict[tuple[str, int], dict[str, Timing]] = {}
    for timing in timings:
        if timing.mode == mode:
            grouped.setdefault((timing.kind, timing.depth), {})[timing.subject] = timing
    return grouped


def scaling(timings: list[Timing], lo: int, hi: int) -> list[dict[str, Any]]:
    rows = []
    for mode in MODES:
        points = group_by_point(timings, mode)
        for kind in KINDS:
            for name in SUBJECTS:
                hi_cost = points[(kind, hi)][name].us_per_cycle
                rows.append(
                    {
                        "mode": mode,
                        "kind": kind,
                        "subject": name,
                        "ratio": hi_cost / points[(kind, lo)][name].us_per_cycle,
                    }
                )
    return rows


def print_scaling(rows: list[dict[str, Any]], lo: int, hi: int) -> None:
    heading(
        f"Depth scaling (cost per cycle at depth {hi} / at depth {lo}; target ≤ {SCALING_TARGET})"
    )
    print(f"{'queue':<9} {'subject':<20} " + " ".join(f"{mode:>8}" for mode in MODES))
    for kind in KINDS:
        for name in SUBJECTS:
            ratios = {
                r["mode"]: r["ratio"] for r in rows if (r["kind"], r["subject"]) == (kind, name)
            }
            print(f"{kind:<9} {name:<20} " + " ".join(f"{ratios[mode]:>8.2f}" for mode in MODES))


def print_checks(checks: list[CrossCheck]) -> None:
    heading("Discard cross-check (engine vs baseline replaying the same operation sequence)")
    for c in checks:
        events = "" if c.discarded_events is None else f" (event log: {c.discarded_events})"
        expired = c.final_depth_ref - depth_live(c.depth)
        print(
            f"{c.kind} depth={c.depth} {c.subject}: {c.rounds} rounds; got {c.got} / {c.got_ref}; "
            f"discarded {c.discarded}{events} / {c.discarded_ref}; depth {c.final_depth} / "
            f"{c.final_depth_ref} ({expired / c.final_depth_ref:.0%} expired); first "
            f"{GETS_PER_ROUND}×verify gets return the same payloads: "
            f"{'yes' if c.same_payloads else 'NO'} -> {'match' if c.ok else 'MISMATCH'}"
        )


def depth_live(depth: int) -> int:
    """Live messages on the queue after every round: exactly 70 % of the primed depth."""
    return depth // PUTS_PER_ROUND * (PUTS_PER_ROUND - SHORT_PER_ROUND)


def print_memory(memory: list[Memory]) -> None:
    heading(
        "Memory (tracemalloc, fresh PRIORITY queue; bytes per queued message, payload excluded;"
        f" target ≤ {MEMORY_TARGET:.0f})"
    )
    for m in memory:
        print(f"{m.subject:<20} {m.messages:>9} messages: {m.bytes_per_message:8.1f} bytes/message")


def evaluate(
    timings: list[Timing],
    scale_rows: list[dict[str, Any]],
    checks: list[CrossCheck],
    memory: list[Memory],
) -> list[dict[str, Any]]:
    targets: list[dict[str, Any]] = []
    for mode in MODES:
        points = group_by_point(timings, mode)
        for name in ENGINES:
            worst_point = min(points, key=lambda p: ratio_to_baseline(points[p], name))
            worst = ratio_to_baseline(points[worst_point], name)
            targets.append(
                {
                    "target": f"throughput, {name}, {mode}: ≥ 1/{1 / THROUGHPUT_TARGET:.0f} of the "
                    "baseline at every depth",
                    "ok": worst >= THROUGHPUT_TARGET,
                    "detail": f"worst {worst:.3f} = 1/{1 / worst:.1f} at {worst_point[0]} "
                    f"depth {worst_point[1]}",
                }
            )
    for mode in MODES:
        for name in ENGINES:
            rows = [r for r in scale_rows if (r["subject"], r["mode"]) == (name, mode)]
            worst_row = max(rows, key=lambda row: row["ratio"])
            targets.append(
                {
                    "target": f"depth scaling, {name}, {mode}: cost per cycle ratio ≤ "
                    f"{SCALING_TARGET}",
                    "ok": worst_row["ratio"] <= SCALING_TARGET,
                    "detail": f"worst {worst_row['ratio']:.2f} ({worst_row['kind']})",
                }
            )
    for m in memory:
        if m.subject != "baseline":
            targets.append(
                {
                    "target": f"memory, {m.subject}: ≤ {MEMORY_TARGET:.0f} bytes per queued "
                    "message plus payload",
                    "ok": m.bytes_per_message <= MEMORY_TARGET,
                    "detail": f"{m.bytes_per_message:.1f} bytes at {m.messages} messages",
                }
            )
    targets.append(
        {
            "target": "cross-check: engine discards and gets exactly what the baseline does",
            "ok": all(c.ok for c in checks),
            "detail": f"{sum(c.ok for c in checks)}/{len(checks)} runs match",
        }
    )
    return targets


def ratio_to_baseline(row: dict[str, Timing], name: str) -> float:
    return row[name].cycles_per_s / row["baseline"].cycles_per_s


def print_targets(targets: list[dict[str, Any]]) -> None:
    heading("Targets")
    for t in targets:
        print(f"{verdict(t['ok'])}  {t['target']} ({t['detail']})")


def write_json(path: Path, settings: Settings, results: dict[str, Any]) -> None:
    document = {
        "python": platform.python_version(),
        "settings": asdict(settings),
        "cycle": f"1 get + {PUTS_PER_ROUND}/{GETS_PER_ROUND} puts",
        **results,
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="depths 1e3 and 1e4, short runs")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results here")
    parser.add_argument(
        "--profile", action="store_true", help="add a cProfile of the engine loop at the top depth"
    )
    parser.add_argument(
        "--reps", type=int, help="timed repetitions per subject and mode (default 3)"
    )
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc section")
    parser.add_argument(
        "--vs",
        metavar="ROOT",
        help="measure the cells against the engine of another checkout too (A/B, same run)",
    )
    parser.add_argument("--cells-only", action="store_true", help="measure the cells only")
    parser.add_argument(
        "--cell-modes", nargs="+", choices=CELL_MODES, default=CELL_MODES, help="cells to measure"
    )
    parser.add_argument("--cell", nargs=4, help=argparse.SUPPRESS)  # a cell's own process
    parser.add_argument(
        "--results",
        action="store_true",
        help="write benchmarks/results/bench_engine.json (docs/performance.md is made from it)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cell:
        kind, depth, mode, seconds = args.cell
        serve_cell(kind, int(depth), mode, float(seconds))
        return 0
    settings = QUICK if args.quick else FULL
    if args.reps:
        settings = replace(settings, reps=args.reps)
    engines = {"this": str(ROOT)}
    if args.vs:
        engines[Path(args.vs).resolve().name] = str(Path(args.vs).resolve())
    cell_depths = CELL_DEPTHS["quick" if args.quick else "full"]
    if args.cells_only:
        reps = args.reps or 5
        cells = measure_cells(engines, cell_depths, reps, CELL_SECONDS, args.cell_modes)
        tables = cell_tables(cells, cell_depths)
        for one in tables:
            print_table(one)
        if args.results:
            print(f"results: {write('bench_engine', tables)}")
        return 0
    print_intro(settings)
    load_start = load()
    lo, hi = min(settings.depths), max(settings.depths)
    rounds = make_rounds(max(hi // PUTS_PER_ROUND, 10_000))
    timings: list[Timing] = []
    checks: list[CrossCheck] = []
    tracked: dict[tuple[str, int, str], int] = {}
    for kind in KINDS:
        kind_timings, kind_checks, kind_tracked = measure_kind(kind, rounds, settings)
        timings += kind_timings
        checks += kind_checks
        tracked.update({(kind, depth, name): n for (depth, name), n in kind_tracked.items()})
    for mode in MODES:
        print_throughput(timings, mode)
    scale_rows = scaling(timings, lo, hi)
    print_scaling(scale_rows, lo, hi)
    print_tracked(tracked)
    print_checks(checks)
    floor = measure_floor(rounds, settings)
    print_floor(floor)
    memory: list[Memory] = []
    if not args.no_memory:
        memory = [memory_per_message(name, settings.memory_messages) for name in SUBJECTS]
        print_memory(memory)
    targets = evaluate(timings, scale_rows, checks, memory)
    print_targets(targets)
    cells = measure_cells(engines, cell_depths, settings.reps, CELL_SECONDS)
    result_tables = [
        *(throughput_table(timings, mode) for mode in MODES),
        *cell_tables(cells, cell_depths),
        table(
            "Memory per queued message (tracemalloc, fresh PRIORITY queue, payload excluded)",
            ["subject", "messages", "bytes/message"],
            [[m.subject, m.messages, round(m.bytes_per_message, 1)] for m in memory],
        ),
        table(
            "Targets",
            ["verdict", "target", "detail"],
            [[verdict(t["ok"]), t["target"], t["detail"]] for t in targets],
        ),
    ]
    for one in result_tables[2:-2]:
        print_table(one)
    load_end = load()
    print(f"\nLoad average (1, 5, 15 min) at the start {load_start}, at the end {load_end}")
    if args.profile:
        for kind in KINDS:
            heading(f"cProfile: engine, events on, {kind} depth {hi}")
            print(profile_engine(kind, hi, rounds, 2_000 if not args.quick else 200))
    if args.results:
        print(f"results: {write('bench_engine', result_tables)}")
    if args.json:
        write_json(
            args.json,
            settings,
            {
                "load_average": {"start": load_start, "end": load_end},
                "timings": [
                    {**asdict(t), "cycles_per_s": t.cycles_per_s, "us_per_cycle": t.us_per_cycle}
                    for t in timings
                ],
                "scaling": scale_rows,
                "tracked_objects": [
                    {"kind": kind, "depth": depth, "subject": name, "objects": n}
                    for (kind, depth, name), n in tracked.items()
                ],
                "cross_checks": [{**asdict(c), "ok": c.ok} for c in checks],
                "memory": [asdict(m) for m in memory],
                "api_floor": floor,
                "targets": targets,
            },
        )
    return 0


def progress(text: str) -> None:
    print(f"  ... {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
