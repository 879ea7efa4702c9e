"""Importing IBM MQ application activity trace into trace schema v1 (issue 14, item 4;
docs/pipeline.md, "Importing real activity traces").

tests/data/activity/ holds one activity in three textual forms, written from IBM's published
definitions (no capture from a running queue manager is public): ``orders.amqsact.txt`` as
``amqsact -v`` prints it, ``orders.amqsevt.json`` as the C ``amqsevt -o json`` does and
``orders.amqsevtg.json`` as the Go ``amqsevtg`` does. On QM1, 09:00:00 UTC on 2024-03-14:

- orders-app puts 1 (Expiry 5 s, Priority 4, MQRO_EXPIRATION to APP.REPORTS), 2 (60 s,
  persistent) and 3 (unlimited, Priority 1) on APP.ORDERS at 0.1/0.2/0.3 s; MQPUT1s 4 (3 s,
  MQRO_EXPIRATION_WITH_DATA) to APP.AUDIT at 0.4 s; an MQPUT1 to APP.ORDRES fails with 2085 at
  0.5 s; puts 5 (2 s) on APP.ORDERS at 12 s, then 6 under syncpoint, and backs it out;
- billing browses APP.ORDERS first at 8 s (gets 2 back, 52.2 s left), gets 2 at 9 s (51.2 s
  left), 3 at 10 s, nothing (2033) at 11 s; gets nothing from APP.AUDIT at 20 s, nor under
  syncpoint at 20.1 s, and commits.

The replay must agree with what the trace recorded: 1 is discarded by the browse at 8 s and 4
by the get at 20 s, each with its expiration report to APP.REPORTS (rules EXP-21, EXP-22,
RPT-01), and 5 is still on APP.ORDERS, expired, when the trace ends (EXP-25).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from mqlearn import CMQC
from mqlearn.pipeline import QUEUE_COLUMNS, replay_local
from mqlearn.pipeline.activity import (
    CATEGORIES,
    IMPORT_COLUMNS,
    ActivityFormatError,
    ActivityImport,
    QueueDefaults,
    check_replay,
    convert,
    import_activity,
    read_records,
)
from mqlearn.pipeline.activity_fields import Operation, Record, canonical, integer

DATA = Path(__file__).resolve().parents[1] / "data" / "activity"
FORMS = {
    "amqsact": (DATA / "orders.amqsact.txt", "amqsact"),
    "amqsevt": (DATA / "orders.amqsevt.json", "amqsevt-json"),
    "amqsevtg": (DATA / "orders.amqsevtg.json", "amqsevt-json"),
}
START = datetime(2024, 3, 14, 9, 0, 0, tzinfo=UTC)
START_US = 1_710_406_800_000_000


def mid(n: int) -> str:
    """The MsgId of message n in the test files."""
    return (b"AMQ QM1".ljust(16, b" ") + bytes.fromhex(f"65F2C0500100{n:04X}")).hex()


def imported(form: str = "amqsact", **options: Any) -> ActivityImport:
    path, fmt = FORMS[form]
    return import_activity(path, fmt, **{"start": START, **options})


def comparable(result: ActivityImport) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The trace and rejects without the file lines, which differ from form to form."""
    return result.trace.drop(columns="source_line"), result.rejects.drop(columns="source_line")


# -- the three forms -------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["amqsevt", "amqsevtg"])
def test_the_json_forms_import_to_the_rows_of_the_amqsact_form(form: str) -> None:
    """amqsact -v, amqsevt -o json and amqsevtg describe the same activity: the same trace
    rows, the same rejects and the same queue definitions."""
    reference, other = imported("amqsact"), imported(form)
    for mine, theirs in zip(comparable(reference), comparable(other), strict=True):
        pd.testing.assert_frame_equal(mine, theirs)
    pd.testing.assert_frame_equal(reference.queues, other.queues)
    assert reference.operations == other.operations == 25


