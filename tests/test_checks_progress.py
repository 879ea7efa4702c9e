"""A learner's progress (``mqlearn.checks.progress``): ``check`` records each graded attempt in a
local JSON file, prints nothing more than before, and never overwrites a file it cannot read; the
widget and ``mqlearn course progress`` show the same table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mqlearn import checks, cli
from mqlearn.checks import nb03, progress
from mqlearn.checks.progress import ProgressFileError, Record


@pytest.fixture
def record_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "course" / ".mqlearn-progress.json"
    monkeypatch.setenv(progress.PROGRESS_ENV, str(path))
    checks.set_seed(0)
    yield path
    checks.set_seed(None)


def test_the_file_is_beside_the_notebooks_unless_the_environment_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(progress.PROGRESS_ENV)
    monkeypatch.chdir(tmp_path)
    assert progress.progress_path() == tmp_path / ".mqlearn-progress.json"
    monkeypatch.setenv(progress.PROGRESS_ENV, "~/mine.json")
    assert progress.progress_path() == Path.home() / "mine.json"


def test_check_records_attempts_and_the_first_pass(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    right, wrong = nb03.q1.expected(), {"Z"}
    nb03.q1.check(None)  # no prediction yet: not an attempt
    nb03.q1.check(wrong)
    assert progress.load() == {"nb03.q1": Record(1, False, None)}
    nb03.q1.check(right)
    nb03.q1.check(wrong)  # a later slip does not take the pass back
    record = progress.load()["nb03.q1"]
    assert (record.attempts, record.passed) == (3, True)
    assert record.first_passed is not None
    assert abs(datetime.fromisoformat(record.first_passed) - datetime.now(UTC)).total_seconds() < 60
    assert json.loads(record_file.read_text())["mqlearn-progress"] == 1
    assert [p.name for p in record_file.parent.iterdir()] == [record_file.name], "no temp left"
    capsys.readouterr()


def test_check_prints_exactly_the_feedback(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Notebook outputs stay as they were: recording prints nothing."""
    for answer in (None, {"Z"}, nb03.q1.expected(), object()):
        nb03.q1.check(answer)
        captured = capsys.readouterr()
        assert captured.out == nb03.q1.grade(answer).text + "\n"
        assert captured.err == ""


