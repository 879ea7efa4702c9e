"""The MQSC subset, ``qm.mqsc(text)`` (issue 3).

Rule tests: DISPLAY shows CURDEPTH with expired, undiscarded messages counted (EXP-25); REFRESH QMGR
TYPE(EXPIRY) scans on z/OS only (EXP-28); CAPEXPRY and DEFPRTY defined in MQSC act on puts
(EXP-06, MD-02). The other tests check MQSC's own rules as IBM's "Rules for using MQSC commands"
state them (case, quotes, continuation, comments), runmqsc's output and messages, and that MQSC
and Python definitions are the same thing and that a failing command changes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C

OK_FOOTER = [
    "No commands have a syntax error.",
    "All valid MQSC commands were processed.",
]
QUEUE_DETAILS = "AMQ8409I: Display Queue details."
STATUS_DETAILS = "AMQ8450I: Display queue status details."
QMGR_DETAILS = "AMQ8408I: Display Queue Manager details."
PROCESS_DETAILS = "AMQ8407I: Display Process details."
_ITEM = re.compile(r"([A-Z][A-Z0-9]*)(?:\(([^)]*)\))?")
NO_SYNC = mq.PMO(Options=C.MQPMO_NO_SYNCPOINT)


def blocks(out: str, header: str = QUEUE_DETAILS) -> list[dict[str, str]]:
    """The attribute blocks under each ``header`` line: {KEYWORD: value}, flags map to ""."""
    found: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    for line in out.splitlines():
        if line == header:
            current = {}
            found.append(current)
        elif current is not None and re.match(r"   [A-Z]", line):
            for m in _ITEM.finditer(line):
                current[m[1]] = (m[2] or "").strip()
        else:
            current = None
    return found


def ok(out: str) -> bool:
    """runmqsc's summary says every command was valid and processed."""
    return out.splitlines()[-2:] == OK_FOOTER


def state(qm: mq.QueueManager) -> tuple[Any, ...]:
    """Everything an MQSC command could change: definitions, depths, qmgr attributes, the log."""
    definitions = {name: repr(d) for name, d in qm.objects.items()}
    depths = {q.name: qm.curdepth(q.name) for q in qm.local_queues()}
    return definitions, depths, qm.deadq, qm.maxprty, qm.expryint, len(qm.events), qm.sim.now


def put(qm: mq.QueueManager, queue: str, expiry: int = C.MQEI_UNLIMITED, **pmo: Any) -> None:
    qm.put1(queue, b"payload", mq.MD(Expiry=expiry), mq.PMO(**pmo) if pmo else NO_SYNC)


def qm_with_queues(profile: str = "distributed") -> mq.QueueManager:
    """APP.IN holding an expired and a live message, OTHER.Q, an alias, a remote queue, an xmitq."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.mqsc(
        "DEFINE QLOCAL(APP.IN)\nDEFINE QLOCAL(OTHER.Q)\nDEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
        "DEFINE QALIAS(ALIAS.IN) TARGET(APP.IN)\n"
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2)\n"
    )
    put(qm, "APP.IN", expiry=10)
    put(qm, "APP.IN")
    qm.sim.advance(seconds=2)  # the first message has expired; no scan has run
    return qm


# --- DEFINE, DISPLAY, REPLACE, ALTER, DELETE, CLEAR -------------------------------------------


def test_display_after_define_shows_the_defined_values() -> None:
    qm = mq.QueueManager("QM1")
    out = qm.mqsc(
        "DEFINE QLOCAL(APP.IN) MSGDLVSQ(FIFO) DEFPRTY(4) MAXDEPTH(10) CAPEXPRY(600) DEFPSIST(YES)"
        " TRIGGER TRIGTYPE(DEPTH) TRIGDPTH(3) INITQ(INIT.Q) TRIGDATA('Start me')\n"
        "DISPLAY QLOCAL(APP.IN)"
    )
    assert ok(out) and "AMQ8006I: IBM MQ queue created." in out
    (shown,) = blocks(out)
    assert shown["QUEUE"] == "APP.IN" and shown["TYPE"] == "QLOCAL"
    expected = {
        "MSGDLVSQ": "FIFO",
        "DEFPRTY": "4",
        "MAXDEPTH": "10",
        "CAPEXPRY": "600",
        "DEFPSIST": "YES",
        "TRIGGER": "",
        "TRIGTYPE": "DEPTH",
        "TRIGDPTH": "3",
        "INITQ": "INIT.Q",
        "TRIGDATA": "Start me",
        "CURDEPTH": "0",
        "USAGE": "NORMAL",
    }
    assert {k: shown[k] for k in expected} == expected
    assert "NOTRIGGER" not in shown


def test_display_layout_is_runmqscs_two_columns() -> None:
    """The echo, the AMQ8409I block in two 40-character columns and the three summary lines."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    assert qm.mqsc("dis ql(app.in) curdepth maxdepth") == (
        "     1 : dis ql(app.in) curdepth maxdepth\n"
        "AMQ8409I: Display Queue details.\n"
        "   QUEUE(APP.IN)                           TYPE(QLOCAL)\n"
        "   CURDEPTH(0)                             MAXDEPTH(5000)\n"
        "One MQSC command read.\n"
        "No commands have a syntax error.\n"
        "All valid MQSC commands were processed.\n"
    )


def test_define_remote_and_alias_then_display_with_their_attributes() -> None:
    qm = mq.QueueManager("QM1")
    out = qm.mqsc(
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(XQ)\n"
        "DEFINE QALIAS(ALIAS.IN) TARGET(APP.IN) CAPEXPRY(50)\n"
        "DISPLAY QUEUE(*) ALL"
    )
    alias, remote = blocks(out)  # in name order
    assert (alias["TYPE"], alias["TARGET"], alias["CAPEXPRY"]) == ("QALIAS", "APP.IN", "50")
    assert (remote["TYPE"], remote["RNAME"], remote["RQMNAME"]) == ("QREMOTE", "APP.IN", "QM2")
    assert remote["XMITQ"] == "XQ" and remote["CAPEXPRY"] == "NOLIMIT"
    assert "CURDEPTH" not in remote, "only local queues have a depth"


