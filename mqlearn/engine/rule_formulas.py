"""The formulas of the priority and expiry rules, one home each (docs/rules.md).

Priority lanes (MD-02), CAPEXPRY (EXP-06), deadlines, eligibility (EXP-20), remaining lifetime
(EXP-11, EXP-12). The engine, the views and the pipeline all call these functions, so each formula
is written once. (The discard walk, EXP-21..24, is not a formula: its home is
``mqlearn.engine.mqget.walk``.)

Every function takes plain ints or numpy integer arrays (element by element) and returns the same
kind: it uses arithmetic and comparisons only, never a branch on a value and never numpy itself (the
engine does not import numpy). A choice is made by multiplication: ``a + c * (b - a)`` is ``b``
where ``c`` holds and ``a`` elsewhere. Plain arithmetic is also what numba compiles, so the
pipeline's kernel calls the same functions (compiled there, not here).

Times are virtual milliseconds; Expiry values and caps are tenths of a second. ``NEVER`` is the
deadline of an unlimited Expiry, so ``now >= deadline`` needs no special case.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:  # for the annotations only: the engine never imports numpy
    from numpy import ndarray

NEVER = 1 << 62  # the deadline of MQEI_UNLIMITED
UNLIMITED = -1  # MQEI_UNLIMITED: Expiry without a limit
NOLIMIT = -1  # MQCEX_NOLIMIT: CAPEXPRY without a cap
AS_Q_DEF = -1  # MQPRI_PRIORITY_AS_Q_DEF: the queue's default priority
TENTH_MS = 100

# an int, or a numpy integer array; the other arguments may be arrays or plain ints
N = TypeVar("N", int, "ndarray")
Arg = Any  # an int, a bool or an array (mixed freely, numpy broadcasts)


# -- priority (rule MD-02) -------------------------------------------------------------------------
def put_priority(priority: N, defprty: Arg) -> N:
    """The Priority a put stores: MQPRI_PRIORITY_AS_Q_DEF (-1) takes DEFPRTY of the first
    definition on the path; any other value is kept, above MAXPRTY included."""
    result: N = priority + (priority == AS_Q_DEF) * (defprty - priority)
    return result


@overload
def exceeds_maxprty(priority: int, maxprty: int) -> bool: ...
@overload
def exceeds_maxprty(priority: ndarray, maxprty: Arg) -> ndarray: ...
def exceeds_maxprty(priority: Any, maxprty: Arg) -> Any:
    """The put completes with MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049): the message is accepted."""
    return priority > maxprty


def queued_priority(priority: N, maxprty: Arg) -> N:
    """The priority a message is queued at on a priority queue: its own, at most MAXPRTY."""
    result: N = priority + (priority > maxprty) * (maxprty - priority)
    return result


def lane(priority: N, maxprty: Arg, fifo: Arg, defprty: Arg) -> N:
    """The priority a message is ordered at: DEFPRTY on a FIFO queue (``fifo`` true), else
    :func:`queued_priority`. The message's Priority field keeps the value it was put with."""
    queued = queued_priority(priority, maxprty)
    result: N = queued + fifo * (defprty - queued)
    return result


# -- CAPEXPRY (rule EXP-06) ------------------------------------------------------------------------
def smaller_cap(cap: N, other: Arg) -> N:
    """The smaller of two CAPEXPRY values, NOLIMIT (-1, or any value below 1) being no cap."""
    smaller = (other > 0) & ((cap <= 0) | (other < cap))
    result: N = cap + smaller * (other - cap)
    return result


def path_cap(caps: Iterable[Any]) -> Any:
    """The cap a put gets through several definitions (alias, remote definition, transmission
    queue): the smallest CAPEXPRY among them, NOLIMIT when none has one."""
    return reduce(smaller_cap, caps, NOLIMIT)


def capped_expiry(expiry: N, cap: Arg) -> N:
    """The Expiry a put stores: the cap when the Expiry is longer (unlimited included), else the
    Expiry; NOLIMIT leaves it as it is."""
    longer = (cap > 0) & ((expiry == UNLIMITED) | (expiry > cap))
    result: N = expiry + longer * (cap - expiry)
    return result


def capped_deadline(deadline: N, cap: Arg, now: Arg) -> N:
    """The deadline of a message the queue manager puts with a lifetime already running (a
    channel's arrival, a dead letter): the cap counted from ``now`` when it ends sooner."""
    limit = now + cap * TENTH_MS
    sooner = (cap > 0) & (limit < deadline)
    result: N = deadline + sooner * (limit - deadline)
    return result


# -- lifetime (rules EXP-11, EXP-12, EXP-20) -------------------------------------------------------
def deadline_of(expiry: N, now: Arg) -> N:
    """The absolute deadline (ms) of an Expiry (tenths) that starts at ``now``; NEVER if unlimited."""
    deadline = now + expiry * TENTH_MS
    result: N = deadline + (expiry == UNLIMITED) * (NEVER - deadline)
    return result


@overload
def is_expired(deadline: int, now: int) -> bool: ...
@overload
def is_expired(deadline: ndarray, now: Arg) -> ndarray: ...
def is_expired(deadline: Any, now: Arg) -> Any:
    """Eligible for discard at ``now``: its lifetime has run out (rule EXP-20, now ≥ deadline)."""
    return deadline <= now


def remaining_tenths(deadline: N, now: Arg) -> N:
    """Expiry as a get returns it: the time left in tenths rounded up, 0 once the deadline has
    passed, -1 (MQEI_UNLIMITED) for NEVER (rules EXP-11, EXP-12)."""
    left = deadline - now
    tenths = (left * (left > 0) + (TENTH_MS - 1)) // TENTH_MS
    result: N = tenths + (deadline == NEVER) * (UNLIMITED - tenths)
    return result
