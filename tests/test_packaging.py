"""The project's set-up files agree with each other (pyproject, environment.yml, binder/, CI),
the notebooks carry no widget state, and the nbval sanitizer blanks only what really varies."""

from __future__ import annotations

import importlib
import json
import os
import re
import tomllib
from pathlib import Path

from nbval.plugin import get_sanitize_patterns
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# conda packages with no PyPI counterpart in pyproject: the interpreter, its installer, Spark's JVM.
# Every other package has the same name on conda-forge and on PyPI.
CONDA_ONLY = {"python", "pip", "openjdk"}


def _conda_specs() -> dict[str, str]:
    """environment.yml's dependencies as name -> version constraint (conda's own syntax)."""
    block = (ROOT / "environment.yml").read_text().split("dependencies:", 1)[1]
    specs = {}
    for line in block.splitlines():
        entry = line.strip()
        if entry.startswith("- "):
            name, constraint = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", entry[2:]).groups()
            specs[name.lower()] = constraint
    return specs


def _pypi_specs(requirements: list[str]) -> dict[str, SpecifierSet]:
    return {Requirement(r).name.lower(): Requirement(r).specifier for r in requirements}


# What conda and Binder install besides the core: the pipeline's packages (notebook 09, pandas
# frames), so that environment.yml, like `make lab` and `make test`, installs everything.
FULL_INSTALL_EXTRAS = ("pipeline",)


def test_environment_yml_has_the_runtime_and_pipeline_dependencies_and_bounds_of_pyproject() -> (
    None
):
    conda = _conda_specs()
    runtime = _pypi_specs(PYPROJECT["dependencies"])
    for extra in FULL_INSTALL_EXTRAS:
        runtime |= _pypi_specs(PYPROJECT["optional-dependencies"][extra])
    missing = runtime.keys() - conda.keys()
    assert not missing, f"missing from environment.yml: {sorted(missing)}"
    differing = {n: (str(s), conda[n]) for n, s in runtime.items() if SpecifierSet(conda[n]) != s}
    assert not differing, f"bounds differ (pyproject, environment.yml): {differing}"


def test_environment_yml_adds_only_extras_and_non_python_packages() -> None:
    extras = {
        name: spec
        for requirements in PYPROJECT["optional-dependencies"].values()
        for name, spec in _pypi_specs(requirements).items()
    }
    allowed = CONDA_ONLY | extras.keys() | _pypi_specs(PYPROJECT["dependencies"]).keys()
    conda = _conda_specs()
    assert not conda.keys() - allowed, f"not in pyproject: {sorted(conda.keys() - allowed)}"
    differing = {n: c for n, c in conda.items() if n in extras and SpecifierSet(c) != extras[n]}
    assert not differing, f"extras' bounds differ from pyproject: {differing}"


def test_binder_environment_resolves_to_the_root_file() -> None:
    link = ROOT / "binder" / "environment.yml"
    assert link.is_symlink(), "repo2docker ignores root files once binder/ exists: keep a symlink"
    assert link.resolve() == (ROOT / "environment.yml").resolve()


def test_binder_postbuild_installs_mqlearn_alone_and_quiets_spark() -> None:
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK), "repo2docker runs postBuild only if it is executable"
    script = post_build.read_text()
    assert "pip install --no-deps -e ." in script
    assert "binder/log4j2.properties" in script
    assert "rootLogger.level" in (ROOT / "binder" / "log4j2.properties").read_text()


def test_ci_runs_the_readme_test_command_and_never_downloads_a_browser() -> None:
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    assert "make test" in ci.read_text()
    assert "make test" in (ROOT / "README.md").read_text()
    for path in (ci, ROOT / "Makefile"):
        assert "playwright install" not in path.read_text(), f"{path.name} downloads a browser"


def test_the_core_install_has_nothing_the_browser_course_lacks() -> None:
    """`pip install mqlearn` must work in Pyodide (JupyterLite): none of these has a build there."""
    heavy = {"numpy", "pandas", "pyarrow", "numba", "pyspark"}
    core = _pypi_specs(PYPROJECT["dependencies"]).keys()
    assert not core & heavy, f"in the core install: {sorted(core & heavy)}"
    assert heavy <= _pypi_specs(PYPROJECT["optional-dependencies"]["pipeline"]).keys()
    install = re.search(
        r"pip install --quiet -e '\.\[([a-z,]+)\]'", (ROOT / "Makefile").read_text()
    )
    assert install and set(FULL_INSTALL_EXTRAS) <= set(install.group(1).split(","))


def test_console_script_target_exists() -> None:
    module, _, function = PYPROJECT["scripts"]["mqlearn"].partition(":")
    assert callable(getattr(importlib.import_module(module), function))


def test_no_notebook_carries_widget_state() -> None:
    """Saved widget state goes stale and bloats diffs; widgets are rebuilt when cells run."""
    with_state = [
        path.name
        for path in sorted((ROOT / "notebooks").glob("*.ipynb"))
        if "widgets" in json.loads(path.read_text())["metadata"]
    ]
    assert not with_state, f"clear metadata.widgets in {with_state}"


def _sanitize(text: str) -> str:
    patterns = get_sanitize_patterns((ROOT / "tests" / "nbval_sanitize.cfg").read_text())
    for regex, replacement in patterns:
        text = re.sub(regex, replacement, text)
    return text


def test_nbval_sanitizer_blanks_run_dependent_text() -> None:
    assert _sanitize("<Queue object at 0x7f3a2c1b9d50>") == "<Queue object at 0xADDRESS>"
    assert _sanitize("{'type': 'bar', 'uid': 'e0c5-41aa'}") == "{'type': 'bar', 'uid': \"UID\"}"
    assert _sanitize('<div id="0b4f6c2e-8d7a-4c1e-9f00-1234567890ab">') == '<div id="UUID">'
    assert _sanitize("Wall time: 1.52 s") == "Wall time: TIME"
    timeit = "3.1 ms ± 42.5 µs per loop (mean ± std. dev. of 7 runs, 100 loops each)"
    assert _sanitize(timeit) == "TIMEIT"


def test_nbval_sanitizer_keeps_virtual_times_and_mq_values() -> None:
    text = "t=6.0 s CURDEPTH=2 Expiry=540 MQRC_NO_MSG_AVAILABLE (2033) MsgId=414d5120514d31"
    assert _sanitize(text) == text


def test_install_steps_compile_the_local_replay() -> None:
    """make's install step and Binder's postBuild compile the local replay's numba code once
    mqlearn is installed, so that a learner's first replay starts warm."""
    makefile = (ROOT / "Makefile").read_text()
    install = makefile.split("$(STAMP): pyproject.toml")[1].split("\n\n")[0]
    steps = ("pip install", "mqlearn pipeline compile", "touch $(STAMP)")
    assert [install.index(step) for step in steps] == sorted(install.index(s) for s in steps)
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert post_build.index("pip install --no-deps -e .") < post_build.index(
        "mqlearn pipeline compile"
    )
