"""Small pieces of English for texts computed per variant: lists of letters, numbers in words,
durations. Each gives, for the notebooks' own scenario (seed 0), the words the notebook uses."""

from __future__ import annotations

from collections.abc import Iterable

TENTHS_PER_S = 10
_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def listing(items: Iterable[str], last: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C`` (``or`` with ``last="or"``); ``nothing`` for none."""
    words = list(items)
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def plural(count: int, one: str, many: str) -> str:
    """``one`` for a count of 1, ``many`` otherwise."""
    return one if count == 1 else many


def number_words(n: int) -> str:
    """0 to 99 in words (``forty-two``); larger numbers as digits."""
    if 0 <= n < 20:
        return _ONES[n]
    if 20 <= n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("" if ones == 0 else f"-{_ONES[ones]}")
    return str(n)


def seconds(tenths: int) -> str:
    """A lifetime in tenths as a reader says it briefly: ``2 s``, ``2.5 s``, ``10 min``."""
    if tenths >= 600 and tenths % 600 == 0:
        return f"{tenths // 600} min"
    return f"{tenths / TENTHS_PER_S:g} s"


def duration_words(tenths: int) -> str:
    """A lifetime in words: ``ten seconds``, ``one minute``, ``2.5 seconds``."""
    if tenths >= 600 and tenths % 600 == 0:
        minutes = tenths // 600
        return f"{number_words(minutes)} {plural(minutes, 'minute', 'minutes')}"
    if tenths % TENTHS_PER_S == 0:
        whole = tenths // TENTHS_PER_S
        return f"{number_words(whole)} {plural(whole, 'second', 'seconds')}"
    return f"{tenths / TENTHS_PER_S:g} seconds"


def capitalized(text: str) -> str:
    """``text`` with its first letter upper case."""
    return text[:1].upper() + text[1:]
