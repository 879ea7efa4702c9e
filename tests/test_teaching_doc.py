"""docs/teaching.md's table of notebook times states what the notebooks state."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mqlearn import checks

ROOT = Path(__file__).resolve().parents[1]


def test_the_time_table_repeats_each_notebooks_own_estimate_and_exercise_count() -> None:
    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    rows = {
        m[1]: (int(m[2]), int(m[3]))
        for m in re.finditer(r"^\| (\d\d) [^|]+\| (\d+) min \| (\d+) \|", guide, re.M)
    }
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(rows) == [path.name[:2] for path in notebooks]
    for path in notebooks:
        first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
        stated = re.search(r"About (\d+) minutes", first)
        assert stated, path.name
        module = getattr(checks, f"nb{path.name[:2]}", None)
        exercises = len(checks.exercises(module)) if module else 0
        assert rows[path.name[:2]] == (int(stated[1]), exercises), path.name
