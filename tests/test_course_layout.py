"""Course authoring: every lesson notebook follows the template, and exercises are found, not
registered (notebooks/templates/, CONTRIBUTING.md)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mqlearn import checks
from mqlearn.checks.exercise import Exercise

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = NOTEBOOKS / "templates"
HEADER_PARTS = ("**In this notebook you will**", "**Rules covered**", "**Sources:**", "*About ")
LESSONS = sorted(p for p in NOTEBOOKS.glob("0[1-8]_*.ipynb"))


def cells(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["cells"])


def source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def layout_problems(path: Path, number: str, exercises: list[Exercise]) -> list[str]:
    """What ``path`` lacks of the lesson template, as sentences (none: it follows it)."""
    found = cells(path)
    problems = []
    first = source(found[0])
    if found[0]["cell_type"] != "markdown" or not first.startswith(f"# {number} · "):
        problems.append(f"the first cell is not the title '# {number} · …'")
    problems += [f"the first cell lacks {part}" for part in HEADER_PARTS if part not in first]
    headings = [
        line
        for cell in found
        if cell["cell_type"] == "markdown"
        for line in source(cell).splitlines()
        if line.startswith("## ") or line.startswith("### Exercise")
    ]
    tops = [h for h in headings if h.startswith("## ")]
    numbered = [h for h in tops if re.match(r"## \d+\. ", h)]
    if [int(h.split()[1].rstrip(".")) for h in numbered] != list(range(1, len(numbered) + 1)):
        problems.append(f"the sections are not numbered 1, 2, …: {numbered}")
    if tops[-3:] != ["## Exercises", "## Recap", "## Quiz"]:
        problems.append(f"it does not end with Exercises, Recap, Quiz: {tops[-3:]}")
    titled = [h for h in headings if h.startswith("### Exercise")]
    if [h.split(":")[0] for h in titled] != [
        f"### Exercise {k}" for k in range(1, len(exercises) + 1)
    ]:
        problems.append(f"{len(exercises)} exercises, but these headings: {titled}")
    code = "\n".join(source(c) for c in found if c["cell_type"] == "code")
    for exercise in exercises:
        for call in (f"{exercise.name}.show()", f"{exercise.name}.check(answer)"):
            if call not in code:
                problems.append(f"no cell runs {call}")
    return problems


def template_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("nbNN", TEMPLATES / "nbNN.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: its variant dataclass looks it up
    spec.loader.exec_module(module)
    return module


def test_every_exercise_module_has_its_notebook_and_every_lesson_its_module() -> None:
    modules = {m.__name__.rsplit(".", 1)[1][2:]: m for m in checks.exercise_modules()}
    notebooks = {p.name[:2]: p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")}
    assert set(modules) <= set(notebooks), "an exercise module without its notebook"
    for number, path in notebooks.items():
        imports = "from mqlearn.checks import" in "".join(map(source, cells(path)))
        uses = re.search(rf"\bnb{number}\b", "".join(map(source, cells(path))))
        assert bool(uses) == (number in modules), f"{path.name} and mqlearn.checks.nb{number}"
        assert not uses or imports


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_each_lesson_follows_the_template(path: Path) -> None:
    number = path.name[:2]
    module = getattr(checks, f"nb{number}")
    assert layout_problems(path, number, checks.exercises(module)) == []


def test_the_template_notebook_follows_the_template_and_runs() -> None:
    template = TEMPLATES / "NN_a_title.ipynb"
    module = template_module()
    assert layout_problems(template, "NN", checks.exercises(module)) == []
    namespace: dict[str, Any] = {"nbNN": module}
    for cell in cells(template):
        if cell["cell_type"] == "code":
            code = source(cell).replace(", nbNN", "")  # the template module is not installed
            exec(compile(code, str(template), "exec"), namespace)


def test_the_template_exercise_is_graded_by_the_engine() -> None:
    q1 = template_module().q1
    assert q1.grade({"A"}).correct is True
    wrong = q1.grade({"B"})
    assert wrong.correct is False and "not one it discarded" in wrong.text


def test_a_notebook_module_is_found_by_its_name_alone() -> None:
    """What makes registration unnecessary: the package lists nbNN modules by their file name."""
    names = [m.__name__ for m in checks.exercise_modules()]
    files = sorted(p.stem for p in Path(checks.__file__).parent.glob("nb[0-9][0-9].py"))
    assert names == [f"mqlearn.checks.{name}" for name in files]
    assert checks.exercises() == [e for m in checks.exercise_modules() for e in checks.exercises(m)]
