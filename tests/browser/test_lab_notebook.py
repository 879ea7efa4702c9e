"""A course notebook in JupyterLab, in a real browser: Run All runs every cell, the ipywidgets
render (no "Error displaying widget") and plotly draws its figures; and an exercise's rule link
lands on the rule's entry in the catalogue."""

from __future__ import annotations

from pathlib import Path

import nbformat
from playwright.sync_api import Page

from tests.browser import servers

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
DOCS = NOTEBOOKS.parent / "docs"

# Done: something ran and nothing is queued or running ("[*]:"). A cell that raises makes
# JupyterLab drop the rest of the queue, so this also becomes true after a failure.
RUN_FINISHED = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
        .map(p => p.textContent);
    return prompts.some(t => /\\[\\d+\\]/.test(t)) && !prompts.some(t => t.includes('*'));
}"""


def _copy_without_outputs(notebook: Path, folder: Path) -> Path:
    """A copy with outputs and counts cleared, so whatever shows up was drawn by this run."""
    folder.mkdir()
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    copy = folder / notebook.name
    nbformat.write(nb, copy)
    return copy


def _run_all_cells(page: Page) -> None:
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").wait_for()  # kernel connected
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(RUN_FINISHED)


def _open_and_run(
    page: Page, page_errors: list[str], notebook: Path, tmp_path: Path, artifacts: Path
) -> None:
    """Open a temporary copy of ``notebook`` in JupyterLab, run all, check what it drew; the
    screenshots show the first figure and the first widget."""
    copy = _copy_without_outputs(notebook, tmp_path / "notebooks")
    with servers.jupyterlab(copy.parent, tmp_path / "lab-state", tmp_path / "lab.log") as url:
        page.goto(f"{url}/lab/tree/{copy.name}")
        _run_all_cells(page)

        prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
        not_run = [i for i, prompt in enumerate(prompts) if not prompt.strip("[]: ").isdigit()]
        stderr = page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        )
        assert not not_run, f"code cells {not_run} did not run: {stderr.all_inner_texts()}"

        figure = page.locator(".js-plotly-plot").first
        figure.wait_for()
        figure.scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"lab_{notebook.stem}_figure.png")
        widget = page.locator(".jp-OutputArea-output .jupyter-widgets").first
        widget.wait_for()
        widget.scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"lab_{notebook.stem}_widget.png")

        assert page.get_by_text("Error displaying widget").count() == 0
        assert not page_errors, f"JavaScript errors in the page: {page_errors}"


def test_notebook_03_fifo_vs_priority_runs_in_jupyterlab(
    page: Page, page_errors: list[str], tmp_path: Path, artifacts: Path
) -> None:
    _open_and_run(page, page_errors, NOTEBOOKS / "03_fifo_vs_priority.ipynb", tmp_path, artifacts)


def test_an_exercise_rule_link_opens_the_catalogue_at_the_rule(
    page: Page, page_errors: list[str], tmp_path: Path, artifacts: Path
) -> None:
    """Feedback on a wrong answer cites EXP-22 as a link; in JupyterLab serving the repository
    (as ``make lab`` does) the link opens docs/rules.md's preview scrolled to EXP-22's entry."""
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "rules.md").write_text((DOCS / "rules.md").read_text(encoding="utf-8"))
    (root / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from mqlearn.checks import nb03\nnb03.q1.grade(set())")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(nb, root / "notebooks" / "feedback.ipynb")
    with servers.jupyterlab(root, tmp_path / "lab-state", tmp_path / "lab.log") as url:
        page.goto(f"{url}/lab/tree/notebooks/feedback.ipynb")
        _run_all_cells(page)
        link = page.locator(".jp-OutputArea-output a", has_text="EXP-22")
        link.click()
        heading = page.locator(".jp-MarkdownViewer h3", has_text="EXP-22 — FIFO queue")
        heading.wait_for()
        page.wait_for_function(  # scrolled to the entry: its heading near the top of the preview
            """() => { const h = [...document.querySelectorAll('.jp-MarkdownViewer h3')]
                   .find((n) => n.textContent.startsWith('EXP-22'));
                 const box = document.querySelector('.jp-MarkdownViewer').getBoundingClientRect();
                 const top = h.getBoundingClientRect().top - box.top;
                 return top >= 0 && top < 120; }"""
        )
        page.screenshot(path=artifacts / "lab_rule_link.png")
        assert not page_errors, f"JavaScript errors in the page: {page_errors}"