def test_define_existing_fails_with_amq8150e_and_replace_redefines() -> None:
    """REPLACE gives every attribute not named its default again and keeps the messages."""
    qm = qm_with_queues()
    qm.mqsc("ALTER QLOCAL(APP.IN) MAXDEPTH(10)")
    before = state(qm)
    out = qm.mqsc("DEFINE QLOCAL(APP.IN) DEFPRTY(5)")
    assert "AMQ8150E: IBM MQ object already exists." in out
    assert out.splitlines()[-1] == "One valid MQSC command could not be processed."
    assert state(qm) == before
    out = qm.mqsc("DEFINE QLOCAL(APP.IN) DEFPRTY(5) REPLACE\nDIS QL(APP.IN) DEFPRTY MAXDEPTH")
    assert ok(out) and "AMQ8006I: IBM MQ queue created." in out
    assert blocks(out)[0] == {
        "QUEUE": "APP.IN",
        "TYPE": "QLOCAL",
        "DEFPRTY": "5",
        "MAXDEPTH": "5000",
    }
    assert qm.curdepth("APP.IN") == 2


def test_replace_with_another_type_fails_with_amq8151e() -> None:
    qm = qm_with_queues()
    out = qm.mqsc("DEFINE QLOCAL(ALIAS.IN) REPLACE")
    assert "AMQ8151E: IBM MQ object has different type." in out
    assert qm.definition("ALIAS.IN").qtype == "QALIAS"


def test_alter_changes_only_the_named_attributes() -> None:
    qm = qm_with_queues()
    qm.mqsc("ALTER QLOCAL(APP.IN) DEFPRTY(3)")
    out = qm.mqsc("ALTER QLOCAL(APP.IN) MAXDEPTH(20) PUT(DISABLED)\nDIS QL(APP.IN) ALL")
    assert ok(out) and "AMQ8008I: IBM MQ queue changed." in out
    shown = blocks(out)[0]
    assert (shown["MAXDEPTH"], shown["PUT"], shown["DEFPRTY"]) == ("20", "DISABLED", "3")
    out = qm.mqsc("ALTER QALIAS(ALIAS.IN) TARGET(OTHER.Q)\nALTER QREMOTE(TO.QM2) RNAME(B)")
    assert ok(out)
    assert qm.definition("ALIAS.IN").target == "OTHER.Q"  # type: ignore[attr-defined]
    assert qm.definition("TO.QM2").rname == "B"  # type: ignore[attr-defined]


def test_alter_unknown_or_wrong_type_gives_runmqscs_messages() -> None:
    qm = qm_with_queues()
    before = state(qm)
    out = qm.mqsc("ALTER QLOCAL(NOPE) MAXDEPTH(1)\nALTER QLOCAL(ALIAS.IN) PUT(DISABLED)")
    assert "AMQ8147E: IBM MQ object NOPE not found." in out
    assert "AMQ8151E: IBM MQ object has different type." in out
    assert out.splitlines()[-1] == "2 valid MQSC commands could not be processed."
    assert state(qm) == before


def test_delete_needs_an_empty_queue_unless_purge() -> None:
    qm = qm_with_queues()
    out = qm.mqsc("DELETE QLOCAL(OTHER.Q)\nDELETE QLOCAL(APP.IN)")
    assert out.count("AMQ8007I: IBM MQ queue deleted.") == 1
    assert "AMQ8143E: IBM MQ queue not empty." in out
    assert "OTHER.Q" not in qm.objects and qm.curdepth("APP.IN") == 2
    out = qm.mqsc("DELETE QALIAS(ALIAS.IN)\nDELETE QLOCAL(APP.IN) PURGE\nDELETE QREMOTE(TO.QM2)")
    assert ok(out)
    assert not {"APP.IN", "ALIAS.IN", "TO.QM2"} & set(qm.objects)


def test_delete_of_another_type_or_unknown_queue_changes_nothing() -> None:
    qm = qm_with_queues()
    before = state(qm)
    out = qm.mqsc("DELETE QLOCAL(ALIAS.IN)\nDELETE QALIAS(NOPE)\nDELETE QALIAS(ALIAS.IN) PURGE")
    assert "AMQ8151E: IBM MQ object has different type." in out
    assert "AMQ8147E: IBM MQ object NOPE not found." in out
    assert "PURGE is not a keyword of DELETE QALIAS" in out
    assert state(qm) == before


def test_exp25_clear_removes_expired_and_live_messages_without_reports() -> None:
    """CLEAR QLOCAL empties the queue, expired-but-undiscarded messages included (EXP-25)."""
    qm = qm_with_queues()
    out = qm.mqsc("CLEAR QLOCAL(APP.IN)\nDIS QS(APP.IN) CURDEPTH")
    assert ok(out) and "AMQ8022I: IBM MQ queue cleared." in out
    assert blocks(out, STATUS_DETAILS)[0]["CURDEPTH"] == "0"
    assert [e.kind for e in qm.events if e.queue == "APP.IN"] == ["put", "put", "clear", "clear"]


def test_clear_fails_with_uncommitted_messages_or_a_locked_message() -> None:
    """CLEAR QLOCAL fails while the queue holds uncommitted messages (AMQ8143E, reason 2055) or
    is open, which mqlearn knows when a handle holds a message locked (AMQ8148E, reason 2042)."""
    qm = qm_with_queues()
    put(qm, "APP.IN", Options=C.MQPMO_SYNCPOINT)
    before = state(qm)
    assert "AMQ8143E: IBM MQ queue not empty." in qm.mqsc("CLEAR QLOCAL(APP.IN)")
    assert "AMQ8143E: IBM MQ queue not empty." in qm.mqsc("DELETE QLOCAL(APP.IN) PURGE")
    assert state(qm) == before
    qm.commit()
    handle = mq.Queue(qm, "APP.IN")
    handle.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK))
    before = state(qm)
    assert "AMQ8148E: IBM MQ object in use." in qm.mqsc("CLEAR QLOCAL(APP.IN)")
    assert state(qm) == before
    handle.close()
    assert ok(qm.mqsc("CLEAR QL(APP.IN)"))
    assert qm.curdepth("APP.IN") == 0


def test_clear_of_an_alias_or_unknown_queue_fails() -> None:
    qm = qm_with_queues()
    out = qm.mqsc("CLEAR QLOCAL(ALIAS.IN)\nCLEAR QLOCAL(NOPE)")
    assert "AMQ8151E: IBM MQ object has different type." in out
    assert "AMQ8147E: IBM MQ object NOPE not found." in out


# --- DISPLAY QSTATUS, generic names, DISPLAY QMGR ----------------------------------------------


def test_exp25_display_curdepth_counts_expired_undiscarded_messages() -> None:
    qm = qm_with_queues()
    out = qm.mqsc("DISPLAY QSTATUS(APP.IN) CURDEPTH\nDISPLAY QLOCAL(APP.IN) CURDEPTH")
    assert blocks(out, STATUS_DETAILS)[0]["CURDEPTH"] == "2", "the expired message still counts"
    assert blocks(out)[0]["CURDEPTH"] == "2"
    assert qm.curdepth("APP.IN") == 2


