"""Replying to a request (rule RPL-01): which Expiry, MsgId and CorrelId the reply carries."""

from __future__ import annotations

from typing import Literal

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.structs import MD


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
