"""docs/engine.md's walkthrough of a get stays true to the code.

"How the engine is laid out" follows a get that discards two expired messages which asked for
expiration reports and returns the live one behind them. This test makes that get with
``sys.setprofile`` on, records every call as a tree, and compares it with what the document says:

- the engine modules the get passes through, the report's put included;
- the modules it enters outside the report's own put (what ``generated.send`` calls to put it),
  and their number;
- that it reads top to bottom in two modules: its steps (select, walk, discard, build and send the
  report) are functions of ``mqget.py`` and ``generated.py``, entered from the handle, and every
  call they make to another module is a helper that returns without coming back into them (no
  round trip); the helpers it meets by name are the ones the document lists.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.checks.wording import number_words

ENGINE = Path(mq.__file__).resolve().parent / "engine"
ENGINE_MD = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
STEPS = {"mqget.py", "generated.py"}  # the two modules the get reads in
ENTRY = ("handle.py", "get")  # Queue.get: open options, then mqget.get
REPORT_PUT = ("generated.py", "send")  # what it calls is the report's own put


@dataclass
class Call:
    module: str | None  # an engine module's file name; None outside the engine
    function: str
    parent: Call | None

    def ancestors(self) -> list[Call]:
        found, at = [], self.parent
        while at is not None:
            found.append(at)
            at = at.parent
        return found


def documented(label: str) -> list[str]:
    """The backquoted names after ``label`` in docs/engine.md, up to the sentence's end."""
    found = re.search(re.escape(label) + r"[^:]*:(.*?)\.\s", ENGINE_MD, re.S)
    assert found, f"docs/engine.md no longer says {label!r}"
    return re.findall(r"`([a-z_.]+(?:\.py|\(\)))`", found.group(1))


def traced_get() -> list[Call]:
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("APP.REPLY")
    q = mq.Queue(qm, "APP.IN")
    for n in range(2):
        md = mq.MD(Expiry=1, Report=C.MQRO_EXPIRATION, ReplyToQ="APP.REPLY")
        q.put(b"old %d" % n, md)
    q.put(b"live")
    qm.sim.advance(ms=1_000)
    calls: list[Call] = []
    stack: list[Call] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            path = Path(frame.f_code.co_filename)
            module = path.name if path.parent == ENGINE else None
            call = Call(module, frame.f_code.co_name, stack[-1] if stack else None)
            stack.append(call)
            calls.append(call)
        elif event == "return" and stack:
            stack.pop()

    md, gmo = mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT)
    sys.setprofile(profile)
    try:
        data = q.get(None, md, gmo)
    finally:
        sys.setprofile(None)
    assert data == b"live"
    assert qm.curdepth("APP.REPLY") == 2  # both reports were sent
    assert [e.kind for e in qm.events].count("discard") == 2
    return [c for c in calls if c.module is not None]


def in_report_put(call: Call) -> bool:
    return any((a.module, a.function) == REPORT_PUT for a in call.ancestors())


def test_the_documented_modules_are_the_ones_a_get_passes_through() -> None:
    modules = {c.module for c in traced_get()}
    assert modules == set(documented("passes through these engine modules"))


def test_outside_the_reports_put_it_enters_the_documented_modules() -> None:
    modules = {c.module for c in traced_get() if not in_report_put(c)}
    listed = documented("Outside the report's own put it enters")
    assert modules == set(listed)
    count = re.search(r"Outside the report's own put it enters (\w+) ", ENGINE_MD)
    assert count and count.group(1) == number_words(len(modules))


def test_the_get_reads_top_to_bottom_in_two_modules() -> None:
    calls = [c for c in traced_get() if not in_report_put(c)]
    assert (calls[0].module, calls[0].function) == ENTRY
    steps = {(c.module, c.function) for c in calls if c.module in STEPS}
    for needed in [
        ("mqget.py", "get"),
        ("mqget.py", "_find"),
        ("mqget.py", "walk"),
        ("mqget.py", "discard"),
        ("generated.py", "expiration_report"),
        ("generated.py", "send_expiration_report"),
        REPORT_PUT,
    ]:
        assert needed in steps
    helpers: dict[str, None] = {}  # in the order the get first calls them
    for call in calls:
        if call.module in STEPS:
            # entered from the handle or from one of the two modules: never from a helper
            outside = [a for a in call.ancestors() if a.module not in STEPS]
            assert [(a.module, a.function) for a in outside] == [ENTRY], (call, outside)
        elif call.parent is not None and call.parent.module in STEPS:
            helpers[f"{call.module.removesuffix('.py')}.{call.function}()"] = None
    assert list(helpers) == documented("the helpers it calls by name")
