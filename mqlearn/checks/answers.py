"""The forms a prediction can take, and how a learner's answer is read into that form.

Each form reads what a learner typed (``read``), raising ValueError with a sentence meant for the
learner when the answer has the wrong shape, and writes a value back the way a learner would type
it (``show``). Reading is forgiving where Python makes it easy to slip: ``{}`` for an empty set,
``"a"`` for ``"A"``, a reason code by number or by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import reason_name
from mqlearn.mqi.shortnames import from_short_name


class AnswerForm(Protocol):
    """How one kind of answer is read and shown; ``example`` is shown when an answer is missing."""

    example: str

    def read(self, value: object) -> object: ...

    def show(self, value: object) -> str:
        """``value`` as Python a learner could type as the answer."""
        ...


def _letter(value: object) -> str:
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"each message is named by its letter, such as 'A'; got {value!r}")
    return value.strip().upper()


def _letters(value: object) -> list[str]:
    if isinstance(value, str | bytes):
        return [_letter(value)]
    if isinstance(value, dict) and not value:
        return []  # `{}` is an empty dict in Python, but a learner means "no messages"
    if isinstance(value, set | frozenset | list | tuple):
        return [_letter(item) for item in value]
    raise ValueError(f"give the letters in a set or a list, such as {{'A', 'C'}}; got {value!r}")


class LetterSet:
    """Which messages: a set of letters, order ignored (``set()`` for none).

    ``example`` shows the form of an answer; an exercise whose right answer is the default
    example passes another (tests/test_checks.py checks that no example is ever right).
    """

    def __init__(self, example: str = "{'A', 'C'}") -> None:
        self.example = f"{example}  (or set() for none)"

    def read(self, value: object) -> frozenset[str]:
        return frozenset(_letters(value))

    def show(self, value: object) -> str:
        letters = sorted(self.read(value))
        return "{" + ", ".join(repr(letter) for letter in letters) + "}" if letters else "set()"


class LetterList:
    """Messages in order: a list of letters (``[]`` for none)."""

    example = "['B', 'A']  (or [] for none)"

    def read(self, value: object) -> tuple[str, ...]:
        if isinstance(value, set | frozenset):
            raise ValueError("the order matters here: give a list such as ['B', 'A'], not a set")
        return tuple(_letters(value))

    def show(self, value: object) -> str:
        return repr(list(self.read(value)))


def _integer(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is a whole number, such as 30; got {value!r}")
    return value


class Number:
    """One whole number (a depth, an Expiry in tenths, a length, an offset)."""

    def __init__(self, example: int = 30) -> None:
        self.example = repr(example)

    def read(self, value: object) -> int:
        return _integer(value, "the answer")

    def show(self, value: object) -> str:
        return repr(self.read(value))


class Numbers:
    """Several whole numbers in a fixed order, such as (outer Expiry, embedded Expiry)."""

    def __init__(self, *names: str) -> None:
        self.names = names
        self.example = "(" + ", ".join(f"<{name}>" for name in names) + ")"

    def read(self, value: object) -> tuple[int, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(self.names):
            raise ValueError(f"give {len(self.names)} numbers as {self.example}; got {value!r}")
        return tuple(_integer(item, name) for item, name in zip(value, self.names, strict=True))

    def show(self, value: object) -> str:
        return repr(self.read(value))


class Reason:
    """A reason code: a number (2033), a CMQC name ("MQRC_NO_MSG_AVAILABLE") or an IBM i one
    ("RC2033"). ``0`` (MQRC_NONE) means the call succeeded. An MQDLH's Reason may be a feedback
    code, so MQFB_ names are read too."""

    def __init__(self, example: str = "MQRC_Q_FULL") -> None:
        """``example`` names the reason code shown when an answer is missing (an exercise whose
        right answer may be 2053 shows another)."""
        code = getattr(C, example)
        self.example = f"CMQC.{example}  (or its number, {code}; 0 if the call succeeds)"

    def read(self, value: object) -> int:
        if isinstance(value, str):
            name = value.strip().upper()
            if name.isdigit():
                return int(name)
            if name.startswith("RC") and name[2:].isdigit():
                try:
                    name = from_short_name(name)
                except KeyError:
                    raise ValueError(f"{value!r} is not a reason code CMQC knows") from None
            if not name.startswith(("MQRC_", "MQFB_")):
                name = "MQRC_" + name
            code = getattr(C, name, None)
            if not isinstance(code, int):
                raise ValueError(f"{value!r} is not a reason code name CMQC knows")
            return code
        return _integer(value, "a reason code")

    def show(self, value: object) -> str:
        code = self.read(value)
        name = reason_name(code)
        return f"CMQC.{name}" if hasattr(C, name) else str(code)


class Choice:
    """One of a few named places or outcomes, compared without regard to case."""

    def __init__(self, options: Iterable[str]) -> None:
        self.options = tuple(options)
        self.example = "one of " + ", ".join(repr(option) for option in self.options)

    def read(self, value: object) -> str:
        if isinstance(value, str):
            for option in self.options:
                if value.strip().upper() == option.upper():
                    return option
        raise ValueError(f"choose {self.example}; got {value!r}")

    def show(self, value: object) -> str:
        return repr(self.read(value))
