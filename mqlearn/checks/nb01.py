"""Notebook 01 (expiry basics): tenths of a second, MQEI_UNLIMITED, 2013, remaining expiry, CAPEXPRY."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Self

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import LetterSet, Number
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters
from mqlearn.checks.variants import Variant
from mqlearn.checks.wording import duration_words, number_words
from mqlearn.mqi.shortnames import FIELD_SHORT_NAMES


@dataclass(frozen=True)
class RemainingExpiry(Variant):
    """q1: a lifetime (tenths) and a wait that does not end on a whole tenth, shorter than it."""

    expiry: int = 50
    wait_ms: int = 2040

    @classmethod
    def draw(cls, rng: Random) -> Self:
        expiry = rng.randrange(20, 301)
        return cls(expiry, rng.randrange(1, expiry - 1) * 100 + rng.randrange(1, 100))

    @property
    def expiry_s(self) -> str:
        return f"{self.expiry / 10:g}"

    @property
    def wait_s(self) -> str:
        return f"{self.wait_ms / 1000:g}"


def _remaining_expiry(p: RemainingExpiry = RemainingExpiry()) -> Outcome:
    """A message with a few seconds to live is got a little later."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    put_md = Letters().put(q, "A", mq.MD(Expiry=p.expiry))
    qm.sim.advance(ms=p.wait_ms)
    got_md = mq.MD()
    q.get(None, got_md)
    # the answer: got_md.Expiry
    exact = (put_md.Expiry * 100 - qm.sim.now) / 100  # tenths left, unrounded
    return Outcome(
        got_md.Expiry,
        {"as_put": put_md.Expiry, "exact": exact, "rounded_down": int(exact), "got": got_md.Expiry},
    )


q1 = Exercise(
    "nb01.q1",
    question=(
        "In mqlearn, which subtracts the exact time a message waited, what Expiry does the MD "
        "returned by the get hold?"
    ),
    scenario=_remaining_expiry,
    form=Number(example=50),
    rules=("EXP-01", "EXP-11", "EXP-12"),
    explanation=(
        "Expiry counts tenths of a second, and a get writes back what is left of the lifetime, "
        "not the value the putter chose. IBM allows the queue manager to be approximate and to "
        "ignore small intervals; mqlearn subtracts the exact time and rounds the tenths left "
        "up, so a live message never reports 0."
    ),
    hint=(
        "Expiry={p.expiry} is {p.expiry_s} s. How many tenths are left after {p.wait_s} s, and "
        "which way is it rounded?"
    ),
    confirm="{exact} tenths were left, rounded up to {got}.",
    misconceptions=(
        Misconception("as_put", "The put's value is not what a get returns."),
        Misconception(
            "rounded_down",
            "Close, and a real queue manager might report that, but mqlearn rounds the "
            "remaining tenths up.",
        ),
    ),
    variants=RemainingExpiry,
    teaches=lambda outcome: outcome.number("rounded_down") < outcome.number(),
)


def _five_tries() -> list[tuple[str, int]]:
    return [("A", 600), ("B", 0), ("C", CMQC.MQEI_UNLIMITED), ("D", -5), ("E", 1)]