def test_exp25_qstatus_shows_uncommitted_work_per_profile() -> None:
    """UNCOM: how many uncommitted puts and gets on distributed, YES/NO on z/OS."""
    for profile, shown in (("distributed", "1"), ("zos", "YES")):
        qm = qm_with_queues(profile)
        assert blocks(qm.mqsc("DIS QS(APP.IN)"), STATUS_DETAILS)[0]["UNCOM"] == "NO"
        put(qm, "APP.IN", Options=C.MQPMO_SYNCPOINT)
        status = blocks(qm.mqsc("DIS QSTATUS(APP.IN)"), STATUS_DETAILS)[0]
        assert (status["TYPE"], status["CURDEPTH"], status["UNCOM"]) == ("QUEUE", "3", shown)


def test_display_generic_names_and_all() -> None:
    """A generic name alone shows QUEUE and TYPE; ALL or named keywords show attributes."""
    qm = qm_with_queues()
    qm.mqsc("DEFINE QLOCAL(APP.OUT)")
    out = qm.mqsc("DIS QL(APP.*)")
    assert blocks(out) == [
        {"QUEUE": "APP.IN", "TYPE": "QLOCAL"},
        {"QUEUE": "APP.OUT", "TYPE": "QLOCAL"},
    ]
    shown = blocks(qm.mqsc("DIS QL(APP.*) ALL"))
    assert [b["CURDEPTH"] for b in shown] == ["2", "0"] and "MAXDEPTH" in shown[0]
    every = blocks(qm.mqsc("DISPLAY QUEUE(*)"))
    assert {b["QUEUE"]: b["TYPE"] for b in every} == {
        "ALIAS.IN": "QALIAS",
        "APP.IN": "QLOCAL",
        "APP.OUT": "QLOCAL",
        "OTHER.Q": "QLOCAL",
        "QM2": "QLOCAL",
        "TO.QM2": "QREMOTE",
    }
    remotes = blocks(qm.mqsc("DIS Q(*) TYPE(QREMOTE) RNAME"))
    assert remotes == [{"QUEUE": "TO.QM2", "TYPE": "QREMOTE", "RNAME": "APP.IN"}]


def test_display_of_nothing_matching_is_amq8147e() -> None:
    qm = qm_with_queues()
    out = qm.mqsc("DIS QL(NOPE.*)\nDIS QL(ALIAS.IN)\nDIS QS(TO.QM2)")
    assert "AMQ8147E: IBM MQ object NOPE.* not found." in out
    assert "AMQ8147E: IBM MQ object ALIAS.IN not found." in out
    assert "AMQ8147E: IBM MQ object TO.QM2 not found." in out


def test_display_qmgr_and_alter_qmgr_deadq() -> None:
    qm = mq.QueueManager("QM1")
    out = qm.mqsc("DISPLAY QMGR")
    assert blocks(out, QMGR_DETAILS) == [
        {
            "QMNAME": "QM1",
            "CCSID": "1208",
            "DEADQ": "",
            "MAXPRTY": "9",
            "PLATFORM": "UNIX",
            "TRIGINT": "999999999",
        }
    ]
    out = qm.mqsc("ALTER QMGR DEADQ(DLQ)\nDIS QMGR DEADQ")
    assert "AMQ8005I: IBM MQ queue manager changed." in out
    assert blocks(out, QMGR_DETAILS) == [{"QMNAME": "QM1", "DEADQ": "DLQ"}]
    assert qm.deadq == "DLQ"
    qm.mqsc("ALTER QMGR DEADQ(' ')")
    assert qm.deadq is None


def test_exp28_expryint_is_a_zos_queue_manager_attribute() -> None:
    zos = mq.QueueManager("QMZ", profile="zos")
    out = zos.mqsc("DIS QMGR EXPRYINT MAXPRTY\nALTER QMGR EXPRYINT(60)\nDIS QMGR EXPRYINT")
    assert ok(out)
    first, second = blocks(out, QMGR_DETAILS)
    assert first == {"QMNAME": "QMZ", "EXPRYINT": "OFF", "MAXPRTY": "9"}
    assert second["EXPRYINT"] == "60" and zos.expryint == 60
    for profile in ("distributed", "ibmi"):
        qm = mq.QueueManager("QM1", profile=profile)
        before = state(qm)
        out = qm.mqsc("DIS QMGR EXPRYINT\nALTER QMGR EXPRYINT(60)")
        assert out.count("AMQ8405I") == 2
        assert "EXPRYINT is not a keyword of ALTER QMGR" in out and "EXP-28" in out
        assert state(qm) == before