@pytest.mark.parametrize("layout", ["array", "compact"])
def test_amqsevtg_array_and_compact_outputs_read_the_same(layout: str, tmp_path: Path) -> None:
    """amqsevtg -o array prints one JSON array, -o compact one event a line."""
    content = (DATA / "orders.amqsevtg.json").read_text()
    decoder, events, pos = json.JSONDecoder(), [], 0
    while pos < len(content.rstrip()):
        event, pos = decoder.raw_decode(content, pos)
        events.append(event)
        pos += len(content[pos:]) - len(content[pos:].lstrip())
    if layout == "array":
        text = "[\n" + ",\n".join(json.dumps(e, indent=2) for e in events) + "]\n"
    else:
        text = "".join(json.dumps(e) + "\n" for e in events)
    path = tmp_path / f"{layout}.json"
    path.write_text(text)
    mine = import_activity(path, "amqsevt-json", start=START).trace.drop(columns="source_line")
    reference = imported("amqsevtg").trace.drop(columns="source_line")
    pd.testing.assert_frame_equal(mine, reference)


# -- what the rows say -----------------------------------------------------------------------------
def test_puts_and_gets_become_rows_in_time_order() -> None:
    """Rows follow HighResTime across the two connections' records; time_ms counts from start;
    each (connection, Hobj) is a handle of its own (MQPUT1 has none: 0)."""
    trace = imported().trace
    assert trace["seq"].tolist() == list(range(11))
    assert trace["time_ms"].tolist() == [100, 200, 300, 400, 8000, 9000, 10000, 11000, 12000,
                                         20000, 20100]  # fmt: skip
    assert (
        trace["op"].tolist() == ["PUT"] * 4 + ["BROWSE_FIRST"] + ["GET"] * 3 + ["PUT"] + ["GET"] * 2
    )
    assert (
        trace["queue"].tolist()
        == ["APP.ORDERS"] * 3 + ["APP.AUDIT"] + ["APP.ORDERS"] * 5 + ["APP.AUDIT"] * 2
    )
    assert trace["handle"].tolist() == [1, 1, 1, 0, 2, 2, 2, 2, 1, 3, 3]
    assert trace["connection"].tolist()[:5] == ["orders-app[4242]"] * 4 + ["billing[5151]"]
    assert trace["highres_time_us"].iloc[0] == START_US + 100_000


def test_a_puts_descriptor_is_what_the_application_set() -> None:
    """PUT rows carry MsgId, Priority, the Expiry set (tenths), Report, ReplyToQ/QMgr,
    Persistence and MsgLength from the trace."""
    trace = imported().trace
    puts = trace[trace["op"] == "PUT"]
    assert puts["msg_id"].tolist() == [mid(1), mid(2), mid(3), mid(4), mid(5)]
    assert puts["expiry"].tolist() == [50, 600, -1, 30, 20]
    assert puts["priority"].tolist() == [4, 4, 1, 0, 0]
    assert puts["report"].tolist() == [CMQC.MQRO_EXPIRATION, 0, 0,
                                       CMQC.MQRO_EXPIRATION_WITH_DATA, 0]  # fmt: skip
    assert puts["reply_to_q"].tolist() == ["APP.REPORTS", pd.NA, pd.NA, "APP.REPORTS", pd.NA]
    assert puts["reply_to_qmgr"].tolist() == ["QM1", pd.NA, pd.NA, "QM1", pd.NA]
    assert puts["persistence"].tolist() == [0, 1, 0, 0, 0]
    assert puts["data_length"].tolist() == [512, 256, 128, 64, 32]


def test_a_gets_expiry_is_what_the_getter_received_and_is_only_observed() -> None:
    """On a get the trace's Expiry is the remaining lifetime: GET rows have no Expiry (the
    replay works it out); it is kept in observed_expiry with the MsgId and reason recorded."""
    trace = imported().trace
    gets = trace[trace["op"] != "PUT"]
    assert gets["expiry"].isna().all() and gets["priority"].isna().all()
    assert gets["observed_expiry"].tolist() == [522, 512, -1, pd.NA, pd.NA, pd.NA]
    assert gets["observed_msg_id"].tolist() == [mid(2), mid(2), mid(3), pd.NA, pd.NA, pd.NA]
    assert gets["observed_reason"].tolist() == [0, 0, 0, 2033, 2033, 2033]
    assert gets["match_options"].tolist() == [0] * 6
    assert gets["msg_id"].isna().all()


