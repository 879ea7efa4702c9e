"""The rule catalogue (docs/rules.md) and its index (mqlearn.rules) agree, and the project keeps to it.

1. Every rule ID cited anywhere (mqlearn/, tests/, notebooks/, docs/, README.md) has an entry.
2. Every entry is cited by at least one test (its name, docstring or a comment in it) and by at
   least one notebook cell (the cell's source). No rule is exempt: a rule nobody tests or shows
   is a rule the course only claims.
3. ``RULE_IDS``/``RULE_TITLES`` are exactly the catalogue's headings, each heading has its own
   anchor (``<a id="exp-22"></a>``) just above it, and ``rule_anchor`` links each ID to it.
4. The catalogue is self-contained: it never points at material outside the repository.

This file is the checker, not a citer: the scans skip it (it names rule IDs as test data).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqlearn import rules
from mqlearn.checks.answers import Number
from mqlearn.checks.exercise import Exercise, Feedback, Outcome, markdown_with_rule_links
from mqlearn.rules import RULE_IDS, RULE_TITLES, rule_anchor

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "docs" / "rules.md"
THIS_FILE = Path(__file__).resolve()

# Written out here rather than taken from mqlearn.rules, so the scans do not trust the module they test.
FAMILIES = "EXP|RPT|UOW|LCK|RPL|DLQ|TRG|XQH|MD|EIP|MQI"
CITED_ID = re.compile(rf"\b(?:{FAMILIES})-\d{{2}}\b")
ID_IN_TEST_NAME = re.compile(rf"(?:^|_)({FAMILIES.lower()})(\d{{2}})(?=_|$)")  # test_exp22_...
RULE_HEADING = re.compile(rf"^### ((?:{FAMILIES})-\d{{2}}) — (\S.*\S)$")


def catalogue_text() -> str:
    return CATALOGUE.read_text(encoding="utf-8")


def catalogue_headings() -> list[tuple[str, str]]:
    """(ID, title) of every rule heading, in order; fails on a level-3 heading of another form."""
    headings = []
    for number, line in enumerate(catalogue_text().splitlines(), start=1):
        if line.startswith("### "):
            found = RULE_HEADING.match(line)
            assert found, f"docs/rules.md:{number}: not a rule heading '### ID — title': {line!r}"
            headings.append((found[1], found[2]))
    return headings


def document_anchors() -> list[str]:
    """The explicit anchors (``<a id="…"></a>`` lines) of docs/rules.md, in order."""
    return re.findall(r'^<a id="([^"]+)"></a>$', catalogue_text(), flags=re.MULTILINE)


def scanned_files() -> Iterator[Path]:
    for folder in ("mqlearn", "tests", "notebooks"):
        for suffix in ("*.py", "*.ipynb"):
            yield from (ROOT / folder).rglob(suffix)
    yield from (ROOT / "docs").glob("*.md")
    yield ROOT / "README.md"


def source_of(path: Path) -> str:
    """The file's text (for a notebook, the JSON: cell sources and saved outputs alike)."""
    return path.read_text(encoding="utf-8")