@dataclass(frozen=True)
class FivePuts(Variant):
    """q2: five letters, each with a positive Expiry, MQEI_UNLIMITED, 0 or a negative one; at
    least one of each kind that matters (valid, unlimited, refused)."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED"}
    tries: list[tuple[str, int]] = field(default_factory=_five_tries)

    @classmethod
    def draw(cls, rng: Random) -> Self:
        kinds = ["positive", "unlimited", "refused", *rng.choices(["positive", "refused"], k=2)]
        rng.shuffle(kinds)
        return cls(
            [(letter, _expiry_of(kind, rng)) for letter, kind in zip("ABCDE", kinds, strict=True)]
        )


def _expiry_of(kind: str, rng: Random) -> int:
    """An Expiry of one kind: a valid lifetime, MQEI_UNLIMITED, or one MQPUT refuses."""
    if kind == "unlimited":
        return CMQC.MQEI_UNLIMITED
    if kind == "positive":
        return rng.choice([1, rng.randrange(2, 100), rng.randrange(100, 36_001)])
    return rng.choice([0, -2, -rng.randrange(3, 100), -rng.randrange(100, 10**6)])


def _which_puts_fail(p: FivePuts = FivePuts()) -> Outcome:
    """Five puts with different Expiry values; which ones fail with MQRC_EXPIRY_ERROR?"""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    failed = set()
    tries = p.tries
    for letter, expiry in tries:
        try:
            letters.put(q, letter, mq.MD(Expiry=expiry))
        except mq.MQMIError as error:
            if error.reason == CMQC.MQRC_EXPIRY_ERROR:
                failed.add(letter)
    # the answer: the letters in `failed`
    not_positive = {letter for letter, expiry in tries if expiry <= 0}
    return Outcome(
        failed,
        {"not_positive": not_positive, "depth": qm.curdepth("APP.IN")},
        letters.story(qm),
    )


q2 = Exercise(
    "nb01.q2",
    question="Which of the five puts fail with MQRC_EXPIRY_ERROR (2013)?",
    scenario=_which_puts_fail,
    form=LetterSet(),
    rules=("EXP-02", "EXP-03"),
    explanation=(
        "A lifetime must be a positive number of tenths, or MQEI_UNLIMITED (-1), which means the "
        "message never expires; any other value makes MQPUT fail and nothing is put."
    ),
    hint="Look up the value of CMQC.MQEI_UNLIMITED. Is it one of the five Expiry values?",
    confirm="The other {depth} messages were put.",
    misconceptions=(
        Misconception(
            "not_positive", "-1 is not an error: it is MQEI_UNLIMITED, the MD's initial Expiry."
        ),
    ),
    variants=FivePuts,
    teaches=lambda outcome: bool(outcome.answer) and outcome.number("depth") > 0,
)


@dataclass(frozen=True)
class TwoCaps(Variant):
    """q3: the local queue's cap, the alias's lower one, and a wait shorter than the lower."""

    local_cap: int = 600
    alias_cap: int = 100
    wait_s: int = 4

    @classmethod
    def draw(cls, rng: Random) -> Self:
        alias_cap = 10 * rng.randrange(3, 30)
        local_cap = rng.choice([600, 1200, 3000, 10 * rng.randrange(alias_cap // 10 + 5, 300)])
        return cls(local_cap, alias_cap, rng.randrange(1, alias_cap // 10))

    @property
    def local_words(self) -> str:
        return duration_words(self.local_cap)

    @property
    def alias_words(self) -> str:
        return duration_words(self.alias_cap)

    @property
    def wait_words(self) -> str:
        return duration_words(10 * self.wait_s)


def _capped_expiry(p: TwoCaps = TwoCaps()) -> Outcome:
    """An unlimited message is put through an alias; both the alias and its target cap Expiry."""
    qm = mq.QueueManager("QM1")
    local_cap = p.local_cap  # {p.local_words}
    qm.define_qlocal("APP.IN", capexpry=local_cap)
    qm.define_qalias("APP.ALIAS", target="APP.IN", capexpry=p.alias_cap)  # {p.alias_words}
    Letters().put(mq.Queue(qm, "APP.ALIAS"), "A", mq.MD(Expiry=CMQC.MQEI_UNLIMITED))
    qm.sim.advance(seconds=p.wait_s)
    got_md = mq.MD()
    mq.Queue(qm, "APP.IN").get(None, got_md)
    # the answer: got_md.Expiry
    return Outcome(
        got_md.Expiry,
        {
            "unlimited": CMQC.MQEI_UNLIMITED,
            "local_cap_only": local_cap - qm.sim.now // 100,
            "got": got_md.Expiry,
        },
    )


q3 = Exercise(
    "nb01.q3",
    question=(
        "The message is got from APP.IN {p.wait_words} later. What Expiry does the get return?"
    ),
    scenario=_capped_expiry,
    form=Number(example=600),
    rules=("EXP-06", "EXP-11"),
    explanation=(
        "CAPEXPRY lowers a longer lifetime (MQEI_UNLIMITED included) when the message is put, "
        "and when several definitions on the way have a cap the lowest one wins; the get then "
        "returns what is left of the capped lifetime."
    ),
    hint=(
        "Which cap is lower, the alias's or the local queue's? Then subtract the {p.wait_s} s wait."
    ),
    confirm="The alias's cap of {p.alias_cap} tenths won; {p.wait_s} s later {got} tenths are left.",
    misconceptions=(
        Misconception("unlimited", "The cap applies to MQEI_UNLIMITED too."),
        Misconception("local_cap_only", "The alias is on the path as well, and its cap is lower."),
    ),
    variants=TwoCaps,
    teaches=lambda outcome: 0 < outcome.number() < outcome.number("local_cap_only"),
)

MARKER = 0x12345678  # a value whose four bytes are easy to find


@dataclass(frozen=True)
class MdField(Variant):
    """q4: which 4-byte MQMD field to find (among the first ones, all 4-byte integers but
    Feedback, whose offset is the example answer)."""

    md_field: str = "Expiry"

    @classmethod
    def draw(cls, rng: Random) -> Self:
        return cls(rng.choice(["Report", "MsgType", "Expiry", "Encoding", "CodedCharSetId"]))

    @property
    def marked(self) -> dict[str, int]:
        return {self.md_field: MARKER}

    def shown(self, value: object) -> str | None:
        return "0x12345678" if value == MARKER else None

    @property
    def short_name(self) -> str:
        return FIELD_SHORT_NAMES[self.md_field]

    @property
    def ibm_bytes(self) -> str:
        """IBM i's 1-based byte positions of the field, as the engine packs it."""
        raw = mq.MD(**self.marked).pack(CMQC.MQENC_NORMAL)
        start = raw.index(MARKER.to_bytes(4, "big")) + 1
        return f"{start}-{start + 3}"

    @property
    def before(self) -> list[str]:
        fields = list(FIELD_SHORT_NAMES)
        return fields[: fields.index(self.md_field)]

    @property
    def before_words(self) -> str:
        return number_words(len(self.before)).capitalize()

    @property
    def before_names(self) -> str:
        *first, last = self.before
        return f"{', '.join(first)} and {last}"


