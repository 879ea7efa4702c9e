"""The project's set-up files agree with each other (pyproject, environment.yml, binder/)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[]", requirement.strip(), maxsplit=1)[0].lower()


def _conda_packages() -> set[str]:
    text = (ROOT / "environment.yml").read_text()
    block = text.split("dependencies:", 1)[1]
    names = {
        _name(line.strip()[2:]) for line in block.splitlines() if line.strip().startswith("- ")
    }
    return names - {"python", "pip"}


def test_environment_yml_lists_the_runtime_dependencies_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {_name(r) for r in project["dependencies"]}
    assert runtime <= _conda_packages(), (
        f"missing from environment.yml: {runtime - _conda_packages()}"
    )


def test_binder_environment_resolves_to_the_root_file() -> None:
    link = ROOT / "binder" / "environment.yml"
    assert link.is_symlink(), "repo2docker ignores root files once binder/ exists: keep a symlink"
    assert link.resolve() == (ROOT / "environment.yml").resolve()


def test_ci_runs_the_readme_test_command() -> None:
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    assert "make test" in (ROOT / "README.md").read_text()
