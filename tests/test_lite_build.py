"""tools/lite_build.py's own decisions, without building: the cells it adds to the notebooks,
how it names Pyodide's packages, and the checks it makes of a built site's config."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import lite_build  # noqa: E402


def _code(path: Path) -> list[dict[str, object]]:
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (ROOT / "notebooks").glob("0[0-8]_*.ipynb"))
)
def test_a_lesson_installs_mqlearn_first_and_plotly_just_before_its_first_chart(
    name: str, tmp_path: Path
) -> None:
    original = _code(ROOT / "notebooks" / name)
    lite_build.lite_notebook(ROOT / "notebooks" / name, tmp_path / name)
    cells = _code(tmp_path / name)
    assert cells[0]["id"] == "lite-install" and "%pip install -q --no-deps mqlearn" in "".join(
        cells[0]["source"]  # type: ignore[arg-type]
    )
    added = [i for i, c in enumerate(cells) if c["id"] in ("lite-install", "lite-charts")]
    assert [c for i, c in enumerate(cells) if i not in added] == original  # nothing else moves
    draws = [
        i for i, c in enumerate(cells) if lite_build.DRAWS_A_CHART.search("".join(c["source"]))
    ]  # type: ignore[arg-type]
    if draws:
        assert cells[draws[0] - 1]["id"] == "lite-charts"
        assert "%pip install -q plotly" in "".join(cells[draws[0] - 1]["source"])  # type: ignore[arg-type]
    else:
        assert len(added) == 1


def test_the_workbench_draws_its_queue_before_plotly_is_installed(tmp_path: Path) -> None:
    lite_build.lite_notebook(ROOT / "notebooks" / "workbench.ipynb", tmp_path / "w.ipynb")
    ids = [c["id"] for c in _code(tmp_path / "w.ipynb")]
    workbench = next(
        i
        for i, c in enumerate(_code(tmp_path / "w.ipynb"))
        if c["id"] not in ("lite-install", "lite-charts")
    )
    assert ids[0] == "lite-install" and ids[workbench + 1] == "lite-charts"


def test_package_names_are_read_as_pyodides_lock_keys_them() -> None:
    assert lite_build.canonical("prompt_toolkit") == "prompt-toolkit"
    assert lite_build.canonical("Typing.Extensions") == "typing-extensions"


def _site(tmp_path: Path, kernel: dict[str, object]) -> Path:
    config = {"jupyter-config-data": {"litePluginSettings": {lite_build.KERNEL_PLUGIN: kernel}}}
    (tmp_path / "jupyter-lite.json").write_text(json.dumps(config))
    return tmp_path


def test_a_site_that_could_reach_out_is_refused(tmp_path: Path) -> None:
    good = {
        "disablePyPIFallback": True,
        "pipliteUrls": ["./pypi/all.json"],
        "pyodideUrl": "./static/pyodide/pyodide.mjs",
    }
    lite_build.check_offline(_site(tmp_path, good), "local")
    for change, message in (
        ({"disablePyPIFallback": False}, "PyPI fallback is on"),
        ({"pipliteUrls": []}, "no local piplite index"),
        ({"pyodideUrl": "https://cdn.example/pyodide.mjs"}, "Pyodide is not the site's own"),
    ):
        with pytest.raises(SystemExit, match=message):
            lite_build.check_offline(_site(tmp_path, {**good, **change}), "local")
    cdn = {k: v for k, v in good.items() if k != "pyodideUrl"}
    lite_build.check_offline(_site(tmp_path, cdn), "cdn")