def test_md04_display_and_alter_qmgr_ccsid() -> None:
    """DISPLAY QMGR CCSID shows the CCSID puts use for MQCCSI_Q_MGR (1208 here, as on the real
    Linux queue manager of the captures); ALTER QMGR CCSID(819) changes it for later puts."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    out = qm.mqsc("DISPLAY QMGR CCSID\nALTER QMGR CCSID(819)\nDIS QMGR CCSID")
    assert ok(out)
    assert blocks(out, QMGR_DETAILS) == [
        {"QMNAME": "QM1", "CCSID": "1208"},
        {"QMNAME": "QM1", "CCSID": "819"},
    ]
    mq.Queue(qm, "APP.IN").put(b"x")
    got = mq.MD()
    mq.Queue(qm, "APP.IN").get(None, got)
    assert got.CodedCharSetId == 819


@pytest.mark.parametrize("value", ["0", "65536", "UTF8"])
def test_md04_alter_qmgr_ccsid_out_of_range_changes_nothing(value: str) -> None:
    qm = mq.QueueManager("QM1", profile="ibmi")
    out = qm.mqsc(f"ALTER QMGR CCSID({value})")
    assert "AMQ8405I" in out and qm.ccsid == 37


def test_md04_alter_qmgr_ccsid_is_not_valid_on_zos() -> None:
    """z/OS takes its CCSID from the system parameters (500 by default); MQSC's ALTER QMGR CCSID
    is "not valid on z/OS". DISPLAY shows it."""
    zos = mq.QueueManager("QMZ", profile="zos")
    out = zos.mqsc("ALTER QMGR CCSID(1047)\nDIS QMGR CCSID")
    assert "CCSID is not a keyword of ALTER QMGR" in out and "MD-04" in out
    assert blocks(out, QMGR_DETAILS) == [{"QMNAME": "QMZ", "CCSID": "500"}]
    assert zos.ccsid == 500


def test_maxprty_can_be_displayed_but_not_altered() -> None:
    qm = mq.QueueManager("QM1")
    out = qm.mqsc("ALTER QMGR MAXPRTY(5)")
    assert "ALTER QMGR MAXPRTY\n" in out and qm.maxprty == 9


# --- REFRESH QMGR TYPE(EXPIRY) -----------------------------------------------------------------


def test_exp28_refresh_expiry_on_zos_discards_expired_messages_of_matching_queues() -> None:
    qm = qm_with_queues("zos")
    put(qm, "OTHER.Q", expiry=10)
    qm.sim.advance(seconds=2)
    out = qm.mqsc("REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)")
    assert ok(out) and "1 expired message(s) discarded" in out
    assert (qm.curdepth("APP.IN"), qm.curdepth("OTHER.Q")) == (1, 1)
    assert [e.cause for e in qm.events if e.kind == "discard"] == ["refresh"]
    assert ok(qm.mqsc("REFRESH QMGR TYPE(EXPIRY)")), "NAME defaults to *"
    assert qm.curdepth("OTHER.Q") == 0


def test_exp28_refresh_expiry_elsewhere_is_an_error_and_discards_nothing() -> None:
    for profile in ("distributed", "ibmi"):
        qm = qm_with_queues(profile)
        before = state(qm)
        out = qm.mqsc("REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)")
        assert "AMQ8405I" in out and "REFRESH QMGR TYPE(EXPIRY)\n" in out and "z/OS" in out
        assert out.splitlines()[-2] == "One command has a syntax error."
        assert state(qm) == before


# --- MQSC syntax ------------------------------------------------------------------------------


def test_keywords_are_case_insensitive_and_have_synonyms() -> None:
    """Upper, lower and mixed case, DEF/DIS/ALT/QL/QR/QA/Q/QS all mean the same command."""
    spellings = [
        "DEFINE QLOCAL(APP.IN) DEFPRTY(3)",
        "define qlocal(app.in) defprty(3)",
        "Def Ql(App.In) DefPrty(3)",
    ]
    definitions = []
    for command in spellings:
        qm = mq.QueueManager("QM1")
        assert ok(qm.mqsc(command))
        definitions.append(qm.definition("APP.IN"))
    assert definitions[0] == definitions[1] == definitions[2]
    qm = mq.QueueManager("QM1")
    out = qm.mqsc(
        "def ql(a) \n def qr(r) rname(x) rqmname(y)\n def qa(b) target(a)\n alt ql(a) maxdepth(7)"
        "\n dis q(*)\n dis qs(a)\n dis qmgr"
    )
    assert ok(out) and len(blocks(out)) == 3


def test_quoted_values_keep_their_case_and_quotes_double_up() -> None:
    qm = mq.QueueManager("QM1")
    out = qm.mqsc("DEFINE QLOCAL('app.in') TRIGDATA('it''s (here)')\nDIS QLOCAL('app.in') TRIGDATA")
    assert ok(out)
    assert "app.in" in qm.objects and "APP.IN" not in qm.objects
    assert blocks(out)[0]["QUEUE"] == "app.in"
    assert qm.definition("app.in").trigdata == "it's (here)"  # type: ignore[attr-defined]


def test_plus_and_minus_continue_a_command() -> None:
    """``+`` continues at the next line's first non-blank, ``-`` at its first column."""
    qm = mq.QueueManager("QM1")
    out = qm.mqsc(
        "DEFINE QLOCAL(APP.IN) +\n"
        "       MAXDEPTH(10) TRIGDATA('one +\n"
        "       two -\n"
        "  three')\n"
        "DIS QL(APP.IN) MAXDEPTH"
    )
    assert ok(out)
    assert out.splitlines()[:4] == [
        "     1 : DEFINE QLOCAL(APP.IN) +",
        "       :        MAXDEPTH(10) TRIGDATA('one +",
        "       :        two -",
        "       :   three')",
    ]
    definition = qm.definition("APP.IN")
    assert definition.maxdepth == 10  # type: ignore[attr-defined]
    assert definition.trigdata == "one two   three"  # type: ignore[attr-defined]


def test_commands_run_in_order_with_comments_and_commas() -> None:
    qm = mq.QueueManager("QM1")
    out = qm.mqsc(
        "* set up the queue\n"
        "DEFINE QLOCAL(APP.IN),MAXDEPTH(3)\n"
        "\n"
        "DISPLAY QLOCAL(APP.IN) MAXDEPTH\n"
        "DELETE QLOCAL(APP.IN)\n"
        "DISPLAY QLOCAL(APP.IN)\n"
    )
    lines = out.splitlines()
    assert lines[0] == "       : * set up the queue"
    assert [line for line in lines if re.match(r" +\d+ : ", line)] == [
        "     1 : DEFINE QLOCAL(APP.IN),MAXDEPTH(3)",
        "     2 : DISPLAY QLOCAL(APP.IN) MAXDEPTH",
        "     3 : DELETE QLOCAL(APP.IN)",
        "     4 : DISPLAY QLOCAL(APP.IN)",
    ]
    assert blocks(out)[0]["MAXDEPTH"] == "3"
    assert lines[-4:] == [
        "AMQ8147E: IBM MQ object APP.IN not found.",
        "4 MQSC commands read.",
        "No commands have a syntax error.",
        "One valid MQSC command could not be processed.",
    ]


@pytest.mark.parametrize(
    ("command", "segment", "names"),
    [
        ("FROB QLOCAL(APP.IN)", "FROB", "AMQ8426I: Valid MQSC commands are:"),
        ("DEFINE QLOCAL(NEW.Q) DESCR('x')", "DEFINE QLOCAL(NEW.Q) DESCR", "DESCR is not a keyword"),
        ("DEFINE CHANNEL(TO.QM2)", "DEFINE CHANNEL", "mqlearn supports DEFINE QLOCAL"),
        ("DISPLAY QLOCAL(APP.IN) COLOUR", "DISPLAY QLOCAL(APP.IN) COLOUR", "COLOUR is not"),
        ("ALTER QLOCAL(APP.IN) DEFPRTY(12)", "ALTER QLOCAL(APP.IN) DEFPRTY(12)", "DEFPRTY must"),
        ("ALTER QLOCAL(APP.IN) MAXDEPTH(lots)", "ALTER QLOCAL(APP.IN) MAXDEPTH(LOTS)", "number"),
        ("DEFINE QLOCAL(NEW.Q) TRIGGER NOTRIGGER", "DEFINE QLOCAL(NEW.Q) TRIGGER NOTRIGGER", ""),
        ("DEFINE QLOCAL(NEW.Q) MAXDEPTH", "DEFINE QLOCAL(NEW.Q) MAXDEPTH", "needs a value"),
        ("DEFINE QLOCAL(NEW.Q) TRIGDATA('open", "DEFINE QLOCAL(NEW.Q) TRIGDATA('open", "closed"),
        ("DEFINE QREMOTE(R) RNAME(A)", "DEFINE QREMOTE(R) RNAME(A)", "RQMNAME"),
        ("CLEAR QLOCAL(APP.IN) PURGE", "CLEAR QLOCAL(APP.IN) PURGE", "PURGE is not"),
    ],
)
def test_unknown_command_or_keyword_is_a_syntax_error_naming_it(
    command: str, segment: str, names: str
) -> None:
    """AMQ8405I with the command up to the word at fault, and nothing changes."""
    qm = qm_with_queues()
    before = state(qm)
    out = qm.mqsc(command)
    lines = out.splitlines()
    assert lines[1] == "AMQ8405I: Syntax error detected at or near end of command segment below:-"
    assert lines[2].upper() == segment.upper()
    assert names in out
    assert lines[-2] == "One command has a syntax error."
    assert state(qm) == before


