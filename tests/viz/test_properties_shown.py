"""The views show a message's properties (name = value, type) when it has any, and nothing new
when it has none: the queue view's chips (their tooltip text), the event table, the workbench's
result line. Checked on the specs and the model, without a browser; the expected strings are
written out by hand."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz.log_tables import event_table_spec
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage
from mqlearn.viz.scene import chips_in_order
from tests.viz.helpers import APP_Q

SHOWN = ["colour = 'blue' (MQTYPE_STRING)", "amount = 250 (MQTYPE_INT32)"]


def queue_manager_with_two_messages() -> mq.QueueManager:
    """APP.IN holds "plain" (no properties), then "tagged" (colour and amount)."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal(APP_Q, msgdlvsq="FIFO")
    q = mq.Queue(qm, APP_Q)
    q.put(b"plain")
    handle = mq.MessageHandle(qm)
    handle.set("colour", "blue")
    handle.set("amount", 250, C.MQTYPE_INT32)
    q.put(b"tagged", mq.MD(), mq.PMO(Version=3, OriginalMsgHandle=handle.msg_handle))
    return qm


def test_a_chip_lists_its_messages_properties_and_only_then() -> None:
    qm = queue_manager_with_two_messages()
    stage = QueueStage(WorkbenchModel(qm, APP_Q))
    chips = chips_in_order(stage.scene())
    assert [c.get("properties") for c in chips] == [None, SHOWN]
    assert qm.properties_of(chips[1]["id"])[0] == mq.Property(
        "colour", C.MQTYPE_STRING, "blue", C.MQCOPY_DEFAULT
    )


def test_the_event_table_has_a_properties_column_when_a_message_has_some() -> None:
    qm = queue_manager_with_two_messages()
    spec = event_table_spec(qm)
    header = spec.traces[0]["header"]["values"]
    columns = spec.traces[0]["cells"]["values"]
    assert header[-1] == "properties"
    # newest first: the tagged message's put, then the plain one's
    assert columns[-1] == ["; ".join(SHOWN), ""]

    plain = mq.QueueManager("QM2")
    plain.define_qlocal(APP_Q)
    mq.Queue(plain, APP_Q).put(b"plain")
    assert "properties" not in event_table_spec(plain).traces[0]["header"]["values"]


def test_the_workbench_get_line_names_the_properties() -> None:
    qm = queue_manager_with_two_messages()
    model = WorkbenchModel(qm, APP_Q)
    first = model.get()
    assert "properties" not in first
    second = model.get()
    assert second.endswith("; properties " + ", ".join(SHOWN))
    # no handle in the workbench's get: under PROPCTL(COMPAT) a usr property comes as an MQRFH2
    assert "data b'RFH " in second
    assert C.MQFMT_RF_HEADER_2 == "MQHRF2  "
