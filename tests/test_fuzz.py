"""``make fuzz``: CI's examples are fixed, the fuzz run's are not, and a failing seed is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from tools.fuzz import main


def test_ci_runs_derandomized_examples() -> None:
    assert settings().derandomize is True


def test_a_failing_property_is_reported_with_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    test = tmp_path / "test_falsifiable.py"
    test.write_text(
        "from hypothesis import given, strategies as st\n"
        "@given(st.integers())\n"
        "def test_small(x):\n"
        "    assert x < 1000\n"
    )
    assert main(["--seeds", "11", "22", "--", str(test)]) == 1
    out = capsys.readouterr().out
    assert "failed: 11 22" in out
    assert "replay it with: MQLEARN_HYPOTHESIS=fuzz" in out and "--hypothesis-seed=11" in out