@pytest.mark.parametrize(
    "content", ["{not json", "[]", '{"mqlearn-progress": 2, "exercises": {}}',
                '{"mqlearn-progress": 1, "exercises": {"nb03.q1": {"attempts": -1}}}'],
)  # fmt: skip
def test_a_file_that_is_not_a_progress_file_is_reported_and_left_alone(
    record_file: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record_file.parent.mkdir(parents=True)
    record_file.write_text(content)
    with pytest.raises(ProgressFileError, match=r"cannot be read.*left as it is"):
        progress.load()
    nb03.q1.check({"Z"})
    captured = capsys.readouterr()
    assert captured.out == nb03.q1.grade({"Z"}).text + "\n", "the feedback still comes"
    assert "progress not saved" in captured.err and str(record_file) in captured.err
    assert record_file.read_text() == content, "never overwritten"
    assert "cannot be read" in progress.html_table()


def test_the_table_lists_every_exercise_of_the_notebook(record_file: Path) -> None:
    progress.record("nb03.q1", False)
    progress.record("nb03.q1", True, now=datetime(2026, 5, 1, 9, 30, tzinfo=UTC))
    progress.record("nb03.q2", False)
    text = progress.text_table("nb03")
    lines = text.splitlines()
    assert lines[0] == f"Progress recorded in {record_file}"
    assert lines[2].split() == [
        "exercise", "status", "attempts", "first", "passed", "solution", "shown"
    ]  # fmt: skip
    assert lines[3].split() == ["nb03.q1", "passed", "2", "2026-05-01", "09:30", "UTC"]
    assert lines[4].split() == ["nb03.q2", "tried", "1"]
    assert lines[5].split() == ["nb03.q3", "not", "tried", "0"]
    assert lines[-1] == "nb03: 1 of 4 passed"
    everything = progress.text_table()
    assert everything.splitlines()[-1] == f"all: 1 of {len(checks.exercises())} passed"
    assert progress.text_table(3) == text == progress.text_table("03")


def test_an_unknown_notebook_names_the_ones_with_exercises(record_file: Path) -> None:
    with pytest.raises(ValueError, match="no exercises for notebook nb42; there are: nb00, nb01"):
        progress.show("nb42")
    with pytest.raises(ValueError, match="names no notebook"):
        progress.rows("lesson three")


def test_the_widget_shows_the_table_and_refreshes(record_file: Path) -> None:
    import ipywidgets

    box = progress.widget("nb03")
    html, refresh = box.children
    assert isinstance(html, ipywidgets.HTML) and isinstance(refresh, ipywidgets.Button)
    assert "<table" in html.value and "nb03.q4" in html.value and "· not tried" in html.value
    progress.record("nb03.q4", True)
    assert "✓ passed" not in html.value
    refresh.click()
    assert "✓ passed" in html.value
    assert "nb03: 1 of 4 passed" in html.value
    assert "Recorded on this computer only" in html.value


def test_show_prints_the_table_outside_jupyter(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress.show("nb03")
    assert capsys.readouterr().out == progress.text_table("nb03") + "\n"


def test_mqlearn_course_progress_prints_the_same_table(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress.record("nb02.q1", True)
    assert cli.main(["course", "progress", "--notebook", "nb02"]) == 0
    assert capsys.readouterr().out == progress.text_table("nb02") + "\n"
    other = record_file.parent / "other.json"  # issue 21: a missing file is an error
    assert cli.main(["course", "progress", "--file", str(other), "--notebook", "2"]) == 2
    assert f"no progress file {other}" in capsys.readouterr().err
    assert cli.main(["course", "progress", "--file", str(record_file), "--notebook", "2"]) == 0
    assert "nb02: 1 of 5 passed" in capsys.readouterr().out


def test_the_record_names_the_student_and_counts_solutions_shown(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checks.set_student(" S1001 ")
    nb03.q1.check({"Z"})
    nb03.q1.solution()
    nb03.q1.solution()
    capsys.readouterr()
    data = json.loads(record_file.read_text())
    assert data["student"] == "s1001"
    assert data["exercises"]["nb03.q1"] == {
        "attempts": 1, "passed": False, "first_passed": None, "solutions": 2
    }  # fmt: skip
    text = progress.text_table("nb03")
    assert text.startswith(f"Progress of s1001, recorded in {record_file}")
    assert text.splitlines()[3].split() == ["nb03.q1", "tried", "1", "2x"]


def test_a_class_table_gathers_the_records_handed_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    handed_in = tmp_path / "collected"
    for student, passed in (("s1", 2), ("s2", 0)):
        records = {f"nb03.q{i}": Record(2, i <= passed, None, 1) for i in (1, 2, 3)}
        progress.save(records, handed_in / student / ".mqlearn-progress.json", student)
    (handed_in / "notes.json").write_text("[1, 2]")
    assert cli.main(["course", "progress", "--class", str(handed_in), "--notebook", "nb03"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Progress of 2 records under {handed_in} (nb03's exercises)"
    assert lines[2].split() == ["student", "passed", "tried", "attempts", "solutions", "shown",
                                "file"]  # fmt: skip
    assert lines[3].split() == ["s1", "2/4", "3", "6", "3", "s1/.mqlearn-progress.json"]
    assert lines[4].split() == ["s2", "0/4", "3", "6", "3", "s2/.mqlearn-progress.json"]
    assert lines[6].startswith("skipped notes.json: the progress file")
    assert cli.main(["course", "progress", "--class", str(tmp_path / "none")]) == 2
    assert "no directory" in capsys.readouterr().err


def test_mqlearn_course_progress_reports_a_broken_file(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record_file.parent.mkdir(parents=True)
    record_file.write_text("{oops")
    assert cli.main(["course", "progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mqlearn: error: the progress file") and "not JSON" in err
    assert cli.main(["course", "progress", "--notebook", "nb99"]) == 2