def test_every_operation_is_a_row_or_a_reject_with_its_reason() -> None:
    """25 operations: 11 rows and 14 rejects, none dropped silently."""
    result = imported()
    result.reconcile()
    rejects = result.rejects
    assert len(result.trace) + len(rejects) == result.operations == 25
    assert set(rejects["category"]) <= set(CATEGORIES)
    assert rejects["category"].value_counts().to_dict() == {
        "no queue change": 12,
        "failed call": 1,
        "not expressible": 1,
    }
    failed = rejects[rejects["category"] == "failed call"].iloc[0]
    assert (failed["operation"], failed["queue"], failed["reason_code"]) == (
        "MQXF_PUT1",
        "APP.ORDRES",
        2085,
    )
    assert "no message was put" in failed["reason"]
    sync = rejects[rejects["category"] == "not expressible"].iloc[0]
    assert (sync["operation"], sync["queue"], sync["msg_id"]) == ("MQXF_PUT", "APP.ORDERS", mid(6))
    assert "syncpoint" in sync["reason"]
    assert rejects["source_line"].is_monotonic_increasing


# -- through the replay ----------------------------------------------------------------------------
def test_exp21_the_replay_of_the_import_agrees_with_what_the_queue_manager_recorded() -> None:
    """Rules EXP-21, EXP-22, EXP-25, RPT-01: replayed with MQ's default definitions, every get
    and browse returns the MsgId, reason and remaining Expiry the trace recorded
    (check_replay finds nothing); 1 is discarded by the browse at 8 s, 4 by the get at 20 s,
    both with reports to APP.REPORTS; 5 is still there, expired, at the end."""
    result = imported()
    replay = replay_local(result.trace, result.queues, end_ms=result.end_ms)
    assert check_replay(result.trace, replay).empty
    messages = replay.messages.set_index("msg_id")
    assert messages.loc[mid(1), ["outcome", "end_ms", "discard_cause", "report_q"]].tolist() == [
        "discarded",
        8000,
        "browse",
        "APP.REPORTS",
    ]
    assert messages.loc[mid(4), ["outcome", "end_ms", "discard_cause", "report_q"]].tolist() == [
        "discarded",
        20000,
        "get",
        "APP.REPORTS",
    ]
    assert messages.loc[mid(5), ["outcome", "deadline_ms"]].tolist() == ["expired", 14000]


def test_exp06_check_replay_reports_where_the_definitions_disagree_with_the_trace() -> None:
    """Rule EXP-06: given CAPEXPRY(100) for APP.ORDERS, the replay caps the Expiry of 2 and of
    the unlimited 3 to 10 s: still live when browsed and got, but returned with 22, 12 and 3
    tenths left, not the 522, 512 and unlimited the trace recorded. check_replay reports all
    three: these definitions are not the queue manager's."""
    result = imported()
    queues = result.queues.copy()
    queues.loc[queues["queue"] == "APP.ORDERS", "capexpry"] = 100
    replay = replay_local(result.trace, queues, end_ms=result.end_ms)
    found = check_replay(result.trace, replay)
    assert found[["seq", "check", "trace_value", "replay_value"]].values.tolist() == [
        [4, "expiry", "522", "22"],
        [5, "expiry", "512", "12"],
        [6, "expiry", "-1", "3"],
    ]


def test_check_replay_reports_a_different_message_and_reason() -> None:
    """A trace that says the browse returned 3 and the last get returned something: the
    replay returns 2 and 2033, and both differences are reported."""
    result = imported()
    trace = result.trace.copy()
    trace.loc[4, "observed_msg_id"] = mid(3)
    trace.loc[7, ["observed_comp", "observed_reason"]] = [0, 0]
    replay = replay_local(trace, result.queues, end_ms=result.end_ms)
    found = check_replay(trace, replay)
    assert found[["seq", "check"]].values.tolist() == [[4, "msg_id"], [7, "reason"]]
    assert found["replay_value"].tolist() == [mid(2), "2033"]


# -- parameters for what a trace cannot tell -------------------------------------------------------
def test_queue_definitions_are_parameters() -> None:
    """``queues`` defines APP.ORDERS (FIFO, MAXDEPTH 2); with no defaults, APP.AUDIT has no
    definition and its rows are rejected, with that reason."""
    definition = pd.DataFrame(
        [
            {
                "qmgr": "QM1",
                "queue": "APP.ORDERS",
                "msgdlvsq": "FIFO",
                "defprty": 0,
                "maxdepth": 2,
                "capexpry": -1,
                "profile": "ibmi",
                "expiry_interval_s": 60,
            }
        ]
    ).astype(QUEUE_COLUMNS)
    result = imported(queues=definition, defaults=None)
    assert result.queues.to_dict("records") == definition.to_dict("records")
    assert set(result.trace["queue"]) == {"APP.ORDERS"}
    undefined = result.rejects[result.rejects["category"] == "no definition"]
    assert undefined["queue"].tolist() == ["APP.AUDIT"] * 3
    assert "has no queue definition" in undefined["reason"].iloc[0]
    result.reconcile()