# --- one code path for Python and MQSC ---------------------------------------------------------


def test_python_calls_and_mqsc_make_equal_definitions() -> None:
    by_python = mq.QueueManager("QM1")
    by_python.define_qlocal(
        "APP.IN",
        msgdlvsq="FIFO",
        defprty=2,
        maxdepth=50,
        capexpry=300,
        trigger=True,
        trigtype="EVERY",
        initq="INIT.Q",
        usage="NORMAL",
        get="DISABLED",
    )
    by_python.define_qlocal("QM2", usage="XMITQ", capexpry="NOLIMIT")
    by_python.define_qremote("TO.QM2", rname="APP.IN", rqmname="QM2", defpsist="YES")
    by_python.define_qalias("ALIAS.IN", target="APP.IN", capexpry=100)
    by_python.alter_qlocal("APP.IN", maxdepth=60)
    by_mqsc = mq.QueueManager("QM1")
    out = by_mqsc.mqsc(
        "DEFINE QLOCAL(APP.IN) MSGDLVSQ(FIFO) DEFPRTY(2) MAXDEPTH(50) CAPEXPRY(300) TRIGGER +\n"
        "  TRIGTYPE(EVERY) INITQ(INIT.Q) USAGE(NORMAL) GET(DISABLED)\n"
        "DEFINE QLOCAL(QM2) USAGE(XMITQ) CAPEXPRY(NOLIMIT)\n"
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) DEFPSIST(YES)\n"
        "DEFINE QALIAS(ALIAS.IN) TARGET(APP.IN) CAPEXPRY(100)\n"
        "ALTER QLOCAL(APP.IN) MAXDEPTH(60)\n"
    )
    assert ok(out)
    assert by_mqsc.objects == by_python.objects


def test_exp06_md02_mqsc_definitions_act_on_puts() -> None:
    """CAPEXPRY and DEFPRTY defined in MQSC cap Expiry and fill Priority -1 at put time."""
    qm = mq.QueueManager("QM1")
    qm.mqsc("DEFINE QLOCAL(APP.IN) CAPEXPRY(50) DEFPRTY(6)")
    qm.put1("APP.IN", b"x", mq.MD(Expiry=C.MQEI_UNLIMITED, Priority=C.MQPRI_PRIORITY_AS_Q_DEF))
    md = mq.MD()
    mq.Queue(qm, "APP.IN").get(None, md)
    assert (md.Expiry, md.Priority) == (50, 6)


# --- CAPEXPRY's two forms (IBM: "Enforcing lower expiration times", 8.0.0.4 to 9.3, and
# "CAPEXPRY: Limit message expiry time", 9.4.0). Both pages: the cap is in tenths of a second, a
# longer Expiry (unlimited included) is lowered to it at put, and the lowest cap on the resolution
# path wins. The older page knows only CAPEXPRY inside CUSTOM; the 9.3 page adds the attribute
# from 9.3.1 (AIX, Linux, Windows, IBM i) and says setting both does not work: the CUSTOM entry
# must be removed before the attribute is set (its example: ALTER QLOCAL(Q1) CAPEXPRY(1000)
# CUSTOM('')); z/OS refuses both with CSQM531I; the 9.4 page lists both ways of setting it.


def capped_get(qm: mq.QueueManager, queue: str) -> int:
    """Put an unlimited message to ``queue`` and get it back at once: the Expiry it was given."""
    qm.put1(queue, b"x", mq.MD(Expiry=C.MQEI_UNLIMITED), NO_SYNC)
    md = mq.MD()
    mq.Queue(qm, queue).get(None, md)
    return md.Expiry


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_exp06_both_mqsc_forms_of_capexpry_cap_puts_on_every_profile(profile: str) -> None:
    """CUSTOM('CAPEXPRY(n)') (from 8.0.0.4) and CAPEXPRY(n) (from 9.3.1/9.4.0) cap alike."""
    qm = mq.QueueManager("QM1", profile=profile)
    out = qm.mqsc(
        "DEFINE QLOCAL(OLD.Q) CUSTOM('CAPEXPRY(50)')\n"
        "DEFINE QLOCAL(NEW.Q) CAPEXPRY(50)\n"
        "DEFINE QALIAS(OLD.ALIAS) TARGET(NEW.Q) CUSTOM('capexpry( 20 )')\n"
    )
    assert ok(out), out
    assert capped_get(qm, "OLD.Q") == capped_get(qm, "NEW.Q") == 50
    assert capped_get(qm, "OLD.ALIAS") == 20, "the lowest cap on the path wins, either form"
    assert qm.local("OLD.Q").capexpry == qm.local("NEW.Q").capexpry == 50


def test_exp06_display_shows_each_form_where_it_was_set() -> None:
    qm = mq.QueueManager("QM1")
    qm.mqsc("DEFINE QLOCAL(OLD.Q) CUSTOM('CAPEXPRY(50)')\nDEFINE QLOCAL(NEW.Q) CAPEXPRY(50)")
    out = qm.mqsc("DISPLAY QLOCAL(*) CAPEXPRY CUSTOM")
    new, old = blocks(out)
    assert (new["CAPEXPRY"], new["CUSTOM"]) == ("50", "")
    assert old["CAPEXPRY"] == "NOLIMIT", "the attribute itself was never set"
    assert "   CAPEXPRY(NOLIMIT)                       CUSTOM(CAPEXPRY(50))" in out.splitlines()
    assert "CUSTOM( )" in qm.mqsc("DIS QL(NEW.Q) ALL"), "DISPLAY ALL shows CUSTOM too"


