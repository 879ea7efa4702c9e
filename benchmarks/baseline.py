"""The bare baseline for the engine benchmark: the expiry rule with nothing else around it.

Two minimal queues that apply mqlearn's lazy-expiry rule (EXP-22 for FIFO, EXP-23 for priority
delivery) to ``(deadline_ms, payload)`` tuples, with no MD objects, no validation, no message
identifiers and no event log. They set the yardstick the engine is compared with: whatever the
engine spends above this is the price of the public API and the MQ semantics around the rule.

Both take Expiry in tenths of a second (-1 = unlimited) and keep virtual time in milliseconds,
as the engine does; a message is expired when ``now >= deadline``. ``put``/``get`` are for priming
and for replaying a sequence untimed; ``run_rounds`` is the timed loop, with the deque operations
inlined (no method calls per message), so the yardstick is as bare as plain Python gets.

A round is a sequence of ``(payload, expiry, priority)`` puts, then ``step_ms`` of virtual time,
then ``gets`` gets; a get on an empty queue is never expected there and fails with IndexError.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from typing import Any

NEVER = float("inf")
"""Deadline of a message put with Expiry -1 (MQEI_UNLIMITED)."""

LANES = 10
"""Priority lanes 0–9 (MAXPRTY 9); a higher Priority is ordered in lane 9."""

Round = Sequence[tuple[bytes, int, int]]
"""The puts of one round: (payload, Expiry in tenths, Priority)."""


class FifoBaseline:
    """One deque in arrival order; a get pops expired messages until the first live one."""

    __slots__ = ("_queue", "discarded", "now")

    def __init__(self) -> None:
        self._queue: deque[tuple[float, bytes]] = deque()
        self.now = 0
        self.discarded = 0

    def advance(self, ms: int) -> None:
        self.now += ms

    def put(self, data: bytes, expiry: int, priority: int) -> None:
        """Append a message; FIFO delivery ignores its priority (MD-02)."""
        deadline = NEVER if expiry == -1 else self.now + expiry * 100
        self._queue.append((deadline, data))

    def get(self) -> bytes | None:
        """Return the first live message, discarding the expired ones in front of it (EXP-22)."""
        queue = self._queue
        now = self.now
        while queue:
            deadline, data = queue.popleft()
            if deadline > now:
                return data
            self.discarded += 1
        return None

    def depth(self) -> int:
        return len(self._queue)

    def run_rounds(
        self, rounds: Sequence[Round], start: int, count: int, step_ms: int, gets: int
    ) -> None:
        """Rounds ``start`` .. ``start + count - 1`` (modulo ``len(rounds)``), inlined."""
        append, popleft = self._queue.append, self._queue.popleft
        now, discarded, n = self.now, self.discarded, len(rounds)
        for r in range(start, start + count):
            for payload, expiry, _priority in rounds[r % n]:
                append((NEVER if expiry == -1 else now + expiry * 100, payload))
            now += step_ms
            for _ in range(gets):
                while True:
                    deadline, _data = popleft()
                    if deadline > now:
                        break
                    discarded += 1
        self.now, self.discarded = now, discarded


class PriorityBaseline:
    """One deque per priority lane and a pointer to the highest lane that may hold messages."""

    __slots__ = ("_lanes", "_top", "discarded", "now")

    def __init__(self) -> None:
        self._lanes: list[deque[tuple[float, bytes]]] = [deque() for _ in range(LANES)]
        self._top = -1
        self.now = 0
        self.discarded = 0

    def advance(self, ms: int) -> None:
        self.now += ms

    def put(self, data: bytes, expiry: int, priority: int) -> None:
        lane = priority if priority < LANES else LANES - 1
        deadline = NEVER if expiry == -1 else self.now + expiry * 100
        self._lanes[lane].append((deadline, data))
        if lane > self._top:
            self._top = lane

    def get(self) -> bytes | None:
        """Walk lanes from the top, oldest first; discard expired ones until a live one (EXP-23)."""
        lanes = self._lanes
        now = self.now
        lane = self._top
        while lane >= 0:
            queue = lanes[lane]
            while queue:
                deadline, data = queue.popleft()
                if deadline > now:
                    self._top = lane
                    return data
                self.discarded += 1
            lane -= 1
        self._top = -1
        return None

    def depth(self) -> int:
        return sum(len(queue) for queue in self._lanes)

    def run_rounds(
        self, rounds: Sequence[Round], start: int, count: int, step_ms: int, gets: int
    ) -> None:
        """Rounds ``start`` .. ``start + count - 1`` (modulo ``len(rounds)``), inlined."""
        lanes, top = self._lanes, self._top
        now, discarded, n = self.now, self.discarded, len(rounds)
        for r in range(start, start + count):
            for payload, expiry, priority in rounds[r % n]:
                lane = priority if priority < LANES else LANES - 1
                lanes[lane].append((NEVER if expiry == -1 else now + expiry * 100, payload))
                if lane > top:
                    top = lane
            now += step_ms
            for _ in range(gets):
                while True:
                    queue = lanes[top]
                    while not queue:
                        top -= 1
                        queue = lanes[top]
                    deadline, _data = queue.popleft()
                    if deadline > now:
                        break
                    discarded += 1
        self._top, self.now, self.discarded = top, now, discarded


Baseline = FifoBaseline | PriorityBaseline


def make_baseline(msgdlvsq: str) -> Baseline:
    """The baseline for a queue's MSGDLVSQ: ``"FIFO"`` or ``"PRIORITY"``."""
    if msgdlvsq == "FIFO":
        return FifoBaseline()
    if msgdlvsq == "PRIORITY":
        return PriorityBaseline()
    raise ValueError(f"msgdlvsq must be 'FIFO' or 'PRIORITY', not {msgdlvsq!r}")


class ApiFloor:
    """The cheapest possible queue with mqlearn's call shape: ``put(data, md, pmo)`` and
    ``get(max_length, md, gmo)`` with MD objects, and FIFO lazy expiry; nothing else (no
    validation, no MsgIds, no context, no event log, no store bookkeeping).

    It is not a queue manager: it measures what the call shape alone costs on this machine, the
    ceiling for any engine that offers the pymqi-like API in pure Python.
    """

    __slots__ = ("_queue", "now")

    def __init__(self) -> None:
        self._queue: deque[tuple[float, bytes, int]] = deque()
        self.now = 0

    def put(self, data: bytes, md: Any, pmo: Any = None) -> None:
        expiry = md.Expiry
        self._queue.append((NEVER if expiry == -1 else self.now + expiry * 100, data, md.Priority))

    def get(self, max_length: int | None, md: Any, gmo: Any = None) -> bytes:
        popleft, now = self._queue.popleft, self.now
        while True:
            deadline, data, priority = popleft()
            if deadline > now:
                break
        fields = md.__dict__
        fields["Priority"] = priority
        fields["Expiry"] = -1 if deadline == NEVER else math.ceil((deadline - now) / 100)
        return data