def test_defaults_define_the_other_queues() -> None:
    defaults = QueueDefaults(msgdlvsq="FIFO", maxdepth=10, expiry_interval_s=5)
    queues = imported(defaults=defaults).queues
    assert queues["msgdlvsq"].tolist() == ["FIFO", "FIFO"]
    assert queues["expiry_interval_s"].tolist() == [5, 5]


def test_exp28_start_is_time_zero_and_earlier_operations_are_rejected() -> None:
    """Rule EXP-28 counts scans from time 0, the queue manager's start: ``start`` sets it. By
    default it is the first row's time; operations before a later start are rejected."""
    by_default = import_activity(*FORMS["amqsact"])
    assert by_default.start_us == START_US + 100_000
    assert by_default.trace["time_ms"].iloc[:2].tolist() == [0, 100]
    later = imported(start=START_US + 9_000_000)
    before = later.rejects[later.rejects["category"] == "before start"]
    assert len(before) == 5  # the four puts before 1 s and the browse at 8 s
    assert later.trace["time_ms"].iloc[0] == 0
    later.reconcile()


def test_get_match_gives_gets_the_match_options_the_trace_cannot_show() -> None:
    """``msg_id``: a get matches the MsgId it returned (a get that found nothing matches what
    it asked for: here MQMI_NONE, so nothing); ``correl_id`` alike; per queue with a mapping."""
    trace = imported(get_match="msg_id").trace
    gets = trace[trace["op"] != "PUT"]
    assert gets["match_options"].tolist() == [1, 1, 1, 0, 0, 0]
    assert gets["msg_id"].tolist() == [mid(2), mid(2), mid(3), pd.NA, pd.NA, pd.NA]
    by_queue = imported(get_match={"APP.AUDIT": "correl_id"}).trace
    assert (by_queue["match_options"] == 0).all()  # no CorrelId in this trace
    with pytest.raises(ValueError, match="get_match"):
        imported(get_match="everything")


# -- records built by hand: what a row cannot carry ------------------------------------------------
def put_fields(**extra: Any) -> dict[str, Any]:
    fields = {
        "operation": "MQXF_PUT", "highres_time": START_US, "hobj": 2, "put_options": 4,
        "comp_code": 0, "reason_code": 0, "resolved_q": "Q1", "resolved_qmgr": "QM1",
        "msg_id": mid(1), "expiry": 10, "priority": 0, "persistence": 0, "report": 0,
        "msg_length": 1,
    }  # fmt: skip
    return {**fields, **extra}


def get_fields(**extra: Any) -> dict[str, Any]:
    fields = {
        "operation": "Get", "highres_time": START_US + 1000, "hobj": 3, "get_options": 4,
        "comp_code": {"name": "Ok", "value": 0}, "reason_code": 0, "resolved_q": "Q1",
        "msg_id": mid(1), "expiry": 9, "persistence": 0,
    }  # fmt: skip
    return {**fields, **extra}


def one(*operations: dict[str, Any], **options: Any) -> ActivityImport:
    record = Record(line=1, header={"qmgr": "QM1", "appl_name": "app", "process_id": 1})
    record.operations = [Operation(line=10 + i, fields=f) for i, f in enumerate(operations)]
    return convert([record], **options)


