"""Hypothesis profiles: CI runs the same examples every time; ``make fuzz`` explores.

``ci`` (the default) derandomizes every property and differential test, so a red CI is never a
new random example. ``fuzz`` (``MQLEARN_HYPOTHESIS=fuzz``, set by tools/fuzz.py) draws fresh
examples from the seed ``--hypothesis-seed`` gives, so a failure can be replayed from its seed.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("fuzz", derandomize=False, deadline=None, database=None)
settings.load_profile(os.environ.get("MQLEARN_HYPOTHESIS", "ci"))