def custom_shown(qm: mq.QueueManager, queue: str) -> tuple[str, str]:
    """(CAPEXPRY, CUSTOM) as DISPLAY shows them."""
    out = qm.mqsc(f"DIS QL({queue}) CAPEXPRY CUSTOM")
    found = re.search(r"CAPEXPRY\(([^)]*)\)\s+CUSTOM\((.*)\)\s*$", out, re.MULTILINE)
    assert found, out
    return found[1], found[2].strip()


REFUSAL = {
    "zos": "CSQM531I",
    "distributed": "must be removed first",
    "ibmi": "must be removed first",
}


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
@pytest.mark.parametrize(
    "commands",
    [
        "DEFINE QLOCAL(Q2) CAPEXPRY(100) CUSTOM('CAPEXPRY(200)')",
        "ALTER QLOCAL(Q1) CAPEXPRY(1000)",
        "ALTER QLOCAL(Q1) CAPEXPRY(1000) CUSTOM('CAPEXPRY(300)')",
        "ALTER QLOCAL(Q3) CUSTOM('CAPEXPRY(NOLIMIT)')",
    ],
)
def test_exp06_setting_both_forms_is_refused_and_changes_nothing(
    profile: str, commands: str
) -> None:
    """IBM, "Enforcing lower expiration times": setting both does not work; z/OS refuses it
    with CSQM531I; elsewhere mqlearn refuses it too, saying the CUSTOM entry must go first."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.mqsc("DEFINE QLOCAL(Q1) CUSTOM('CAPEXPRY(200)')\nDEFINE QLOCAL(Q3) CAPEXPRY(300)")
    before = state(qm)
    out = qm.mqsc(commands)
    assert REFUSAL[profile] in out and "One valid MQSC command could not be processed." in out
    assert state(qm) == before
    assert (capped_get(qm, "Q1"), capped_get(qm, "Q3")) == (200, 300)


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_exp06_removing_the_custom_entry_with_the_attribute_moves_the_cap(profile: str) -> None:
    """IBM's example, ALTER QLOCAL(Q1) CAPEXPRY(1000) CUSTOM(''), works in one command; so do
    clearing CUSTOM first and setting the attribute next, and the way back."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.mqsc("DEFINE QLOCAL(Q1) CUSTOM('CAPEXPRY(200)')\nDEFINE QLOCAL(Q2) CUSTOM('CAPEXPRY(20)')")
    assert ok(qm.mqsc("ALTER QLOCAL(Q1) CAPEXPRY(1000) CUSTOM('')"))
    assert capped_get(qm, "Q1") == 1000
    assert custom_shown(qm, "Q1") == ("1000", "")
    assert ok(qm.mqsc("ALTER QLOCAL(Q2) CUSTOM('')\nALTER QLOCAL(Q2) CAPEXPRY(40)"))
    assert capped_get(qm, "Q2") == 40
    assert ok(qm.mqsc("ALTER QLOCAL(Q2) CAPEXPRY(NOLIMIT) CUSTOM('CAPEXPRY(30)')"))
    assert capped_get(qm, "Q2") == 30
    assert custom_shown(qm, "Q2") == ("NOLIMIT", "CAPEXPRY(30)")
    assert ok(qm.mqsc("ALTER QLOCAL(Q2) MAXDEPTH(7)"))
    assert capped_get(qm, "Q2") == 30, "altering another attribute keeps the CUSTOM cap"


def test_exp06_a_cap_set_from_python_or_a_redefinition_replaces_both_forms() -> None:
    qm = mq.QueueManager("QM1")
    qm.mqsc("DEFINE QLOCAL(Q1) CUSTOM('CAPEXPRY(200)')")
    qm.alter("Q1", capexpry=40)
    assert custom_shown(qm, "Q1") == ("40", "")
    qm.mqsc("ALTER QLOCAL(Q1) CAPEXPRY(NOLIMIT) CUSTOM('CAPEXPRY(200)')")
    qm.mqsc("DEFINE QLOCAL(Q1) REPLACE")
    assert custom_shown(qm, "Q1") == ("NOLIMIT", "")
    assert capped_get(qm, "Q1") == C.MQEI_UNLIMITED


@pytest.mark.parametrize(
    ("custom", "why"),
    [
        ("CUSTOM('FOO(1)')", "understands one entry"),
        ("CUSTOM('CAPEXPRY(10) CAPEXPRY(20)')", "understands one entry"),
        ("CUSTOM('CAPEXPRY(soon)')", "whole number or NOLIMIT"),
        ("CUSTOM('CAPEXPRY(0)')", "CAPEXPRY must be in 1..999999999"),
        ("CUSTOM(CAPEXPRY(10))", "unbalanced parentheses"),
    ],
)
def test_custom_holding_anything_else_is_a_syntax_error_that_changes_nothing(
    custom: str, why: str
) -> None:
    qm = qm_with_queues()
    before = state(qm)
    out = qm.mqsc(f"ALTER QLOCAL(APP.IN) {custom}")
    assert "AMQ8405I" in out and why in out, out
    assert state(qm) == before


def test_zos_replies_are_shown_in_the_distributed_form_as_documented() -> None:
    """A z/OS queue manager answers with CSQ messages; mqlearn says it shows runmqsc's AMQ form."""
    zos = mq.QueueManager("QMZ", profile="zos")
    out = zos.mqsc("DEFINE QLOCAL(APP.IN) CAPEXPRY(100)\nDIS QL(APP.IN) CAPEXPRY")
    assert "AMQ8006I: IBM MQ queue created." in out and QUEUE_DETAILS in out
    assert "CSQ" not in out
    docs = (Path(__file__).resolve().parents[2] / "docs" / "interop.md").read_text()
    assert "Replies in the distributed form" in docs and "CSQ9022I" in docs


def test_mqsc_text_must_be_a_str() -> None:
    with pytest.raises(TypeError, match="MQSC text must be a str"):
        mq.QueueManager("QM1").mqsc(b"DIS QMGR")  # type: ignore[arg-type]


# --- robustness: any text gives runmqsc-style text; a failing command changes nothing ----------

