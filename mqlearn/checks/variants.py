"""Exercise variants: a scenario's numbers drawn from a seed, and its code shown with them.

An exercise that has variants declares its parameters in one place, a frozen dataclass derived
from :class:`Variant`: the field defaults are seed 0, the notebook's own scenario, and ``draw``
picks a variant within bounds that keep the exercise about the same rule. The scenario takes the
parameters as ``p`` (``def _scenario(p: Puts = Puts()) -> Outcome``) and reads them as ``p.name``;
calling it without arguments still runs the notebook's scenario.

``show()`` prints the scenario's code with the variant written in (:func:`render`): every
``p.name`` becomes the value as a Python literal (the class's ``SHOWN`` names the values the code
writes by name, such as ``CMQC.MQEI_UNLIMITED`` for -1), ``*p.name`` the items, ``**p.name`` the
``key=value`` pairs, an f-string of text and ``{p.name}`` only the plain string, and ``{p.name}``
in a comment or docstring its text; the parameter ``p`` is left out of signatures and calls, and
``# noqa`` comments (for the linter, not the learner) are left out. So seed 0 prints the
notebook's code character for character.

Each variant class draws from its own stream, ``random.Random`` seeded with the class's qualified
name and the seed (a string seed is hashed with SHA-512, so it is the same on every machine and
run); exercises that share a class share its variant. Renaming a class, or changing its
``draw``, changes every student's variant: do it between courses, not during one.
"""

from __future__ import annotations

import ast
import inspect
import io
import random
import re
import textwrap
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

PARAMS = "p"  # the name a scenario gives its variant's parameters
_PLACEHOLDER = re.compile(r"\{p\.(\w+)(?::([^{}]*))?\}")
_LINT_DIRECTIVE = re.compile(r"#\s*noqa\b.*")


@dataclass(frozen=True)
class Variant:
    """The parameters of one exercise's scenario; the defaults are seed 0."""

    SHOWN: ClassVar[Mapping[object, str]] = {}  # value -> how the scenario's code writes it

    def shown(self, value: object) -> str | None:
        """How the scenario's code writes ``value``, when not as a plain literal (None)."""
        try:
            return self.SHOWN.get(value)
        except TypeError:  # an unhashable value is never named
            return None

    @classmethod
    def draw(cls, rng: random.Random) -> Self:
        """A variant drawn with ``rng``, within the bounds that keep the exercise's rule."""
        raise NotImplementedError(f"{cls.__name__} does not say how to draw a variant")


def before_and_after_an_end(rng: random.Random, last_after_s: int) -> tuple[int, int, int]:
    """A lifetime of 2-119 whole seconds, a moment before its end (s after the start) and a
    later one past its end (s after the first, below ``last_after_s``): for the exercises where
    something happens while a message lives and something else once it has expired."""
    lifetime_s = rng.randrange(2, 120)
    before_s = rng.randrange(1, lifetime_s)
    return lifetime_s, before_s, rng.randrange(lifetime_s - before_s + 1, last_after_s)


def variant_rng(key: str, seed: int) -> random.Random:
    """The random stream of variant ``seed`` of the parameters named ``key`` (stable across runs
    and machines)."""
    return random.Random(f"mqlearn-variant:{key}:{seed}")


def literal(value: object, shown: Callable[[object], str | None] = lambda value: None) -> str:
    """``value`` as the Python a person would write (double-quoted strings, as ruff formats),
    each item written as ``shown`` names it, if it does."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    name = shown(value)
    if name is not None:
        return name
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, bytes):
        return "b" + _quoted(value.decode("latin-1"))
    if isinstance(value, tuple):
        inner = ", ".join(literal(item, shown) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(item, shown) for item in value) + "]"
    if isinstance(value, frozenset | set):
        items = sorted(literal(item, shown) for item in value)
        return "{" + ", ".join(items) + "}" if items else "set()"
    raise TypeError(f"no literal for {value!r}")


def _quoted(text: str) -> str:
    shown = repr(text)
    if shown.startswith("'") and '"' not in text:
        return '"' + shown[1:-1].replace("\\'", "'") + '"'
    return shown


def fill(template: str, params: object) -> str:
    """``template`` with each ``{p.name}`` (or ``{p.name:spec}``) replaced by its value's text."""
    return _PLACEHOLDER.sub(lambda m: format(getattr(params, m[1]), m[2] or ""), template)


Edit = tuple[tuple[int, int], tuple[int, int], str]  # (row, col) to (row, col): new text


def render(function: Callable[..., object], params: Variant | None) -> str:
    """The dedented source of ``function`` with the variant ``params`` written in."""
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines(keepends=True)
    edits = [] if params is None else _Writer(lines, params).edits(ast.parse(source))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and _LINT_DIRECTIVE.fullmatch(token.string):
            row, col = token.start
            start = len(lines[row - 1][:col].rstrip())
            edits.append(((row, start), token.end, ""))
            continue
        if params is None:
            continue
        plain = token.type == tokenize.STRING and not _is_f_string(token.string)
        if (token.type == tokenize.COMMENT or plain) and _PLACEHOLDER.search(token.string):
            edits.append((token.start, token.end, fill(token.string, params)))
    return _apply(lines, edits)


def _is_f_string(token: str) -> bool:
    prefix = token[: min(i for i in (token.find("'"), token.find('"')) if i >= 0)]
    return "f" in prefix.lower()


