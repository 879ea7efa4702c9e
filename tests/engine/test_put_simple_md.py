"""MQPUT with an MD that sets only Expiry and Priority (docs/engine.md, "The put path").

Such an MD holds IBM's initial value in every other field, so the put checks just those two and
knows what the others give without reading them (``mqi_checks.check_simple_md``; every other MD is
checked field by field). These tests run the same random puts twice, on two queue managers alike,
once with such MDs and once with MDs that also set some other fields to their initial values, and
compare everything a program or the views can see: the MD after each call, the codes and warnings,
every queued message, CURDEPTH after a backout, and the event log.
"""

from __future__ import annotations

import warnings
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C

Q = "APP.Q"
INITIAL = {name: getattr(mq.MD, name) for name in mq.MD._NAMES}
# fields that, set to their initial value, make an MD take the general path
OTHER_FIELDS = sorted(INITIAL.keys() - {"Expiry", "Priority"})

PMO_OPTIONS = [
    None,
    0,
    C.MQPMO_NO_SYNCPOINT,
    C.MQPMO_SYNCPOINT,
    C.MQPMO_NEW_MSG_ID,
    C.MQPMO_NEW_CORREL_ID | C.MQPMO_NO_SYNCPOINT,
    C.MQPMO_SET_ALL_CONTEXT,
    C.MQPMO_SET_IDENTITY_CONTEXT | C.MQPMO_SYNCPOINT,
    C.MQPMO_NO_CONTEXT,
]

puts = st.tuples(
    st.one_of(st.none(), st.sampled_from([-1, 1, 5, 30, 10**8])),  # Expiry (None: not set)
    st.one_of(st.none(), st.integers(-1, 12)),  # Priority (None: not set)
    st.sampled_from(PMO_OPTIONS),
    st.sets(st.sampled_from(OTHER_FIELDS), min_size=1, max_size=4),  # set to initial values
    st.booleans(),  # through qm.put with suppress_reply_to (a publication's copy)
    st.sampled_from([0, 0, 50, 100]),  # ms to advance after the put
)


def new_qm(profile: str) -> mq.QueueManager:
    qm = mq.QueueManager("QM1", profile=profile)
    qm.alter_qmgr(expryint=0, maxprty=7)
    qm.define_qlocal(Q, msgdlvsq="PRIORITY", defprty=3, defpsist="YES", maxdepth=1000)
    return qm


def run(profile: str, ops: list[tuple[Any, ...]], general: bool) -> list[Any]:
    """Everything visible after running ``ops``; ``general``: MDs also set other fields."""
    qm = new_qm(profile)
    q = mq.Queue(qm, Q)
    seen: list[Any] = []
    for expiry, priority, options, others, suppress, step in ops:
        md = mq.MD()
        if expiry is not None:
            md.Expiry = expiry
        if priority is not None:
            md.Priority = priority
        if general:
            for name in others:
                setattr(md, name, INITIAL[name])
        pmo = None if options is None else mq.PMO(Options=options)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if suppress:
                    outcome: Any = qm.put(Q, b"data", md, pmo, suppress_reply_to=True)
                else:
                    q.put(b"data", md, pmo)
                    outcome = (q.last_comp, q.last_reason)
            except mq.MQMIError as error:
                outcome = (error.comp, error.reason)
        seen.append((outcome, [str(w.message) for w in caught], md.get()))
        qm.sim.advance(ms=step)
    seen.append(list(qm.local(Q).store.views()))
    qm.backout()
    seen.append(qm.curdepth(Q))
    seen.append(qm.events)
    return seen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["distributed", "zos", "ibmi"]), st.lists(puts, min_size=1, max_size=12))
def test_simple_mds_give_what_the_general_path_gives(
    profile: str, ops: list[tuple[Any, ...]]
) -> None:
    assert run(profile, ops, general=False) == run(profile, ops, general=True)


def test_the_general_path_is_taken_when_another_field_is_set() -> None:
    """The comparison above means something only if the two MDs take different paths."""
    md = mq.MD(Expiry=5)
    assert md.__dict__.keys() <= {"Expiry", "Priority"}
    md.Format = INITIAL["Format"]
    assert not md.__dict__.keys() <= {"Expiry", "Priority"}
