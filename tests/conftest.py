"""Hypothesis profiles: CI runs the same examples every time; ``make fuzz`` explores.

``ci`` (the default) derandomizes every property and differential test, so a red CI is never a
new random example. ``fuzz`` (``MQLEARN_HYPOTHESIS=fuzz``, set by tools/fuzz.py) draws fresh
examples from the seed ``--hypothesis-seed`` gives, so a failure can be replayed from its seed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("fuzz", derandomize=False, deadline=None, database=None)
settings.load_profile(os.environ.get("MQLEARN_HYPOTHESIS", "ci"))


@pytest.fixture(autouse=True)
def _learner_settings_of_the_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Exercise.check`` records the learner's progress (mqlearn.checks.progress): in tests,
    in a file of the test's own, never in the working directory. And the exercises run the
    notebooks' scenarios (seed 0) whatever student the shell that runs the tests names."""
    monkeypatch.setenv("MQLEARN_PROGRESS", str(tmp_path / "progress.json"))
    monkeypatch.delenv("MQLEARN_STUDENT", raising=False)
    monkeypatch.delenv("MQLEARN_SEED", raising=False)
