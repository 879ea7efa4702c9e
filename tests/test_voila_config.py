"""``voila.json``: the Voila settings both ``make app`` and Binder's Voila read (Voila looks for
the file in the directory the server starts in, the repository root in both cases).

Its denylist keeps JupyterLab extensions a Voila page never uses out of the page, which shortens
the app's first paint (benchmarks/bench_browser.py). A name that matches no installed extension
would silently deny nothing, and denying one the workbench needs would break it: both are checked
against the extensions this environment really installs (their own package.json files).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDED = {
    "@jupyter-widgets/jupyterlab-manager": "every widget",
    "anywidget": "the queue view, the topology and the text lines",
    "jupyterlab-plotly": "the charts section's figures",
}


def installed_labextensions() -> set[str]:
    """Names of the JupyterLab extensions installed in this environment's prefix."""
    folder = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    return {
        json.loads(package.read_text())["name"]
        for package in [*folder.glob("*/package.json"), *folder.glob("@*/*/package.json")]
    }


def denied() -> list[str]:
    config = json.loads((ROOT / "voila.json").read_text())
    names = config["VoilaConfiguration"]["extension_denylist"]
    assert isinstance(names, list) and all(isinstance(name, str) for name in names)
    return names


def test_every_denied_extension_is_one_that_is_installed() -> None:
    missing = set(denied()) - installed_labextensions()
    assert not missing, f"voila.json denies extensions that are not installed: {sorted(missing)}"


def test_no_extension_the_workbench_needs_is_denied() -> None:
    assert set(NEEDED) <= installed_labextensions()
    wrongly = {name: NEEDED[name] for name in denied() if name in NEEDED}
    assert not wrongly, f"voila.json denies extensions the workbench needs: {wrongly}"


def test_the_template_voila_json_names_ships_with_the_repository_and_the_wheel() -> None:
    """voila.json's template (the lab one without CDN stylesheets) is in share/jupyter, where
    tests and ``make app`` point JUPYTER_PATH, and pyproject installs it with the wheel."""
    import tomllib

    config = json.loads((ROOT / "voila.json").read_text())
    name = config["VoilaConfiguration"]["template"]
    folder = Path("share/jupyter/voila/templates") / name
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).iterdir())
    assert files == [str(folder / "conf.json"), str(folder / "index.html.j2")]
    assert json.loads((ROOT / folder / "conf.json").read_text()) == {"base_template": "lab"}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["data-files"][str(folder)] == files
