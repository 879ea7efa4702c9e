"""Self-checking exercises in the style of Kaggle's learntools: ``check``, ``hint``, ``solution``.

Every exercise asks the learner to *predict* what the engine will do in a small scenario. The
expected value is never written down: ``check`` runs the scenario on the engine each time and
compares. A wrong answer gets the rule behind the behaviour (with its rule ID), and a targeted
sentence when it matches a known misconception (the scenario supplies those tempting answers
among its facts).

``check``, ``hint`` and ``solution`` print plain text (the notebooks' saved outputs are that text).
A ``Feedback`` shown by Jupyter as a cell's value (``nb03.q1.grade(answer)``) renders as Markdown,
where each rule ID links to its entry in the rule catalogue, docs/rules.md (``mqlearn.rules``).
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mqlearn.checks.answers import AnswerForm
from mqlearn.rules import RULE_ID_PATTERN, RULE_IDS, RULE_TITLES, rule_anchor

ANSWER_MARKER = "# the answer"  # in a scenario, the lines from here on are not shown
NOTEBOOK_TO_ROOT = "../"  # rule links are relative to the repository; notebooks are in notebooks/


@dataclass(frozen=True)
class Outcome:
    """What a scenario produced: the right ``answer``, ``facts`` for the feedback wording (and
    the tempting wrong answers named by misconceptions), and the engine's ``story``."""

    answer: object
    facts: Mapping[str, object] = field(default_factory=dict)
    story: str = ""


@dataclass(frozen=True)
class Misconception:
    """A tempting wrong answer: the fact holding it, and what to tell a learner who gave it."""

    fact: str
    says: str


@dataclass(frozen=True)
class Feedback:
    """The result of a check: ``correct`` is None while the answer is still missing."""

    correct: bool | None
    text: str

    def __str__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        """The text as Markdown for Jupyter, one paragraph per line, each rule ID of the
        catalogue a link to its entry (relative to a notebook in ``notebooks/``)."""
        return "\n\n".join(
            markdown_with_rule_links(line.strip()) for line in self.text.splitlines()
        )


_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character


def markdown_with_rule_links(text: str, root: str = NOTEBOOK_TO_ROOT) -> str:
    """``text`` as Markdown that renders exactly as written, except that every rule ID the
    catalogue defines becomes a link to its entry: ``root`` + ``rule_anchor(id)``, with the rule's
    title as the link's tooltip. IDs the catalogue does not define are left as text."""
    parts: list[str] = []
    position = 0
    for found in RULE_ID_PATTERN.finditer(text):
        rule = found.group()
        if rule not in RULE_IDS:
            continue
        parts.append(_MARKDOWN_PUNCTUATION.sub(r"\\\1", text[position : found.start()]))
        parts.append(f'[{rule}]({root}{rule_anchor(rule)} "{RULE_TITLES[rule]}")')
        position = found.end()
    parts.append(_MARKDOWN_PUNCTUATION.sub(r"\\\1", text[position:]))
    return "".join(parts)


