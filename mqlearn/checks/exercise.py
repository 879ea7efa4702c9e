"""Self-checking exercises in the style of Kaggle's learntools: ``check``, ``hint``, ``solution``.

Every exercise asks the learner to *predict* what the engine will do in a small scenario. The
expected value is never written down: ``check`` runs the scenario on the engine each time and
compares. A wrong answer gets the rule behind the behaviour (with its rule ID), and a targeted
sentence when it matches a known misconception (the scenario supplies those tempting answers
among its facts).

An exercise may have variants (:mod:`mqlearn.checks.variants`): its scenario's numbers drawn from a
seed, with the answer, the hint and the feedback computed for that variant. Every method takes a
``seed`` (default: the one in use, :mod:`mqlearn.checks.students`); seed 0 is the notebook's own
scenario. ``check`` also counts the attempt in the learner's progress record
(:mod:`mqlearn.checks.progress`), printing nothing more than the feedback.

``check``, ``hint`` and ``solution`` print plain text (the notebooks' saved outputs are that text).
A ``Feedback`` shown by Jupyter as a cell's value (``nb03.q1.grade(answer)``) renders as Markdown,
where each rule ID links to its entry in the rule catalogue, docs/rules.md (``mqlearn.rules``).
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mqlearn.checks import progress
from mqlearn.checks.answers import AnswerForm
from mqlearn.checks.students import current_seed, read_seed
from mqlearn.checks.variants import Variant, render, variant_rng
from mqlearn.checks.wellposed import problems
from mqlearn.rules import RULE_ID_PATTERN, RULE_IDS, RULE_TITLES, rule_anchor

ANSWER_MARKER = "# the answer"  # in a scenario, the lines from here on are not shown
NOTEBOOK_TO_ROOT = "../"  # rule links are relative to the repository; notebooks are in notebooks/
MAX_DRAWS = 100  # a variant class whose draws are mostly ill-posed has bounds to fix


@dataclass(frozen=True)
class Outcome:
    """What a scenario produced: the right ``answer``, ``facts`` for the feedback wording (and
    the tempting wrong answers named by misconceptions), and the engine's ``story``."""

    answer: object
    facts: Mapping[str, object] = field(default_factory=dict)
    story: str = ""

    def number(self, fact: str | None = None) -> int:
        """The answer, or the fact named, as a whole number (for ``teaches`` checks)."""
        value = self.answer if fact is None else self.facts[fact]
        if not isinstance(value, int):
            raise TypeError(f"{fact or 'the answer'} is not a whole number: {value!r}")
        return value


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

    With ``variants`` (a :class:`~mqlearn.checks.variants.Variant` class), the scenario takes the
    variant's parameters as its argument, and every text is also a template over them, as
    ``{p.name}``. ``teaches`` is a cheap check that a variant's outcome still shows the rules
    cited (say, that the get discarded something); tests run it on hundreds of seeds.
    """

    def __init__(
        self,
        name: str,
        *,
        question: str,
        scenario: Callable[..., Outcome],
        form: AnswerForm,
        rules: tuple[str, ...],
        explanation: str,
        hint: str,
        confirm: str = "",
        misconceptions: tuple[Misconception, ...] = (),
        helpers: tuple[Callable[..., object], ...] = (),
        variants: type[Variant] | None = None,
        teaches: Callable[[Outcome], bool] | None = None,
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
        self.variants = variants
        self.teaches = teaches

    def __repr__(self) -> str:
        return f"<Exercise {self.name} ({self.citation})>"

    @property
    def citation(self) -> str:
        """``rule EXP-22`` or ``rules EXP-22, EXP-23``, as notebooks cite rules."""
        label = "rule" if len(self.rules) == 1 else "rules"
        return f"{label} {', '.join(self.rules)}"

    def params(self, seed: int | None = None) -> Variant | None:
        """The parameters of variant ``seed`` (default: the seed in use; 0 is the notebook's
        scenario), or None for an exercise without variants."""
        seed = self._seed(seed)
        if self.variants is None:
            return None
        if seed == 0:
            return self.variants()
        return draw_variant(self.variants, seed, self.sharing())[0]

    def sharing(self) -> list[Exercise]:
        """The exercises of this one's module that share its variant parameters (itself
        included): one scenario asked about in several exercises, as notebook 03's four puts."""
        module = sys.modules.get(self.scenario.__module__)
        found = [
            value
            for value in (vars(module).values() if module is not None else ())
            if isinstance(value, Exercise) and value.variants is self.variants
        ]
        return found if self in found else [self, *found]

    def outcome(self, seed: int | None = None) -> Outcome:
        """Run variant ``seed`` of the scenario on the engine."""
        params = self.params(seed)
        return self.scenario() if params is None else self.scenario(params)

    def expected(self, seed: int | None = None) -> object:
        """The right answer, found by running the scenario on the engine now."""
        return self.form.read(self.outcome(seed).answer)

    def grade(self, answer: object, seed: int | None = None) -> Feedback:
        """Compare ``answer`` with what the engine does; the text explains a wrong answer."""
        if answer is None:
            return Feedback(
                None,
                f"{self.name}: replace None with your prediction, for example "
                f"answer = {self.form.example}",
            )
        try:
            self.form.read(answer)
        except ValueError as error:
            return Feedback(False, f"{self.name}: {error}")
        params = self.params(seed)
        outcome = self.scenario() if params is None else self.scenario(params)
        return self.feedback(answer, outcome, params)

    def feedback(self, answer: object, outcome: Outcome, params: Variant | None) -> Feedback:
        """The feedback for ``answer`` (not None, of the right form) given the ``outcome`` of
        the variant ``params``: what ``grade`` says once the engine has run."""
        given = self.form.read(answer)
        facts = _facts(outcome, params)
        if given == self.form.read(outcome.answer):
            confirm = self.confirm.format(**facts)
            return Feedback(True, f"Correct! {confirm}".rstrip())
        lines = [f"Not quite: the engine does not give {self.form.show(given)}."]
        for misconception in self.misconceptions_in(answer, outcome):
            lines.append(misconception.says.format(**facts))
        lines.append(f"{self.explanation.format(**facts)} ({self.citation})")
        lines.append(f"Try {self.name}.hint(), or {self.name}.solution() to see the answer.")
        return Feedback(False, "\n".join(lines))

    def misconceptions_in(self, answer: object, outcome: Outcome) -> list[Misconception]:
        """The misconceptions ``answer`` (of the right form) matches in ``outcome``: the
        tempting wrong answers it is (the gradebook counts them across a class)."""
        given = self.form.read(answer)
        return [m for m in self.misconceptions if given == self.form.read(outcome.facts[m.fact])]

    def check(self, answer: object, seed: int | None = None) -> None:
        """Print the feedback for ``answer`` (never raises, so a notebook runs on), and count a
        graded attempt in the learner's progress record."""
        feedback = self.grade(answer, seed)
        print(feedback.text)
        if feedback.correct is not None:
            progress.record_quietly(self.name, feedback.correct)

    def hint(self, seed: int | None = None) -> None:
        """Print a nudge towards the answer."""
        print(f"Hint: {self._text(self._hint, self.params(seed))}")

    def solution(self, seed: int | None = None) -> None:
        """Print the answer, why it is right (with the rule IDs) and what the engine did, and
        count the showing in the learner's progress record."""
        params = self.params(seed)
        outcome = self.scenario() if params is None else self.scenario(params)
        facts = _facts(outcome, params)
        progress.record_solution_quietly(self.name)
        print(f"Solution: answer = {self.form.show(outcome.answer)}")
        why = " ".join(part.format(**facts) for part in (self.explanation, self.confirm) if part)
        print(f"Why: {why} ({self.citation})")
        if outcome.story:
            print("\nWhat the engine did (time, queue manager, queue, event, message):")
            print(outcome.story)

    def show(self, seed: int | None = None) -> None:
        """Print the question and the code the check runs on the engine, up to the question."""
        seed = self._seed(seed)
        params = self.params(seed)
        question = self._text(self.question, params)
        print(textwrap.fill(f"{self.name}: {question}", width=100) + "\n")
        if params is not None and seed != 0:
            print(f"(Your variant of this exercise: seed {seed}.)\n")
        print("The scenario (each check runs it on the engine, then reads the answer):\n")
        for helper in self.helpers:
            print(render(helper, params))
        print(_scenario_source(self.scenario, params))

    def _seed(self, seed: int | None) -> int:
        try:
            return current_seed() if seed is None else read_seed(seed)
        except ValueError as error:
            raise ValueError(f"{self.name}: {error}") from None

    @staticmethod
    def _text(template: str, params: Variant | None) -> str:
        return template if params is None else template.format(p=params)


