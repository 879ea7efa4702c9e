"""The course without numpy, pandas, pyarrow, numba or Spark: what `pip install mqlearn` gives and
what the browser (JupyterLite, Pyodide) has. Notebooks 00-08 run top to bottom in a kernel where
those imports fail (tests/core_only/sitecustomize.py) and every output nbval checks is the saved
one; the package's modules below the pipeline import there too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCKER = ROOT / "tests" / "core_only"
COURSE = sorted(p for p in (ROOT / "notebooks").glob("0[0-8]_*.ipynb"))


def _env() -> dict[str, str]:
    """This interpreter, with the blocker first on the path (inherited by nbval's kernels)."""
    path = os.pathsep.join([str(BLOCKER), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path.rstrip(os.pathsep)}


def test_the_blocker_blocks_and_the_core_imports() -> None:
    program = """
import importlib, pkgutil, sys
import mqlearn
# the pipeline and its figures need them (mqlearn.cli loads the pipeline only for its commands)
skip = ("mqlearn.pipeline", "mqlearn.viz.pipeline_figures")
for info in pkgutil.walk_packages(mqlearn.__path__, "mqlearn."):
    if not info.name.startswith(skip):
        importlib.import_module(info.name)
for name in ("numpy", "pandas", "pyarrow", "numba", "pyspark"):
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        continue
    raise SystemExit(f"{name} imported")
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", program], env=_env(), capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


EXPIRY_PROGRAM = ROOT / "tests" / "compat" / "programs" / "expiry_remaining_in_md.py"


@pytest.mark.parametrize(
    "args",
    [
        ["course", "--help"],
        ["course", "show", "nb03.q1", "--student", "s1001", "--solution"],
        ["run", "--events", str(EXPIRY_PROGRAM)],
    ],
)
def test_the_course_commands_run_without_the_pipeline_packages(args: list[str]) -> None:
    """`pip install mqlearn` gives an instructor `mqlearn course ...` and a developer `mqlearn
    run PROGRAM.py --events`; only `mqlearn pipeline` needs the pipeline extra."""
    done = subprocess.run(
        [sys.executable, "-m", "mqlearn.cli", *args],
        env=_env(),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "blocked" not in done.stderr


@pytest.mark.slow
def test_notebooks_00_to_08_run_without_the_pipeline_packages_and_print_the_same() -> None:
    assert len(COURSE) == 9, [p.name for p in COURSE]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--nbval-lax",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            str(ROOT / "tests" / "nbval_sanitize.cfg"),
            *map(str, COURSE),
        ],
        env=_env(),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-6000:]
    assert " failed" not in done.stdout and " passed" in done.stdout
