"""The layers of mqlearn, as the code imports them: nothing imports a layer above its own.

mqi (and the rule catalogue's ``rules``) < engine < interop < compat < {pymqi, ibmmq} < patterns
< {viz, checks, pipeline} < cli. ``compat`` is what the pymqi and ibmmq shims share. The three top
libraries do not import one another. ``from mqlearn import …`` (the package's facade, which loads
engine, interop and patterns) counts as importing ``patterns``. Run by
``make lint``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mqlearn"
TIERS = (("mqi", "rules"), ("engine",), ("interop",), ("compat",), ("pymqi", "ibmmq"),
         ("program_runner",), ("patterns",), ("viz", "checks", "pipeline"), ("cli",))  # fmt: skip
TIER = {layer: rank for rank, layers in enumerate(TIERS) for layer in layers}
FACADE = "patterns"  # the highest layer mqlearn/__init__.py imports


def layer_of(path: Path) -> str:
    first = path.relative_to(PACKAGE).parts[0]
    return first.removesuffix(".py")


def imported_layers(path: Path) -> set[str]:
    """The mqlearn layers a module imports, lazily (inside functions) or not."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[0] == "mqlearn":
                found.add(parts[1] if len(parts) > 1 else FACADE)
    return found


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE)


def test_every_layer_is_placed() -> None:
    layers = {layer_of(p) for p in MODULES}
    assert layers <= set(TIER), f"place these in TIERS: {layers - set(TIER)}"


def test_no_two_modules_share_a_name() -> None:
    """A module's name says what it holds, so it is never the same as another package's module."""
    seen: dict[str, list[str]] = {}
    for path in MODULES:
        if path.name != "__init__.py":
            seen.setdefault(path.name, []).append(str(path.relative_to(PACKAGE)))
    assert {name: where for name, where in seen.items() if len(where) > 1} == {}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_imports_upward_or_sideways(path: Path) -> None:
    own = layer_of(path)
    for other in imported_layers(path) - {own}:
        assert TIER[other] < TIER[own], f"{own} imports {other}, which is not below it"


def test_the_check_catches_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("def f():\n    from mqlearn.interop.mqsc import run\n")
    assert imported_layers(module) == {"interop"}


# The parts around the queue manager see it through engine.ports.QueueManagerPort only (docs/engine.md,
# "How the engine is laid out"): none of them imports engine.qmgr, not even for type checking.
PORT_USERS = ("mqget", "generated", "transmission", "pubsub", "channel", "ports")


def imported_modules(path: Path) -> set[str]:
    """Every mqlearn module a module imports, by its dotted name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("mqlearn.")}


@pytest.mark.parametrize("name", PORT_USERS)
def test_the_parts_around_the_queue_manager_do_not_import_it(name: str) -> None:
    imported = imported_modules(PACKAGE / "engine" / f"{name}.py")
    assert "mqlearn.engine.qmgr" not in imported


def test_the_port_check_catches_a_type_checking_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from mqlearn.engine.qmgr import QueueManager\n"
    )
    assert "mqlearn.engine.qmgr" in imported_modules(module)


def test_the_queue_manager_is_a_port() -> None:
    """QueueManager has every member of the port (mypy checks the types where it is passed)."""
    from mqlearn.engine.ports import QueueManagerPort
    from mqlearn.engine.qmgr import QueueManager

    qm = QueueManager("QM1", record_events=False)
    missing = [
        name for name in dir(QueueManagerPort) if not name.startswith("_") and not hasattr(qm, name)
    ]
    assert not missing