def _mdexp_offset(p: MdField = MdField()) -> Outcome:
    """Pack an MQMD with 0x12345678 in one field and find its four bytes."""
    md = mq.MD(**p.marked)
    raw = md.pack(CMQC.MQENC_NORMAL)  # big-endian integers, as on IBM i
    # the answer: where the four bytes 12 34 56 78 start
    offset = raw.index((0x12345678).to_bytes(4, "big"))
    facts = {"offset": offset, "last": offset + 3, "one_based": offset + 1, "length": len(raw)}
    return Outcome(offset, facts)


q4 = Exercise(
    "nb01.q4",
    question=(
        "IBM i documents the {p.md_field} field as {p.short_name}, bytes {p.ibm_bytes} of the MQMD. "
        "Counting from 0, as Python does, at which offset of the packed MD does {p.md_field} start?"
    ),
    scenario=_mdexp_offset,
    form=Number(example=20),
    rules=("MD-01", "MD-03"),
    explanation=(
        "{p.short_name} is the IBM i name of {p.md_field}: a 4-byte signed integer after "
        "{p.before_names}, each 4 bytes long. IBM's byte positions count from 1."
    ),
    hint="{p.before_words} fields of four bytes come before it.",
    confirm="Counted from 0, {p.short_name} fills offsets {offset}-{last} of the {length}-byte MD.",
    misconceptions=(
        Misconception("one_based", "That is IBM's 1-based position; Python counts from 0."),
    ),
    variants=MdField,
    teaches=lambda outcome: outcome.number("one_based") == outcome.number() + 1,
)
