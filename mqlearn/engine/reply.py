"""What an application sends back: replies (rule RPL-01) and its own expiration reports (RPT-08)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from mqlearn.engine.generated import send_expiration_report
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.structs import MD

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager


def reply_md(request: MD, expiry: Literal["copy", "unlimited"] | int = "copy") -> MD:
    """A descriptor for the reply to ``request`` (an MD as returned by a get).

    ``expiry``: ``"copy"`` the request's remaining Expiry, ``"unlimited"`` (MQEI_UNLIMITED), or an
    explicit number of tenths > 0: the three choices IBM leaves to the application (RPL-01).
    MsgId and CorrelId follow the request's report options (MQRO_PASS_MSG_ID, MQRO_PASS_CORREL_ID);
    MQRO_PASS_DISCARD_AND_EXPIRY makes the reply inherit the remaining expiry and the discard flag.
    """
    report = request.Report
    if expiry == "copy" or report & C.MQRO_PASS_DISCARD_AND_EXPIRY:
        value = request.Expiry
    elif expiry == "unlimited":
        value = C.MQEI_UNLIMITED
    elif isinstance(expiry, int) and not isinstance(expiry, bool) and expiry > 0:
        value = expiry
    else:
        raise ValueError(f"expiry must be 'copy', 'unlimited' or tenths > 0, got {expiry!r}")
    reply = MD(
        MsgType=C.MQMT_REPLY,
        Expiry=value,
        Priority=request.Priority,
        Persistence=request.Persistence,
        MsgId=request.MsgId if report & C.MQRO_PASS_MSG_ID else C.MQMI_NONE,
        CorrelId=request.CorrelId if report & C.MQRO_PASS_CORREL_ID else request.MsgId,
    )
    if report & C.MQRO_PASS_DISCARD_AND_EXPIRY and report & C.MQRO_DISCARD_MSG:
        reply.Report = C.MQRO_DISCARD_MSG
    return reply


def report_expired(qm: QueueManager, md: MD, data: bytes) -> str | None:
    """An application discarding a message it judged expired sends the report it asked for (RPT-08).

    ``md`` and ``data`` are the message as the application got it. The report is built as the
    queue manager builds its own (rule RPT-03), except that its context is the application's:
    IBM's report-field table recommends applications set similar values. Returns where the
    report went, or None when the message asked for no expiration report.
    """
    fields = md.get()

    def application_context(identity: dict[str, Any]) -> dict[str, Any]:
        return {**qm.application_context(), **identity}

    where = send_expiration_report(qm, fields, data, application_context)
    if where is not None:
        qm.log("", "report", None, "application", detail=where)
    return where
