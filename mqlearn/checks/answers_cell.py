"""A student's answer read from their notebook file as data: parsed, never run.

An answer cell is a code cell whose metadata holds ``{"mqlearn": {"answer": "nb03.q1"}}`` and
whose source is one assignment of one literal, ``answer = {"A", "C"}`` (comments allowed). The
literal is read with :mod:`ast`, the way ``ast.literal_eval`` reads one, but narrower: numbers,
strings, bytes, True/False/None, and tuples, lists, sets and dicts of them, ``set()`` for an
empty set, and a name of IBM's constant table written ``CMQC.MQRC_Q_FULL`` (looked up in
mqlearn's own table, not run). Anything else (a call, a variable, an object, a second statement,
an answer in another cell) is not an answer, and :class:`NotAnAnswer` says why in a sentence for
the student. Nothing the student wrote is executed, so nothing they wrote can change a grade but
the value itself.
"""

from __future__ import annotations

import ast
from typing import Any

from mqlearn.mqi import cmqc

ANSWER = "answer"  # the variable an answer cell assigns
METADATA_KEY = "mqlearn"  # cell metadata {"mqlearn": {"answer": "nb03.q1"}}
MAX_SOURCE = 10_000  # characters: an answer is a few letters or numbers
MAX_DEPTH = 8  # nesting of containers in one answer


class NotAnAnswer(ValueError):
    """The cell holds no answer the grader can read, and why (a sentence for the student)."""


BLANK = ...  # what an untouched answer cell holds: ``answer = ...``


def cell_source(cell: dict[str, Any]) -> str:
    """A notebook cell's source as one string (nbformat allows a list of lines)."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(str(part) for part in source)
    return source if isinstance(source, str) else ""


def answer_exercise(cell: object) -> str | None:
    """The exercise a cell is the answer cell of (None: it is no answer cell)."""
    if not isinstance(cell, dict) or cell.get("cell_type") != "code":
        return None
    metadata = cell.get("metadata")
    marked = metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None
    name = marked.get(ANSWER) if isinstance(marked, dict) else None
    return name if isinstance(name, str) else None


def read_answer(source: str) -> object:
    """The literal an answer cell assigns to ``answer`` (``...`` when untouched); NotAnAnswer
    says what else the cell holds."""
    if len(source) > MAX_SOURCE:
        raise NotAnAnswer(f"the answer cell holds {len(source)} characters; an answer is a value")
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise NotAnAnswer(f"the answer cell is not valid Python ({error})") from None
    statements = tree.body
    if not statements:
        raise NotAnAnswer(f"the answer cell is empty: write {ANSWER} = <your answer> in it")
    if len(statements) > 1:
        raise NotAnAnswer(
            f"the answer cell holds {len(statements)} statements; it must hold exactly one, "
            f"{ANSWER} = <your answer>, and nothing else"
        )
    (statement,) = statements
    if not (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == ANSWER
    ):
        raise NotAnAnswer(f"the answer cell must be one line {ANSWER} = <your answer>")
    return _literal(statement.value, 0)


def _literal(node: ast.expr, depth: int) -> object:
    """The value of a literal expression; NotAnAnswer for anything that would have to run."""
    if depth > MAX_DEPTH:
        raise NotAnAnswer("the answer is nested too deeply to be an answer")
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _literal(node.operand, depth + 1)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = [_literal(item, depth + 1) for item in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(items)
        if isinstance(node, ast.List):
            return items
        try:
            return frozenset(items)
        except TypeError:
            raise NotAnAnswer("a set can hold letters, numbers and strings only") from None
    elif isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise NotAnAnswer("the answer uses ** in a dict: write the value itself")
        try:
            return {
                _literal(k, depth + 1): _literal(v, depth + 1)
                for k, v in zip(node.keys, node.values, strict=True)
                if k is not None
            }
        except TypeError:
            raise NotAnAnswer("a dict's keys can be letters, numbers and strings only") from None
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("set", "frozenset")
        and not node.args
        and not node.keywords
    ):
        return frozenset()  # set(): the empty set, as Python writes it
    elif (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "CMQC"
        and node.attr.startswith("MQ")
        and isinstance(getattr(cmqc, node.attr, None), int)
    ):
        return getattr(cmqc, node.attr)
    raise NotAnAnswer(
        f"{_what(node)} `{_excerpt(node)}` is code, not a value: the grader reads the answer "
        "and never runs it. Write the value itself, such as {'A', 'C'}, 540 or 'DLQ'"
    )


def _what(node: ast.expr) -> str:
    kinds: dict[type[ast.expr], str] = {
        ast.Call: "a call",
        ast.Name: "a name",
        ast.Attribute: "an attribute",
        ast.BinOp: "a calculation",
        ast.Subscript: "an index",
        ast.Lambda: "a function",
        ast.Compare: "a comparison",
    }
    return next((label for kind, label in kinds.items() if isinstance(node, kind)), "an expression")


def _excerpt(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