def notebook_cells() -> Iterator[tuple[str, str]]:
    """(``notebook#cell``, the cell's source) for every cell of every notebook."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(notebook["cells"]):
            source = cell["source"]
            yield f"{path.name}#{index}", "".join(source) if isinstance(source, list) else source


def citing_tests() -> dict[str, set[str]]:
    """Rule ID → the test functions that cite it: in the function's name (``test_exp22_...``), or
    anywhere in its source from its first decorator to its last line (docstring, comments,
    parametrize ids)."""
    cited: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.resolve() == THIS_FILE or "data" in path.relative_to(ROOT / "tests").parts[:1]:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not node.name.startswith("test"):
                continue
            found = {f"{fam.upper()}-{num}" for fam, num in ID_IN_TEST_NAME.findall(node.name)}
            first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
            found |= set(CITED_ID.findall("\n".join(lines[first - 1 : node.end_lineno])))
            for rule in found:
                cited.setdefault(rule, set()).add(f"{path.relative_to(ROOT)}::{node.name}")
    return cited


def citing_notebook_cells() -> dict[str, set[str]]:
    """Rule ID → the notebook cells whose source cites it."""
    cited: dict[str, set[str]] = {}
    for where, source in notebook_cells():
        for rule in CITED_ID.findall(source):
            cited.setdefault(rule, set()).add(where)
    return cited


# 1 --------------------------------------------------------------------------------------------


def test_every_cited_rule_id_is_defined_in_the_catalogue() -> None:
    defined = {rule for rule, _ in catalogue_headings()}
    undefined: dict[str, set[str]] = {}
    for path in scanned_files():
        if path.resolve() == THIS_FILE:
            continue
        for rule in set(CITED_ID.findall(source_of(path))) - defined:
            undefined.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    assert not undefined, "rule IDs cited but not defined in docs/rules.md: " + "; ".join(
        f"{rule} in {', '.join(sorted(paths))}" for rule, paths in sorted(undefined.items())
    )


# 2 --------------------------------------------------------------------------------------------


def test_every_rule_is_cited_by_a_test() -> None:
    cited = citing_tests()
    missing = [rule for rule, _ in catalogue_headings() if rule not in cited]
    assert not missing, (
        "rules no test cites (put the ID in a test's name, test_exp22_..., or in its docstring "
        f"or a comment): {', '.join(missing)}"
    )


def test_every_rule_is_cited_by_a_notebook_cell() -> None:
    cited = citing_notebook_cells()
    missing = [rule for rule, _ in catalogue_headings() if rule not in cited]
    assert not missing, (
        "rules no notebook cell cites (a cell that shows the rule says '(rule EXP-22)'): "
        + ", ".join(missing)
    )


def test_citation_scanners_read_names_docstrings_and_comments() -> None:
    """The test scanner finds an ID in a test's name, docstring and comments, and the notebook
    scanner reads cell sources; both find something for a rule cited all over the project."""
    assert ID_IN_TEST_NAME.findall("test_exp22_fifo_and_md04_ccsid") == [
        ("exp", "22"),
        ("md", "04"),
    ]
    assert ID_IN_TEST_NAME.findall("test_expiry22_not_an_id") == []
    assert "EXP-22" in citing_tests()
    assert "EXP-22" in citing_notebook_cells()


# 3 --------------------------------------------------------------------------------------------


def test_rule_ids_are_exactly_the_catalogue_headings() -> None:
    headings = catalogue_headings()
    ids = [rule for rule, _ in headings]
    assert len(ids) == len(set(ids)), f"a rule has two entries: {ids}"
    assert set(ids) == RULE_IDS, (
        f"in docs/rules.md only: {sorted(set(ids) - RULE_IDS)}; "
        f"in mqlearn.rules only: {sorted(RULE_IDS - set(ids))}"
    )
    assert headings == list(RULE_TITLES.items()), "titles or order differ from mqlearn.rules"


def test_titles_are_plain_text_so_anchors_are_predictable() -> None:
    for rule, title in RULE_TITLES.items():
        assert not re.search(r"[*`\[\]<>\\\"]", title), f"{rule}: markup in the title {title!r}"
        assert not re.search(r"(^|\s)_|_(\s|$)", title), f"{rule}: emphasis underscore in {title!r}"


def test_every_rule_heading_has_its_own_anchor_just_above_it() -> None:
    """The line two above each rule heading is ``<a id="<id in lower case>"></a>``, and the
    catalogue has no other anchors: what links land on in GitHub and in JupyterLab alike."""
    lines = catalogue_text().splitlines()
    for number, line in enumerate(lines):
        found = RULE_HEADING.match(line)
        if found:
            assert lines[number - 1] == "", f"docs/rules.md:{number + 1}: no blank line above"
            expected = f'<a id="{found[1].lower()}"></a>'
            assert lines[number - 2] == expected, f"docs/rules.md:{number - 1}: want {expected}"
    assert document_anchors() == [rule.lower() for rule, _ in catalogue_headings()]


def test_rule_anchor_round_trips_every_id_to_an_anchor_of_the_catalogue() -> None:
    anchors = document_anchors()
    for rule in RULE_IDS:
        link = rule_anchor(rule)
        path, _, anchor = link.partition("#")
        assert path == rules.RULES_DOC_URL == "docs/rules.md"
        assert (ROOT / path).is_file()
        assert anchor in anchors, f"{rule}: {link} has no anchor in docs/rules.md"
    assert rule_anchor("EXP-22") == "docs/rules.md#exp-22"
    assert rule_anchor("MD-04") == "docs/rules.md#md-04"


@pytest.mark.parametrize(
    "bad", ["exp-22", "EXP22", "EXP-2", "EXP-222", "XYZ-01", " EXP-22", "", "EXP-22 "]
)
def test_rule_anchor_rejects_a_malformed_id_naming_it(bad: str) -> None:
    with pytest.raises(ValueError, match="malformed rule ID " + re.escape(repr(bad))):
        rule_anchor(bad)


@pytest.mark.parametrize("bad", ["EXP-" + "99", "MQI-" + "98", "MD-" + "00"])
def test_rule_anchor_rejects_an_unknown_id_naming_it(bad: str) -> None:
    with pytest.raises(ValueError, match="unknown rule ID " + re.escape(repr(bad))):
        rule_anchor(bad)


def test_rule_id_pattern_finds_exactly_the_well_formed_ids() -> None:
    text = "rules EXP-22, MQI-01 and MD-04; not EXP-2, XEXP-22, EXP-221 or exp-22"
    assert rules.RULE_ID_PATTERN.findall(text) == ["EXP-22", "MQI-01", "MD-04"]
    assert CITED_ID.findall(text) == ["EXP-22", "MQI-01", "MD-04"]
    assert set(rules.FAMILIES) == set(FAMILIES.split("|"))


def test_feedback_markdown_links_each_defined_rule_to_its_entry() -> None:
    feedback = Feedback(False, "Not quite: *2* is not it.\nWhy: see (rules EXP-22, EXP-23).")
    markdown = feedback._repr_markdown_()
    paragraphs = markdown.split("\n\n")
    assert len(paragraphs) == 2
    assert paragraphs[0] == r"Not quite\: \*2\* is not it\."
    for rule in ("EXP-22", "EXP-23"):
        link = f'[{rule}](../{rule_anchor(rule)} "{RULE_TITLES[rule]}")'
        assert link in paragraphs[1]
    assert str(feedback) == feedback.text  # the printed text is unchanged


def test_markdown_leaves_undefined_ids_as_text() -> None:
    undefined = "EXP-" + "99"
    assert markdown_with_rule_links(f"({undefined})", root="") == r"\(EXP\-" + "99" + r"\)"
    assert (
        markdown_with_rule_links("EXP-22", root="")
        == f'[EXP-22]({rule_anchor("EXP-22")} "{RULE_TITLES["EXP-22"]}")'
    )


def test_an_exercise_must_name_rules_of_the_catalogue() -> None:
    def scenario() -> Outcome:
        return Outcome(answer=1)

    for rules_named, message in [
        ((), "must name the rules"),
        (("EXP-" + "99",), "unknown rule ID"),
    ]:
        with pytest.raises(ValueError, match=message):
            Exercise(
                "nbxx.q1",
                question="?",
                scenario=scenario,
                form=Number(),
                rules=rules_named,
                explanation="",
                hint="",
            )


# 4 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["seed", "../shared", "shared/"])
def test_catalogue_points_at_nothing_outside_the_repository(word: str) -> None:
    assert word not in catalogue_text().lower()