TOKENS = [
    *("DEFINE", "def", "ALTER", "alt", "DELETE", "CLEAR", "DISPLAY", "dis", "REFRESH"),
    *("QLOCAL", "ql", "QREMOTE", "QALIAS", "qa", "QUEUE", "Q", "QSTATUS", "QMGR"),
    *("(", ")", "'", "''", "(APP.IN)", "(app.in)", "(APP.*)", "(*)", "(NEW.Q)", "(ALIAS.IN)"),
    *("(TO.QM2)", "(OTHER.Q)", "('a b')", "+", "-", " ", " ", " ", ",", "\t"),
    *(
        "DEFPRTY(5)",
        "DEFPRTY(x)",
        "MAXDEPTH(0)",
        "MAXDEPTH(1)",
        "CAPEXPRY(NOLIMIT)",
        "CAPEXPRY(10)",
    ),
    *("TRIGGER", "NOTRIGGER", "REPLACE", "PURGE", "TYPE(EXPIRY)", "NAME(APP.*)", "ALL"),
    *("CURDEPTH", "UNCOM", "DEADQ(DLQ)", "DEADQ('')", "EXPRYINT(OFF)", "EXPRYINT(5)", "MAXPRTY"),
    *("USAGE(XMITQ)", "TARGET(APP.IN)", "TARGET(NOPE)", "RNAME(X)", "RQMNAME(QM2)", "TYPE(QLOCAL)"),
    *("CUSTOM('CAPEXPRY(10)')", "CUSTOM('')", "CUSTOM", "CUSTOM('CAPEXPRY(NOLIMIT)')"),
]
COMMANDS = [
    *("DEFINE QLOCAL(NEW.Q) MAXDEPTH(1)", "DEFINE QLOCAL(APP.IN) REPLACE DEFPRTY(5)"),
    *("DEFINE QALIAS(A2) TARGET(NOPE)", "DEFINE QREMOTE(R2) RNAME(X) RQMNAME(QM2)"),
    *("ALTER QLOCAL(APP.IN) MAXDEPTH(1)", "ALTER QALIAS(ALIAS.IN) TARGET(OTHER.Q)"),
    *("ALTER QREMOTE(TO.QM2) XMITQ(OTHER.Q)", "ALTER QMGR DEADQ(DLQ)", "ALTER QMGR EXPRYINT(5)"),
    *("DELETE QLOCAL(OTHER.Q)", "DELETE QLOCAL(APP.IN) PURGE", "DELETE QALIAS(ALIAS.IN)"),
    *("CLEAR QLOCAL(APP.IN)", "CLEAR QLOCAL(OTHER.Q)", "REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)"),
    *("DISPLAY QUEUE(*) ALL", "DIS QS(*)", "DIS QMGR ALL", "DIS QL(APP.IN) CURDEPTH"),
    *("DEFINE QLOCAL(APP.IN)", "DELETE QLOCAL(APP.IN)", "CLEAR QLOCAL(ALIAS.IN)"),
    *("ALTER QLOCAL(NOPE) MAXDEPTH(1)", "DEFINE QALIAS(APP.IN) TARGET(X) REPLACE"),
    *("ALTER QLOCAL(APP.IN) CUSTOM('CAPEXPRY(5)')", "DEFINE QLOCAL(NEW.Q) CUSTOM('CAPEXPRY(9)')"),
]
# a known command, possibly with one token put somewhere in it (often making it invalid)
command_like = st.builds(
    lambda command, at, token: command[:at] + token + command[at:],
    st.sampled_from(COMMANDS),
    st.integers(0, 40),
    st.one_of(st.just(""), st.sampled_from(TOKENS), st.text(max_size=2)),
)
mqsc_text = st.one_of(
    command_like,
    st.text(max_size=40),
    st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=3)), max_size=14).map("".join),
    st.lists(st.sampled_from(TOKENS), max_size=10).map(" ".join),
)
profiles = st.sampled_from(["distributed", "zos", "ibmi"])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(mqsc_text, max_size=4).map("\n".join), profile=profiles)
def test_any_text_is_answered_in_runmqsc_style_never_raised(text: str, profile: str) -> None:
    out = qm_with_queues(profile).mqsc(text)
    assert isinstance(out, str)
    assert re.fullmatch(r"(No|One|\d+) MQSC commands? read\.", out.splitlines()[-3])


@settings(max_examples=400, deadline=None)
@given(text=mqsc_text.filter(lambda t: len(t.splitlines()) <= 1), profile=profiles)
def test_a_command_that_fails_changes_nothing(text: str, profile: str) -> None:
    qm = qm_with_queues(profile)
    before = state(qm)
    out = qm.mqsc(text)
    if not ok(out):
        assert state(qm) == before, out


# --- DEFINE PROCESS (rule TRG-04: IBM's "Conditions for a trigger event") ------------------------


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_trg04_define_process_makes_a_triggered_queue_fire_once_a_monitor_is_there(
    profile: str,
) -> None:
    """PROCESS naming a process that DEFINE PROCESS created, and a monitor on the initiation
    queue: the trigger message's MQTM carries APPLICID and APPLTYPE; before the DEFINE, none."""
    qm = mq.QueueManager("QM1", profile=profile)
    out = qm.mqsc(
        "DEFINE QLOCAL(INIT.Q)\n"
        "DEFINE QLOCAL(APP.IN) TRIGGER TRIGTYPE(EVERY) INITQ(INIT.Q) PROCESS(APP.PROC)\n"
    )
    assert ok(out), out
    monitor = mq.Queue(qm, "INIT.Q", C.MQOO_INPUT_SHARED)
    put(qm, "APP.IN")
    assert qm.curdepth("INIT.Q") == 0, "no process definition yet"
    out = qm.mqsc("DEF PRO(APP.PROC) APPLICID('/opt/app/run') APPLTYPE(UNIX) USERDATA('u1')")
    assert ok(out) and "AMQ8010I: IBM MQ process created." in out, out
    put(qm, "APP.IN")
    data = monitor.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    tm = mq.MQTM.unpack(data)
    assert (tm.ApplId.rstrip(), tm.ApplType, tm.UserData.rstrip()) == ("/opt/app/run", 6, "u1")


def test_trg04_define_process_twice_needs_replace_and_bad_values_change_nothing() -> None:
    qm = mq.QueueManager("QM1")
    assert ok(qm.mqsc("DEFINE PROCESS(P1) APPLICID('a')"))
    assert "AMQ8150E" in qm.mqsc("DEFINE PROCESS(P1) APPLICID('b')")
    assert ok(qm.mqsc("DEFINE PROCESS(P1) APPLICID('b') REPLACE"))
    assert qm.processes["P1"].applicid == "b"
    out = qm.mqsc("DEFINE PROCESS(P2) APPLTYPE(SOMETHING)")
    assert "AMQ8405I" in out and "APPLTYPE is a number or one of" in out
    assert "P2" not in qm.processes


# --- ALTER, DELETE and DISPLAY PROCESS; ALTER QMGR TRIGINT (rules TRG-04, TRG-06) ---------------


