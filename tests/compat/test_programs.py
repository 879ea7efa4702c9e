"""Programs written for pymqi (tests/compat/programs/) run unchanged on the simulator, once as
pymqi and once as ibmmq: the test changes only their import line, as a learner would.

Each program asserts what a real queue manager (IBM's developer container, QM1) gives it; a
program that fails here would fail the same assertion against the shim, not against MQ. A first
line ``# mqlearn-test: realtime`` marks programs that sleep or run threads: they run with the
clock following the wall clock (docs/compat.md, "Threads and time").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mqlearn import ibmmq, pymqi

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("*.py"))
IMPORTS = {"pymqi": "from mqlearn import pymqi", "ibmmq": "from mqlearn import ibmmq as pymqi"}
REALTIME = "# mqlearn-test: realtime"


def as_library(source: str, library: str) -> str:
    """The program with its one import line changed (and nothing else)."""
    lines = source.splitlines()
    assert lines.count("import pymqi") == 1, "a corpus program imports pymqi once, alone"
    return "\n".join(IMPORTS[library] if line == "import pymqi" else line for line in lines)


@pytest.fixture(autouse=True)
def fresh_queue_managers() -> None:
    pymqi.reset()


def test_the_corpus_is_large_enough() -> None:
    assert len(PROGRAMS) >= 45


@pytest.mark.parametrize("library", sorted(IMPORTS))
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_runs_unchanged(program: Path, library: str) -> None:
    source = program.read_text(encoding="utf-8")
    if source.startswith(REALTIME):
        (ibmmq if library == "ibmmq" else pymqi).realtime("QM1", 1.0)
    changed = as_library(source, library)
    assert changed.count("\n") == source.rstrip("\n").count("\n")  # one line changed, none added
    exec(compile(changed, str(program), "exec"), {"__name__": "__main__"})


def test_the_import_change_is_the_only_change() -> None:
    source = "import pymqi\nx = pymqi.MD()\n"
    assert as_library(source, "ibmmq") == "from mqlearn import ibmmq as pymqi\nx = pymqi.MD()"