def _apply(lines: list[str], edits: list[Edit]) -> str:
    """Apply non-overlapping edits, last first, so earlier positions stay valid."""
    text = list(lines)
    for (row, col), (end_row, end_col), new in sorted(edits, reverse=True):
        head, tail = text[row - 1][:col], text[end_row - 1][end_col:]
        text[row - 1 : end_row] = [head + new + tail]
    return "".join(text)


class _Writer(ast.NodeVisitor):
    """The edits that write a variant into a function's source (see the module docstring)."""

    def __init__(self, lines: list[str], params: Variant) -> None:
        self.lines = lines
        self.params = params
        self.found: list[Edit] = []

    def edits(self, tree: ast.AST) -> list[Edit]:
        self.visit(tree)
        return self.found

    def _at(self, row: int, byte_col: int) -> tuple[int, int]:
        """A (row, character column) from ast's (row, UTF-8 byte column)."""
        return row, len(self.lines[row - 1].encode("utf-8")[:byte_col].decode("utf-8"))

    def _start(self, node: ast.expr | ast.arg | ast.keyword) -> tuple[int, int]:
        return self._at(node.lineno, node.col_offset)

    def _end(self, node: ast.expr | ast.arg | ast.keyword) -> tuple[int, int]:
        assert node.end_lineno is not None and node.end_col_offset is not None
        return self._at(node.end_lineno, node.end_col_offset)

    def _value(self, node: ast.expr) -> object:
        assert isinstance(node, ast.Attribute)
        return getattr(self.params, node.attr)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if not _is_params(node.value):
            self.generic_visit(node)
            return
        try:
            shown = literal(self._value(node), self.params.shown)
        except TypeError:  # no literal (a mapping, say): shown as written
            return
        self.found.append((self._start(node), self._end(node), shown))

    def visit_Starred(self, node: ast.Starred) -> None:
        if isinstance(node.value, ast.Attribute) and _is_params(node.value.value):
            items = self._value(node.value)
            assert isinstance(items, tuple | list), "only a sequence can be starred"
            shown = ", ".join(literal(item, self.params.shown) for item in items)
            self.found.append((self._start(node), self._end(node), shown))
        else:
            self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        """An f-string of text and ``{p.name}`` only becomes the plain string it makes."""
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                parts.append(part.value)
            elif (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, ast.Attribute)
                and _is_params(part.value.value)
                and part.conversion == -1
                and part.format_spec is None
            ):
                parts.append(str(self._value(part.value)))
            else:
                return  # any other f-string is shown as written
        self.found.append((self._start(node), self._end(node), _quoted("".join(parts))))

    def visit_Call(self, node: ast.Call) -> None:
        passed: list[ast.expr | ast.keyword] = [*node.args, *node.keywords]
        passed.sort(key=lambda item: (item.lineno, item.col_offset))
        self._drop([i for i, item in enumerate(passed) if _passes_params(item)], passed)
        self.visit(node.func)
        for argument in node.args:
            self.visit(argument)
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg is None and isinstance(value, ast.Attribute) and _is_params(value.value):
                pairs = self._value(value)  # **p.name: its key=value pairs
                assert isinstance(pairs, dict), "only a dict can be passed as **p.name"
                shown = ", ".join(
                    f"{key}={literal(item, self.params.shown)}" for key, item in pairs.items()
                )
                self.found.append((self._start(keyword), self._end(keyword), shown))
            else:
                self.visit(value)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        arguments = node.args.args
        defaults: list[ast.expr | None] = [None] * (len(arguments) - len(node.args.defaults))
        defaults += node.args.defaults
        ends: list[ast.expr | ast.arg] = [d or a for a, d in zip(arguments, defaults, strict=True)]
        drop = [i for i, a in enumerate(arguments) if a.arg == PARAMS]
        self._drop(drop, list(arguments), ends)
        for statement in node.body:  # not the signature's annotations and defaults
            self.visit(statement)

    def _drop(
        self,
        drop: list[int],
        items: list[ast.expr | ast.keyword] | list[ast.arg],
        ends: list[ast.expr | ast.arg] | None = None,
    ) -> None:
        """Leave ``items[i]`` for ``i`` in ``drop`` out of a comma-separated list."""
        last = ends if ends is not None else list(items)
        for i in drop:
            if i > 0:  # from the end of the one before: ", p"
                self.found.append((self._end(last[i - 1]), self._end(last[i]), ""))
            elif len(items) > 1:  # the first of several: "p, "
                self.found.append((self._start(items[0]), self._start(items[1]), ""))
            else:
                self.found.append((self._start(items[0]), self._end(last[0]), ""))


def _is_params(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == PARAMS


def _passes_params(item: ast.expr | ast.keyword) -> bool:
    """``p`` or ``p=p`` among a call's arguments."""
    value = item.value if isinstance(item, ast.keyword) else item
    return _is_params(value)


def around_the_first_live_one(
    rng: random.Random, expired: Callable[[], int], live: Callable[[], int]
) -> list[int]:
    """Three to nine lifetimes for a queue that a get or a browse meets in order: one or two
    ``expired()`` ones, then a ``live()`` one, then one to six more of either kind, at least one
    expired (so some expired message is left behind the live one, and what the call passed over
    differs from "every expired message")."""
    before = [expired() for _ in range(rng.randrange(1, 3))]
    kinds = [True] + [rng.random() < 0.5 for _ in range(rng.randrange(0, 6))]
    rng.shuffle(kinds)
    after = [expired() if kind else live() for kind in kinds]
    return [*before, live(), *after]
