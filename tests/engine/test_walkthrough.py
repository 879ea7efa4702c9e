"""docs/engine.md's walkthrough of a get stays true to the code.

"How the engine is laid out" names the engine modules a get passes through when it discards two
expired messages that asked for expiration reports and returns the live one behind them. This
test makes that get with ``sys.setprofile`` on and compares the modules whose functions it
entered with the ones the document lists.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import mqlearn as mq
from mqlearn import CMQC as C

ENGINE = Path(mq.__file__).resolve().parent / "engine"
ENGINE_MD = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")


def documented_modules() -> set[str]:
    found = re.search(r"passes through these engine modules \([^)]*\):(.*?)\.\s", ENGINE_MD, re.S)
    assert found, "docs/engine.md no longer lists the modules a get passes through"
    return set(re.findall(r"`([a-z_]+\.py)`", found.group(1)))


def traced_get() -> set[str]:
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
    seen: set[str] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            path = Path(frame.f_code.co_filename)
            if path.parent == ENGINE:
                seen.add(path.name)

    md, gmo = mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT)
    sys.setprofile(profile)
    try:
        data = q.get(None, md, gmo)
    finally:
        sys.setprofile(None)
    assert data == b"live"
    assert qm.curdepth("APP.REPLY") == 2  # both reports were sent
    assert [e.kind for e in qm.events].count("discard") == 2
    return seen


def test_the_documented_modules_are_the_ones_a_get_passes_through() -> None:
    assert traced_get() == documented_modules()