class Exercise:
    """One prediction exercise (see the module docstring).

    ``question`` is what ``show()`` prints above the scenario's code, after the code of the
    ``helpers`` the scenario calls. ``explanation`` and ``confirm`` are ``str.format`` templates
    over the scenario's facts; ``explanation`` must not give the answer away (it is shown on a
    wrong answer), ``confirm`` may.
    """

    def __init__(
        self,
        name: str,
        *,
        question: str,
        scenario: Callable[[], Outcome],
        form: AnswerForm,
        rules: tuple[str, ...],
        explanation: str,
        hint: str,
        confirm: str = "",
        misconceptions: tuple[Misconception, ...] = (),
        helpers: tuple[Callable[..., object], ...] = (),
    ) -> None:
        if not rules:
            raise ValueError(f"exercise {name} must name the rules it teaches")
        for rule in rules:
            try:
                rule_anchor(rule)  # the rule must have an entry in docs/rules.md
            except ValueError as error:
                raise ValueError(f"exercise {name}: {error}") from None
        self.name = name
        self.question = question
        self.scenario = scenario
        self.form = form
        self.rules = rules
        self.explanation = explanation
        self._hint = hint
        self.confirm = confirm
        self.misconceptions = misconceptions
        self.helpers = helpers

    def __repr__(self) -> str:
        return f"<Exercise {self.name} ({self.citation})>"

    @property
    def citation(self) -> str:
        """``rule EXP-22`` or ``rules EXP-22, EXP-23``, as notebooks cite rules."""
        label = "rule" if len(self.rules) == 1 else "rules"
        return f"{label} {', '.join(self.rules)}"

    def expected(self) -> object:
        """The right answer, found by running the scenario on the engine now."""
        return self.form.read(self.scenario().answer)

    def grade(self, answer: object) -> Feedback:
        """Compare ``answer`` with what the engine does; the text explains a wrong answer."""
        if answer is None:
            return Feedback(
                None,
                f"{self.name}: replace None with your prediction, for example "
                f"answer = {self.form.example}",
            )
        try:
            given = self.form.read(answer)
        except ValueError as error:
            return Feedback(False, f"{self.name}: {error}")
        outcome = self.scenario()
        facts = dict(outcome.facts)
        if given == self.form.read(outcome.answer):
            confirm = self.confirm.format(**facts)
            return Feedback(True, f"Correct! {confirm}".rstrip())
        lines = [f"Not quite: the engine does not give {self.form.show(given)}."]
        for misconception in self.misconceptions:
            if given == self.form.read(facts[misconception.fact]):
                lines.append(misconception.says.format(**facts))
        lines.append(f"{self.explanation.format(**facts)} ({self.citation})")
        lines.append(f"Try {self.name}.hint(), or {self.name}.solution() to see the answer.")
        return Feedback(False, "\n".join(lines))

    def check(self, answer: object) -> None:
        """Print the feedback for ``answer`` (never raises, so a notebook runs on)."""
        print(self.grade(answer).text)

    def hint(self) -> None:
        """Print a nudge towards the answer."""
        print(f"Hint: {self._hint}")

    def solution(self) -> None:
        """Print the answer, why it is right (with the rule IDs) and what the engine did."""
        outcome = self.scenario()
        facts = dict(outcome.facts)
        print(f"Solution: answer = {self.form.show(outcome.answer)}")
        why = " ".join(part.format(**facts) for part in (self.explanation, self.confirm) if part)
        print(f"Why: {why} ({self.citation})")
        if outcome.story:
            print("\nWhat the engine did (time, queue manager, queue, event, message):")
            print(outcome.story)

    def show(self) -> None:
        """Print the question and the code the check runs on the engine, up to the question."""
        print(textwrap.fill(f"{self.name}: {self.question}", width=100) + "\n")
        print("The scenario (each check runs it on the engine, then reads the answer):\n")
        for helper in self.helpers:
            print(textwrap.dedent(inspect.getsource(helper)))
        print(_scenario_source(self.scenario))


def _scenario_source(scenario: Callable[[], Outcome]) -> str:
    """The scenario's body without its ``def`` line and docstring, dedented, up to the
    ``# the answer`` comment (what follows reads the answer and the facts out of the engine)."""
    lines = textwrap.dedent(inspect.getsource(scenario)).splitlines()
    body = ast.parse("\n".join(lines)).body[0]
    assert isinstance(body, ast.FunctionDef)
    statements = body.body
    if ast.get_docstring(body) is not None:
        statements = statements[1:]
    shown = lines[statements[0].lineno - 1 :]
    for index, line in enumerate(shown):
        if line.strip().startswith(ANSWER_MARKER):
            shown = shown[:index]
            break
    return textwrap.dedent("\n".join(shown)).rstrip()