@pytest.mark.parametrize(
    "fields, reason",
    [
        (get_fields(get_options=CMQC.MQGMO_LOCK | CMQC.MQGMO_BROWSE_FIRST), "MQGMO_LOCK"),
        (get_fields(get_options=CMQC.MQGMO_MSG_UNDER_CURSOR), "MQGMO_MSG_UNDER_CURSOR"),
        (get_fields(get_options=CMQC.MQGMO_LOGICAL_ORDER), "MQGMO_LOGICAL_ORDER"),
        (get_fields(get_options=CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT, persistence=1), "syncpoint"),
        (put_fields(put_options=CMQC.MQPMO_SYNCPOINT), "syncpoint"),
        (put_fields(recs_present=2), "distribution list"),
        (put_fields(object_type="MQOT_TOPIC", resolved_q=""), "topic"),
        ({**put_fields(), "operation": "MQXF_CALLBACK"}, "callback"),
    ],
)
def test_what_schema_v1_cannot_express_is_rejected_with_the_reason(
    fields: dict[str, Any], reason: str
) -> None:
    result = one(fields)
    assert result.trace.empty
    assert result.rejects["category"].tolist() == ["not expressible"]
    assert reason in result.rejects["reason"].iloc[0]


@pytest.mark.parametrize(
    "fields, category, reason",
    [
        (put_fields(highres_time=None), "malformed", "HighResTime"),
        (
            {k: v for k, v in put_fields().items() if k != "highres_time"},
            "incomplete",
            "HighResTime",
        ),
        ({k: v for k, v in put_fields().items() if k != "expiry"}, "incomplete", "Expiry"),
        (put_fields(msg_id="00" * 24), "malformed", "all zeros"),
        (put_fields(msg_id="ABCD"), "malformed", "not 24 bytes"),
        (put_fields(priority="loud"), "malformed", "Priority"),
        (put_fields(resolved_q="", resolved_local_q=""), "incomplete", "no ResolvedQName"),
        (put_fields(resolved_qmgr="QM2"), "incomplete", "transmission queue"),
        (get_fields(comp_code=2, reason_code=2080), "failed call", "2080"),
        ({**put_fields(), "operation": "MQXF_NEVER"}, "malformed", "OperationId"),
    ],
)
def test_operations_the_importer_cannot_map_are_rejected_never_dropped(
    fields: dict[str, Any], category: str, reason: str
) -> None:
    result = one(fields)
    assert result.rejects["category"].tolist() == [category]
    assert reason in result.rejects["reason"].iloc[0]
    assert result.rejects["source_line"].tolist() == [10]


def test_a_get_under_syncpoint_that_found_nothing_is_a_row() -> None:
    """It took nothing, so there is no unit of work to express, and its discards were never
    in one (rule EXP-21): it replays as a plain get that finds nothing."""
    nothing = get_fields(get_options=CMQC.MQGMO_SYNCPOINT, comp_code=2, reason_code=2033)
    result = one(nothing)
    assert result.trace["op"].tolist() == ["GET"] and result.rejects.empty
    on_zos = one(get_fields(get_options=0, comp_code=2, reason_code=2033),
                 defaults=QueueDefaults(profile="zos", expiry_interval_s=0))  # fmt: skip
    assert len(on_zos.trace) == 1


def test_a_remote_put_lands_on_its_transmission_queue() -> None:
    """MQPUT to a remote queue: ResolvedQName/QMgr name the destination, ResolvedLocalQName
    the transmission queue where the message is (rule XQH-01)."""
    fields = put_fields(resolved_q="APP.IN", resolved_qmgr="QM2", resolved_local_q="QM2",
                        resolved_local_qmgr="QM1")  # fmt: skip
    assert one(fields).trace["queue"].tolist() == ["QM2"]


def test_a_handles_mqopen_names_the_queue_when_the_put_does_not() -> None:
    opened = {"operation": "MQXF_OPEN", "hobj": 2, "comp_code": 0, "reason_code": 0,
              "object_name": "ALIAS.Q", "resolved_q": "Q1", "resolved_qmgr": "QM1"}  # fmt: skip
    bare = put_fields(resolved_q="", resolved_qmgr="")
    result = one(opened, bare)
    assert result.trace["queue"].tolist() == ["Q1"]
    assert result.rejects["operation"].tolist() == ["MQXF_OPEN"]


def test_on_zos_a_call_without_no_syncpoint_is_under_syncpoint() -> None:
    """The engine's rule: z/OS defaults to syncpoint, the other platforms do not."""
    fields = put_fields(put_options=0)
    assert len(one(fields).trace) == 1
    on_zos = one(fields, defaults=QueueDefaults(profile="zos", expiry_interval_s=0))
    assert on_zos.rejects["category"].tolist() == ["not expressible"]


