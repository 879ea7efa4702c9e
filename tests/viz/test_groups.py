"""Message groups and segmented messages in the queue view: one unit each (issue 24).

The expectations are worked out by hand from IBM's MQMD page (seed 003: GroupId "identifies the
message group or logical message", MsgSeqNumber counts logical messages from 1, the last one carries
MQMF_LAST_MSG_IN_GROUP, a segment MQMF_SEGMENT) and the walk rules (EXP-22, EXP-23); the property
test compares the scene with what the test itself put, never with the code under test.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz import Workbench
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage
from mqlearn.viz.scene import queue_scene
from tests.viz.helpers import APP_Q, new_model

G1 = b"G1".ljust(24, b"\0")
G2 = b"G2".ljust(24, b"\0")
TAG1 = G1.hex()[:12] + "…"  # how the views name a GroupId that is no queue manager's MsgId
IN = C.MQMF_MSG_IN_GROUP
LAST = C.MQMF_LAST_MSG_IN_GROUP


def items(scene: dict[str, Any]) -> list[dict[str, Any]]:
    """What the lanes draw, top lane first: chips and units (``chips`` when no unit is sent)."""
    return [item for lane in scene["lanes"] for item in lane.get("items", lane["chips"])]


def drawn(item: dict[str, Any], unit: str | None = None) -> list[tuple[str, str | None]]:
    """(label, the key of the outermost unit it is drawn in) of every chip under ``item``."""
    if "members" not in item:
        return [(item["label"], unit)]
    return [pair for m in item["members"] for pair in drawn(m, unit or item["key"])]


def shape(scene: dict[str, Any]) -> list[Any]:
    """Each lane item as a label, or as (unit title, [its members' shapes])."""

    def one(item: dict[str, Any]) -> Any:
        if "members" in item:
            return (item["title"], [one(m) for m in item["members"]])
        return item["label"]

    return [one(item) for item in items(scene)]


def put_group(model: WorkbenchModel, *members: tuple[int, int, int], group: bytes = G1) -> None:
    """Members as (MsgSeqNumber, Expiry, Priority), labelled by the next letters; the one with
    the highest MsgSeqNumber given is the last in the group."""
    last = max(seq for seq, _, _ in members)
    for seq, expiry, priority in members:
        model.put(
            b"m%d" % seq, expiry=expiry, priority=priority, label="auto", group_id=group,
            msg_seq_number=seq, msg_flags=LAST if seq == last else IN,
        )  # fmt: skip


def scene(model: WorkbenchModel, at_ms: int | None = None) -> dict[str, Any]:
    return queue_scene(model.qm, model.queue, model.labels, at_ms=at_ms)


def test_a_group_is_one_unit_where_its_first_member_stands_members_in_sequence_order() -> None:
    """Put out of order (3, 1, 2) between two plain messages: the unit stands where member 3
    (first in delivery order) stands and holds 1, 2, 3; the plain messages are chips as before."""
    model = new_model("FIFO")
    model.put(b"x", label="auto")  # A
    model.put(b"y", label="auto", group_id=G1, msg_seq_number=3, msg_flags=LAST)  # B
    model.put(b"z", label="auto")  # C
    model.put(b"w", label="auto", group_id=G1, msg_seq_number=1, msg_flags=IN)  # D
    model.put(b"v", label="auto", group_id=G1, msg_seq_number=2, msg_flags=IN)  # E
    s = scene(model)
    assert shape(s) == ["A", (f"group {TAG1} · 3 of 3 present · last seq 3", ["D", "E", "B"]), "C"]
    # the walk's order is still delivery order
    assert [c["label"] for c in s["lanes"][0]["chips"]] == ["A", "B", "C", "D", "E"]
    (unit,) = [i for i in items(s) if "members" in i]
    assert (unit["kind"], unit["key"], unit["present"], unit["last_seq"]) == (
        "group",
        G1.hex(),
        3,
        3,
    )
    b = unit["members"][2]
    assert b["detail"] == (
        f"GroupId {TAG1}, MsgSeqNumber 3, Offset 0, "
        "MsgFlags MQMF_MSG_IN_GROUP + MQMF_LAST_MSG_IN_GROUP"  # MD-08: LAST turns IN on
    )
    assert (b["group"], b["msg_seq_number"], b["offset"], b["msg_flags"]) == (G1.hex(), 3, 0, 24)


def test_ungrouped_messages_are_drawn_exactly_as_before() -> None:
    model = new_model("PRIORITY")
    model.put(b"x", expiry=10, priority=4, label="auto")
    model.put(b"y", priority=1, label="auto")
    s = scene(model)
    assert all("items" not in lane for lane in s["lanes"])
    for c in items(s):
        assert set(c) == {"id", "label", "lane", "priority", "expiry", "deadline_ms", "state"}


def test_members_expire_one_by_one_and_the_label_counts_what_is_left() -> None:
    """EXP-22 on a FIFO queue: members 1 (1 s), 2 (60 s) and 3 (2 s, the last). At 2 s a get
    discards 1, returns 2 and stops: 3 stays, expired, in its group's unit; the label still
    knows the group had 3 (the last member is there). A scan then discards 3: no unit left."""
    model = new_model("FIFO")
    put_group(model, (1, 10, 0), (2, 600, 0), (3, 20, 0))
    stage = QueueStage(model)
    model.advance(2_000)
    stage.before()
    stage.after(model.get(), "get")
    s = stage.view.state["scene"]
    assert shape(s) == [(f"group {TAG1} · 1 of 3 present · last seq 3", ["C"])]
    (c,) = items(s)[0]["members"]
    assert (c["state"], c["expiry"]) == ("expired", 0)  # its own expiry, visible in the unit
    result = model.last_result
    assert "B (MsgId QM1#2)" in result and "discarded 1 expired on the way: A" in result
    assert f"GroupId {TAG1}, MsgSeqNumber 2, Offset 0, MsgFlags MQMF_MSG_IN_GROUP" in result
    assert [t["label"] for t in s["tray"]] == ["A"]
    assert s["tray"][0]["detail"].startswith(f"GroupId {TAG1}, MsgSeqNumber 1,")
    stage.before()
    stage.after(model.advance(300_000), "advance")
    assert shape(stage.view.state["scene"]) == []


def test_the_label_remembers_the_last_member_after_it_has_gone() -> None:
    """PRIORITY: the last member (3) has priority 9 and expires first; a get discards it
    (EXP-23) and returns member 1. The group had 3 logical messages: 1 of 3 present."""
    model = new_model("PRIORITY")
    put_group(model, (1, 600, 5), (2, 600, 0), (3, 10, 9))
    QueueStage(model)  # a view sees the group while all three are there
    model.advance(1_000)
    model.get()
    assert shape(scene(model)) == [(f"group {TAG1} · 1 of 3 present · last seq 3", ["B"])]
    fresh = new_model("PRIORITY")  # never shown the last member: the label does not guess
    fresh.put(b"a", label="auto", group_id=G1, msg_seq_number=1, msg_flags=IN)
    fresh.put(b"b", label="auto", group_id=G1, msg_seq_number=2, msg_flags=IN)
    assert shape(scene(fresh)) == [(f"group {TAG1} · 2 present · last not seen", ["A", "B"])]


def test_a_group_across_priorities_is_drawn_once_in_the_lane_a_get_reaches_first() -> None:
    model = new_model("PRIORITY")
    put_group(model, (1, 600, 2), (2, 600, 7))
    model.put(b"p", priority=5, label="auto")  # C between the two
    s = scene(model)
    lanes = {lane["lane"]: lane for lane in s["lanes"]}
    assert [drawn(i) for i in lanes[7]["items"]] == [[("A", G1.hex()), ("B", G1.hex())]]
    assert lanes[2]["items"] == [] and [c["label"] for c in lanes[2]["chips"]] == ["A"]
    assert [c["lane"] for c in items(s)[0]["members"]] == [2, 7]  # each keeps its own lane


def test_segments_of_a_logical_message_and_a_segmented_message_inside_a_group() -> None:
    """A logical message of three segments (Offsets 0, 10, 20; the last with
    MQMF_LAST_SEGMENT), put last segment first; then a group whose message 2 is segmented."""
    model = new_model("FIFO")
    seg, last_seg = C.MQMF_SEGMENT, C.MQMF_LAST_SEGMENT
    for offset, flags in ((20, last_seg), (0, seg), (10, seg)):
        model.put(b"s%d" % offset, label="auto", group_id=G2, offset=offset, msg_flags=flags)
    model.put(b"g1", label="auto", group_id=G1, msg_seq_number=1, msg_flags=IN)  # D
    model.put(b"g2b", label="auto", group_id=G1, msg_seq_number=2, offset=5, msg_flags=LAST | seg)
    model.put(b"g2a", label="auto", group_id=G1, msg_seq_number=2, msg_flags=LAST | seg)  # F
    tag2 = G2.hex()[:12] + "…"
    assert shape(scene(model)) == [
        (f"message {tag2} · 3 segments present · last segment at offset 20", ["B", "C", "A"]),
        (
            f"group {TAG1} · 2 of 2 present · last seq 2",
            ["D", ("seq 2 · 2 segments present · last segment not seen", ["F", "E"])],
        ),
    ]
    e = next(c for c in scene(model)["lanes"][0]["chips"] if c["label"] == "E")
    assert e["detail"] == (
        f"GroupId {TAG1}, MsgSeqNumber 2, Offset 5, "
        "MsgFlags MQMF_SEGMENT + MQMF_MSG_IN_GROUP + MQMF_LAST_MSG_IN_GROUP"
    )


def test_a_replay_draws_the_group_as_it_was() -> None:
    model = new_model("FIFO")
    put_group(model, (1, 10, 0), (2, 600, 0))
    QueueStage(model)
    model.advance(1_000)
    model.get()  # discards A, returns B
    assert shape(scene(model)) == []
    assert shape(scene(model, at_ms=500)) == [
        (f"group {TAG1} · 2 of 2 present · last seq 2", ["A", "B"])
    ]


def test_ibmi_names_the_fields_and_flags_by_their_short_names() -> None:
    model = new_model("FIFO", profile="ibmi")
    line = model.put(b"a", label="auto", group_id=G1, msg_seq_number=1, msg_flags=LAST)
    assert f"MDGID {TAG1}, MDSEQ 1, MDOFF 0, MDMFL MFLMIG" in line  # the putter's MD (MD-08)
    assert f"MDGID {TAG1}, MDSEQ 1, MDOFF 0, MDMFL MFMIG + MFLMIG" in model.get()


# -- the property: every present message is shown exactly once, in its unit iff it has one --------
GROUP_IDS = st.sampled_from([C.MQGI_NONE, G1, G2])
FLAGS = st.sampled_from(
    [
        0,
        IN,
        LAST,
        C.MQMF_SEGMENT,
        C.MQMF_LAST_SEGMENT,
        IN | C.MQMF_SEGMENT,
        C.MQMF_SEGMENTATION_ALLOWED,
    ]
)
PUTS = st.tuples(
    GROUP_IDS, st.integers(1, 3), st.sampled_from([0, 10]), FLAGS,
    st.sampled_from([10, 30, 600, -1]), st.integers(0, 9),
)  # fmt: skip
ASKS_FOR_A_GROUP_ID = IN | LAST | C.MQMF_SEGMENT | C.MQMF_LAST_SEGMENT | C.MQMF_SEGMENTATION_ALLOWED
STEPS = st.one_of(PUTS, st.just("get"), st.just("browse"), st.sampled_from([1_000, 300_000]))


@settings(max_examples=80, deadline=None)
@given(st.lists(STEPS, min_size=1, max_size=30), st.sampled_from(["FIFO", "PRIORITY"]))
def test_every_present_message_is_shown_once_inside_its_unit_iff_grouped_or_a_segment(
    steps: list[Any], msgdlvsq: str
) -> None:
    model = new_model(msgdlvsq)
    stage = QueueStage(model)
    put: dict[str, tuple[bytes, int]] = {}  # label -> (GroupId, MsgFlags) as this test put them
    for n, step in enumerate(steps):
        stage.before()
        if isinstance(step, tuple):
            group_id, seq, offset, flags, expiry, priority = step
            label = f"M{n}"
            model.put(
                b"d", expiry=expiry, priority=priority, label=label, group_id=group_id,
                msg_seq_number=seq, offset=offset, msg_flags=flags,
            )  # fmt: skip
            put[label] = (group_id, flags)
            line = label
        elif step in ("get", "browse"):
            line = model.get(browse="next" if step == "browse" else None)
        else:
            line = model.advance(step)
        stage.after(line, "call")
        s = stage.view.state["scene"]
        present = [model.labels.of(m.seq) for m in model.qm.local(APP_Q).store.views()]
        shown = [pair for item in items(s) for pair in drawn(item)]
        assert sorted(label for label, _ in shown) == sorted(present)  # each exactly once
        for label, unit in shown:
            group_id, flags = put[label]
            segment = bool(flags & (C.MQMF_SEGMENT | C.MQMF_LAST_SEGMENT))
            # MQGI_NONE with any of these flags: the queue manager makes a GroupId (rule MD-10)
            made = group_id == C.MQGI_NONE and bool(flags & ASKS_FOR_A_GROUP_ID)
            assert (unit is not None) == (group_id != C.MQGI_NONE or made or segment), label
            if group_id != C.MQGI_NONE:
                assert unit == group_id.hex()
            elif made:
                assert unit != C.MQGI_NONE.hex()
        # the walk's order is untouched: the lanes' chips are the same messages
        assert sorted(c["label"] for lane in s["lanes"] for c in lane["chips"]) == sorted(present)


def test_workbench_callbacks_paint_the_group_and_update_it_as_members_go() -> None:
    """The widget, no browser: a program's group on the queue (MsgSeqNumber 1, 2, 3 with
    Expiry 1 s, 60 s, 2 s); the clock buttons and MQGET send scenes whose unit loses its
    members one by one while the others keep their own expiry."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal(APP_Q, msgdlvsq="FIFO")
    q = mq.Queue(qm, APP_Q)
    for seq, expiry in ((1, 10), (2, 600), (3, 20)):
        md = mq.MD(
            Version=2, GroupId=G1, MsgSeqNumber=seq, Expiry=expiry,
            MsgFlags=LAST if seq == 3 else IN,
        )  # fmt: skip
        q.put(b"g%d" % seq, md)
    wb = Workbench(qm, APP_Q)
    first = items(wb.queue_view.state["scene"])
    assert shape(wb.queue_view.state["scene"]) == [
        (f"group {TAG1} · 3 of 3 present · last seq 3", ["g1", "g2", "g3"])
    ]
    assert [c["expiry"] for c in first[0]["members"]] == [10, 600, 20]
    wb.advance_buttons[1].click()  # +1 s: g1 has expired, still in the unit
    members = items(wb.queue_view.state["scene"])[0]["members"]
    assert [(c["label"], c["state"]) for c in members] == [
        ("g1", "expired"),
        ("g2", "live"),
        ("g3", "live"),
    ]
    wb.get_button.click()
    transition = wb.queue_view.state["transition"]
    assert [(s["op"], s.get("label")) for s in transition["steps"]] == [
        ("visit", "g1"),
        ("discard", "g1"),
        ("visit", "g2"),
        ("return", "g2"),
        ("stop", None),
    ]
    assert shape(wb.queue_view.state["scene"]) == [
        (f"group {TAG1} · 1 of 3 present · last seq 3", ["g3"])
    ]
    assert transition["got"]["detail"].startswith(f"GroupId {TAG1}, MsgSeqNumber 2,")
    assert "MsgSeqNumber 2, Offset 0, MsgFlags MQMF_MSG_IN_GROUP" in wb.model.last_result
    assert wb.failures == []


def test_the_workbench_put_fields_make_a_group_a_learner_can_watch() -> None:
    """More MQI options' group fields: GroupId ORDER-7 (its bytes, padded with nulls), members 1
    and 2 (the last); then a plain put with the GroupId cleared. Undo takes the last member back
    and the label forgets nothing it should know: 1 present, last not seen."""
    wb = Workbench()
    wb.group_id.value = "ORDER-7"
    for seq, flags in ((1, IN), (2, LAST)):
        wb.msg_seq_number.value, wb.msg_flags.value = seq, flags
        wb.put_button.click()
    assert "MsgSeqNumber 2, Offset 0, MsgFlags MQMF_LAST_MSG_IN_GROUP" in wb.model.last_result
    wb.group_id.value, wb.msg_seq_number.value, wb.msg_flags.value = "", 1, C.MQMF_NONE
    wb.put_button.click()
    tag = b"ORDER-7".ljust(24, b"\0").hex()[:12] + "…"
    assert shape(wb.queue_view.state["scene"]) == [
        (f"group {tag} · 2 of 2 present · last seq 2", ["A", "B"]),
        "C",
    ]
    assert "GroupId" not in wb.model.last_result  # a plain message, as before
    wb.undo_button.click()
    wb.undo_button.click()
    assert shape(wb.queue_view.state["scene"]) == [
        (f"group {tag} · 1 present · last not seen", ["A"])
    ]
    wb.group_id.value = "x" * 25  # more than a GroupId holds: refused, nothing put
    wb.put_button.click()
    assert wb.failures and "at most 24 bytes, got 25" in wb.failures[-1]
    assert wb.model.qm.curdepth(APP_Q) == 1
    assert [o[0] for o in wb.msg_flags.options][-1] == (
        "MQMF_LAST_SEGMENT + MQMF_LAST_MSG_IN_GROUP"
    )


def test_a_value_spelled_like_a_field_name_is_no_group() -> None:
    """A ReplyToQ named "GroupId" is a value, not the field: the message stays a plain chip."""
    model = new_model("FIFO")
    model.qm.define_qlocal("GroupId")
    model.put(b"x", label="auto", reply_to_q="GroupId", report=C.MQRO_EXPIRATION)
    (c,) = items(scene(model))
    assert "detail" not in c and "group" not in c
