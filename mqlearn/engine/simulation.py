"""Virtual time: an integer-millisecond clock over a heap of scheduled actions (as SimPy's core).

Nothing in mqlearn reads the wall clock. A :class:`Simulation` holds ``now`` and a heap of
``(time, seq, action)`` entries; :meth:`Simulation.advance` runs every action that falls due, in
time order and, for equal times, in the order they were scheduled, so the same script always
produces the same history.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

Action = Callable[[], None]

DEFAULT_START = datetime(2026, 1, 1, 9, 0, 0, tzinfo=UTC)
_HUNDREDTHS_PER_DAY = 8_640_000
_HHMM: dict[int, str] = {}  # minute of the day -> "HHMM" (at most 1,440 entries)
_SSTH: dict[int, str] = {}  # hundredth of the minute -> "SSTH" (at most 6,000 entries)


def _digits(cache: dict[int, str], value: int, base: int) -> str:
    """``value`` as two two-digit numbers in ``base`` ("HHMM" of a minute of the day in base
    60, "SSTH" of a hundredth of the minute in base 100), made once per value."""
    text = cache.get(value)
    if text is None:
        high, low = divmod(value, base)
        text = cache[value] = f"{high:02d}{low:02d}"
    return text


@dataclass(order=True)
class Scheduled:
    """One pending action. ``cancel()`` leaves it in the heap but makes it do nothing."""

    time: int
    seq: int
    action: Action | None = field(compare=False)
    daemon: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.action = None


class Simulation:
    """The virtual clock shared by queue managers, channels and scheduled puts.

    ``daemon`` actions are housekeeping (such as expiry scans) that never make a message
    arrive; an unlimited MQGET wait gives up when nothing else is pending.
    """

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        self.now: int = 0
        self.start = start
        self._heap: list[Scheduled] = []
        self._seq = 0
        self._stamps: dict[int, tuple[str, str]] = {}  # hundredths -> (PutDate, PutTime)
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        self.start_date = midnight
        self._start_hundredths = (start - midnight) // timedelta(milliseconds=10)
        self._dates: dict[int, str] = {}

    def __repr__(self) -> str:
        return f"<Simulation now={self.now} ms, {len(self._heap)} pending>"

    # -- scheduling ---------------------------------------------------------------------------
    def at(self, time_ms: int, action: Action, *, daemon: bool = False) -> Scheduled:
        """Run ``action`` at absolute virtual time ``time_ms`` (not earlier than now)."""
        if time_ms < self.now:
            raise ValueError(f"time_ms {time_ms} is in the past (now is {self.now})")
        self._seq += 1
        entry = Scheduled(int(time_ms), self._seq, action, daemon)
        heapq.heappush(self._heap, entry)
        return entry

    def schedule(self, delay_ms: int, action: Action, *, daemon: bool = False) -> Scheduled:
        """Run ``action`` ``delay_ms`` milliseconds from now."""
        if delay_ms < 0:
            raise ValueError(f"delay_ms must not be negative, got {delay_ms}")
        return self.at(self.now + int(delay_ms), action, daemon=daemon)

    def peek(self, *, include_daemons: bool = True) -> int | None:
        """Time of the next pending action, or None when nothing is pending."""
        self._drop_cancelled()
        if include_daemons:
            return self._heap[0].time if self._heap else None
        times = [e.time for e in self._heap if e.action is not None and not e.daemon]
        return min(times) if times else None

    def step(self) -> None:
        """Run the next pending action, moving ``now`` to its time."""
        self._drop_cancelled()
        if not self._heap:
            raise IndexError("no scheduled action is pending")
        entry = heapq.heappop(self._heap)
        self.now = entry.time
        if entry.action is not None:
            entry.action()

    # -- running ------------------------------------------------------------------------------
    def run_until(self, time_ms: int) -> int:
        """Run every action due at or before ``time_ms``, then set ``now`` to ``time_ms``."""
        if time_ms < self.now:
            raise ValueError(f"cannot go back in time: {time_ms} < now {self.now}")
        heap = self._heap
        while heap and heap[0].time <= time_ms:
            entry = heapq.heappop(heap)
            self.now = entry.time
            if entry.action is not None:
                entry.action()
        self.now = time_ms
        return time_ms

    def advance(
        self, *, seconds: float | None = None, tenths: int | None = None, ms: int | None = None
    ) -> int:
        """Move the clock forward by exactly one of ``seconds``, ``tenths`` or ``ms``.

        Runs each scheduled action at its own time on the way; returns the new ``now``.
        """
        given = [v for v in (seconds, tenths, ms) if v is not None]
        if len(given) != 1:
            raise TypeError("advance() takes exactly one of seconds=, tenths= or ms=")
        if seconds is not None:
            delta = round(seconds * 1000)
        elif tenths is not None:
            delta = int(tenths) * 100
        else:
            delta = int(ms)  # type: ignore[arg-type]
        if delta < 0:
            raise ValueError(f"time only moves forward: got {given[0]}")
        return self.run_until(self.now + delta)

    def run(self) -> int:
        """Run until only daemon actions (housekeeping) are pending; returns ``now``."""
        while (t := self.peek(include_daemons=False)) is not None:
            self.run_until(t)
        return self.now

    # -- calendar -----------------------------------------------------------------------------
    def datetime(self, time_ms: int | None = None) -> datetime:
        """The calendar instant (UTC) of a virtual time (default: now)."""
        return self.start + timedelta(milliseconds=self.now if time_ms is None else time_ms)

    def stamp(self, time_ms: int) -> tuple[str, str]:
        """PutDate (YYYYMMDD) and PutTime (HHMMSSTH, GMT) of a virtual time.

        Integer arithmetic on hundredths of a second, no strftime: a get at depth 1e6 meets put
        times scattered over hours, so a miss of the per-hundredth cache must stay cheap too (the
        date is cached per day, PutTime made of its HHMM and SSTH halves, each cached).
        """
        hundredths = time_ms // 10
        stamp = self._stamps.get(hundredths)
        if stamp is None:
            day, rest = divmod(self._start_hundredths + hundredths, _HUNDREDTHS_PER_DAY)
            date = self._dates.get(day)
            if date is None:
                date = (self.start_date + timedelta(days=day)).strftime("%Y%m%d")
                self._dates[day] = date
            minute, cents = divmod(rest, 6_000)
            stamp = (date, _digits(_HHMM, minute, 60) + _digits(_SSTH, cents, 100))
            if len(self._stamps) >= 4096:
                self._stamps.clear()
            self._stamps[hundredths] = stamp
        return stamp

    def _drop_cancelled(self) -> None:
        heap = self._heap
        while heap and heap[0].action is None:
            heapq.heappop(heap)