_drawn: dict[tuple[type[Variant], int], tuple[Variant, int]] = {}


def draw_variant(
    variants: type[Variant], seed: int, exercises: list[Exercise]
) -> tuple[Variant, int]:
    """Variant ``seed`` of ``variants``, well-posed for every one of ``exercises``, and how many
    draws it took: the stream of the seed is drawn from until the engine finds a variant that is
    (:mod:`mqlearn.checks.wellposed`). Remembered, so each seed is drawn once per process."""
    key = (variants, seed)
    if key not in _drawn:
        rng = variant_rng(f"{variants.__module__}.{variants.__qualname__}", seed)
        for tries in range(1, MAX_DRAWS + 1):
            candidate = variants.draw(rng)
            if not any(problems(exercise, candidate) for exercise in exercises):
                _drawn[key] = (candidate, tries)
                break
        else:
            names = ", ".join(exercise.name for exercise in exercises)
            raise RuntimeError(
                f"{names}: no well-posed variant for seed {seed} in {MAX_DRAWS} draws"
            )
    return _drawn[key]


def _facts(outcome: Outcome, params: Variant | None) -> dict[str, object]:
    """The facts the texts are formatted with: the outcome's, and the variant as ``p``."""
    facts = dict(outcome.facts)
    if params is not None:
        facts["p"] = params
    return facts


def _scenario_source(scenario: Callable[..., Outcome], params: Variant | None = None) -> str:
    """The scenario's body without its ``def`` line and docstring, dedented, up to the
    ``# the answer`` comment (what follows reads the answer and the facts out of the engine),
    with the variant ``params`` written in."""
    lines = render(scenario, params).splitlines()
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