def test_trg04_display_process_is_laid_out_as_runmqsc_prints_it() -> None:
    """A named process shows every attribute, PROCESS first, two items to a line from column 3
    and 43 (as DISPLAY QLOCAL does), blanks as ``( )``, APPLTYPE by its MQSC name."""
    qm = mq.QueueManager("QM1")
    qm.mqsc("DEFINE PROCESS(APP.PROC) APPLICID('/opt/app/start') DESCR('order app')")
    out = qm.mqsc("DIS PRO(APP.PROC)")
    lines = out.splitlines()
    at = lines.index(PROCESS_DETAILS)
    assert lines[at + 1 : at + 4] == [
        "   PROCESS(APP.PROC)" + " " * 23 + "APPLICID(/opt/app/start)",
        "   APPLTYPE(UNIX)" + " " * 26 + "DESCR(order app)",
        "   ENVRDATA( )" + " " * 29 + "USERDATA( )",
    ]
    assert ok(out), out


def test_trg04_display_process_generic_names_and_chosen_attributes() -> None:
    """A generic name shows PROCESS only unless attributes (or ALL) are asked for; blocks come in
    name order; a name nothing matches is AMQ8147E; an attribute DISPLAY PROCESS does not have
    is a syntax error."""
    qm = mq.QueueManager("QM1")
    qm.define_process("PROC.B", appltype=C.MQAT_WINDOWS_NT, userdata="ub")
    qm.define_process("PROC.A", appltype=123)
    qm.define_process("OTHER")
    assert blocks(qm.mqsc("DIS PROCESS(PROC.*)"), PROCESS_DETAILS) == [
        {"PROCESS": "PROC.A"},
        {"PROCESS": "PROC.B"},
    ]
    assert blocks(qm.mqsc("DIS PRO(*) APPLTYPE USERDATA"), PROCESS_DETAILS) == [
        {"PROCESS": "OTHER", "APPLTYPE": "UNIX", "USERDATA": ""},
        {"PROCESS": "PROC.A", "APPLTYPE": "123", "USERDATA": ""},
        {"PROCESS": "PROC.B", "APPLTYPE": "WINDOWSNT", "USERDATA": "ub"},
    ]
    assert len(blocks(qm.mqsc("DIS PRO(PROC.B*) ALL"), PROCESS_DETAILS)[0]) == 6
    assert "AMQ8147E: IBM MQ object NOPE* not found." in qm.mqsc("DIS PRO(NOPE*)")
    out = qm.mqsc("DIS PRO(PROC.A) CURDEPTH")
    assert "CURDEPTH is not a keyword of DISPLAY PROCESS" in out


def test_trg04_alter_process_changes_the_named_attributes_and_the_next_trigger_message() -> None:
    """ALTER PROCESS changes what it names and keeps the rest; the trigger message written after
    it carries the new APPLICID (IBM: the values in force at the trigger event). A bad value or
    an unknown process changes nothing."""
    qm = mq.QueueManager("QM1")
    out = qm.mqsc(
        "DEFINE QLOCAL(INIT.Q)\n"
        "DEFINE PROCESS(APP.PROC) APPLICID('/old') USERDATA('keep')\n"
        "DEFINE QLOCAL(APP.IN) TRIGGER TRIGTYPE(EVERY) INITQ(INIT.Q) PROCESS(APP.PROC)\n"
        "ALTER PROCESS(APP.PROC) APPLICID('/new') APPLTYPE(OS400)\n"
    )
    assert ok(out) and "AMQ8012I: IBM MQ process changed." in out, out
    process = qm.processes["APP.PROC"]
    assert (process.applicid, process.appltype, process.userdata) == ("/new", 8, "keep")
    monitor = mq.Queue(qm, "INIT.Q", C.MQOO_INPUT_SHARED)
    put(qm, "APP.IN")
    tm = mq.MQTM.unpack(monitor.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT)))
    assert (tm.ApplId.rstrip(), tm.ApplType, tm.UserData.rstrip()) == ("/new", 8, "keep")
    out = qm.mqsc("ALTER PROCESS(APP.PROC) APPLTYPE(-5)\nALTER PROCESS(NOPE) APPLICID('x')")
    assert "AMQ8405I" in out and "AMQ8147E: IBM MQ object NOPE not found." in out
    assert qm.processes["APP.PROC"] == process and "NOPE" not in qm.processes
    out = qm.mqsc("ALTER PROCESS(APP.PROC) REPLACE")
    assert "REPLACE is not a keyword of ALTER PROCESS" in out


def test_trg04_delete_process_stops_the_trigger_messages() -> None:
    """DELETE PROCESS: AMQ8011I; the queue that names it no longer triggers (no process
    definition, rule TRG-04); deleting it again is AMQ8147E."""
    qm = mq.QueueManager("QM1")
    assert ok(
        qm.mqsc(
            "DEFINE QLOCAL(INIT.Q)\nDEFINE PROCESS(APP.PROC)\n"
            "DEFINE QLOCAL(APP.IN) TRIGGER TRIGTYPE(EVERY) INITQ(INIT.Q) PROCESS(APP.PROC)"
        )
    )
    mq.Queue(qm, "INIT.Q", C.MQOO_INPUT_SHARED)
    put(qm, "APP.IN")
    out = qm.mqsc("DELETE PROCESS(APP.PROC)")
    assert "AMQ8011I: IBM MQ process deleted." in out and ok(out), out
    put(qm, "APP.IN")
    assert qm.curdepth("INIT.Q") == 1 and "APP.PROC" not in qm.processes
    assert "AMQ8147E: IBM MQ object APP.PROC not found." in qm.mqsc("DELETE PRO(APP.PROC)")
    assert "PURGE is not a keyword of DELETE PROCESS" in qm.mqsc("DELETE PRO(X) PURGE")


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_trg06_alter_and_display_qmgr_trigint(profile: str) -> None:
    """TRIGINT is a queue manager attribute on every platform: ALTER QMGR TRIGINT(ms) sets
    qm.trigint, DISPLAY QMGR shows it; a value out of 0..999999999 is refused, changing
    nothing."""
    qm = mq.QueueManager("QM1", profile=profile)
    out = qm.mqsc("DIS QMGR TRIGINT\nALTER QMGR TRIGINT(60000)\nDIS QMGR TRIGINT")
    assert ok(out), out
    assert blocks(out, QMGR_DETAILS) == [
        {"QMNAME": "QM1", "TRIGINT": "999999999"},
        {"QMNAME": "QM1", "TRIGINT": "60000"},
    ]
    assert qm.trigint == 60_000
    out = qm.mqsc("ALTER QMGR TRIGINT(1000000000)\nALTER QMGR TRIGINT(-1)\nALTER QMGR TRIGINT")
    assert out.count("AMQ8405I") == 3 and qm.trigint == 60_000