def test_a_record_that_is_not_an_activity_trace_is_a_reject(tmp_path: Path) -> None:
    event = {"eventType": {"name": "Perfm Event", "value": 45}, "eventData": {"queueName": "Q"}}
    path = tmp_path / "events.json"
    path.write_text(json.dumps(event) + "\n" + (DATA / "orders.amqsevt.json").read_text())
    result = import_activity(path, "amqsevt-json", start=START)
    assert result.operations == 26
    first = result.rejects.iloc[0]
    assert (first["category"], first["source_line"]) == ("not a trace", 1)
    assert "Perfm Event" in first["reason"]


# -- values and names as the samples print them ----------------------------------------------------
@pytest.mark.parametrize(
    "value, family, expected",
    [
        (5, None, 5),
        ("-1", None, -1),
        ("0x00002044", None, 0x2044),
        ("0xFFFFFFFF", None, -1),
        ({"name": "No Msg Available", "value": 2033}, "reason_code", 2033),
        ({"options": ["Browse First"], "value": 16, "valueHex": "0x00000010"}, None, 16),
        ("MQXF_PUT1", "operation", 8),
        ("Put1", "operation", 8),
        ("Connx", "operation", 4),
        ("Priority As Queue Def", "priority", -1),
        ("Persistent", "persistence", 1),
        ("Expiration With Data", "report", CMQC.MQRO_EXPIRATION_WITH_DATA),
        ("MQRO_EXPIRATION", "report", CMQC.MQRO_EXPIRATION),
        ("Queue", "object_type", 1),
    ],
)
def test_integers_as_any_sample_prints_them(value: Any, family: str | None, expected: int) -> None:
    assert integer(value, family) == expected


@pytest.mark.parametrize("value", [None, True, "five", "Expiration", {"name": "x"}])
def test_what_is_not_an_integer_raises(value: Any) -> None:
    with pytest.raises(ValueError):
        integer(value, "priority")


@pytest.mark.parametrize(
    "spelling",
    ["Resolved_Q_Name", "resolvedQueueName", "resolvedQName", "MQCACF_RESOLVED_Q_NAME"],
)
def test_one_parameter_under_every_samples_name(spelling: str) -> None:
    assert canonical(spelling) == "resolved_q"


def test_names_we_do_not_use_are_ignored() -> None:
    assert canonical("Transmit Header Msg_id") is None
    assert canonical("QueueManager") == canonical("queueMgrName") == canonical("qMgrName") == "qmgr"


# -- bad input -------------------------------------------------------------------------------------
def test_malformed_json_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    good = (DATA / "orders.amqsevt.json").read_text().splitlines()
    good[40] = good[40].replace(" : ", " ")  # a key without its colon
    path.write_text("\n".join(good))
    with pytest.raises(ActivityFormatError, match=r"broken\.json:41:\d+: malformed JSON"):
        read_records(path, "amqsevt-json")


def test_amqsact_text_that_is_not_amqsact_output_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "odd.txt"
    lines = (DATA / "orders.amqsact.txt").read_text().splitlines()
    lines.insert(30, "  something odd without a colon")
    path.write_text("\n".join(lines))
    with pytest.raises(ActivityFormatError, match=r"odd\.txt:31: cannot read this line"):
        read_records(path, "amqsact")
    with pytest.raises(ActivityFormatError, match=r"orders\.amqsevt\.json:2: expected"):
        read_records(DATA / "orders.amqsevt.json", "amqsact")
    with pytest.raises(ActivityFormatError, match=r"amqsevt -o json output"):
        read_records(DATA / "orders.amqsact.txt", "amqsevt-json")


def test_unreadable_files_and_unknown_formats(tmp_path: Path) -> None:
    with pytest.raises(ActivityFormatError, match=r"cannot read .*nowhere"):
        read_records(tmp_path / "nowhere.json", "amqsevt-json")
    with pytest.raises(ValueError, match="unknown activity trace format 'xml'"):
        read_records(DATA / "orders.amqsact.txt", "xml")
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    with pytest.raises(ActivityFormatError, match="no JSON events"):
        read_records(empty, "amqsevt-json")


def test_the_import_columns_extend_schema_v1() -> None:
    trace = imported().trace
    assert list(trace.columns) == list(IMPORT_COLUMNS)
    assert {str(t) for t in trace.dtypes} <= {"int64", "int32", "Int32", "string"}
