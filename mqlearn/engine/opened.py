"""What every open handle (``mq.Queue``, ``mq.Topic``) keeps: its open options, whether it is
closed, and the completion and reason codes of its last call (rule MQI-01)."""

from __future__ import annotations

from collections.abc import Callable

from mqlearn.engine import open_options
from mqlearn.engine.mqi_checks import fail
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import MD, PMO


class Opened:
    """An object opened by MQOPEN with ``open_opts`` (checked; rule MQI-02)."""

    def __init__(self, what: str, open_opts: int | None, *, remote: bool) -> None:
        self.what = what  # how errors name it: "queue APP.IN", "topic 'a/b'"
        self.open_opts = open_options.checked(open_opts, what=what, remote=remote)
        self.last_comp = C.MQCC_OK
        self.last_reason = C.MQRC_NONE
        self.closed = False

    def _output(
        self,
        put: Callable[[str, object, MD | None, PMO | None], int],
        name: str,
        msg: object,
        md: MD | None,
        pmo: PMO | None,
    ) -> None:
        """An MQPUT on this handle: ``put(name, msg, md, pmo)`` does it and returns its warning
        reason (0 if none); the codes are set whatever happens (rule MQI-01)."""
        try:
            if self.closed:
                raise fail(C.MQRC_HOBJ_ERROR, f"handle for {self.what} is closed")
            open_options.check_put(self.open_opts, self.what)
            warning = put(name, msg, md, pmo)
        except MQMIError as error:  # a failing call sets the codes too
            self.last_comp, self.last_reason = error.comp, error.reason
            raise
        self.last_comp = C.MQCC_WARNING if warning else C.MQCC_OK
        self.last_reason = warning

    def close(self) -> None:
        """MQCLOSE."""
        self.last_comp, self.last_reason = C.MQCC_OK, C.MQRC_NONE
        self.closed = True
