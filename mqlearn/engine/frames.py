"""The course's tables: a local queue's messages (``queue_frame``) and the event log
(``events_frame``), as pandas DataFrames where pandas is installed and as a :class:`Table` of
this module where it is not (the JupyterLite course, where pandas has no build: docs/teaching.md).

A :class:`Table` is the small part of a DataFrame the course uses: a column by name (``t["expired"]``
or ``t.expired``), some columns (``t[["put_ms", "expiry"]]``), the rows a boolean column selects
(``t[t["kind"] == "discard"]``), a row or a value by position (``.iloc[0]``), ``len``, ``sum``, and
``to_string()`` in pandas' own layout, so a lesson prints the same text with or without pandas.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from mqlearn.engine.message import STATE_NAMES
from mqlearn.engine.rule_formulas import NEVER, is_expired, remaining_tenths
from mqlearn.mqi import cmqc as C

if TYPE_CHECKING:
    import pandas as pd

    from mqlearn.engine.events import Event
    from mqlearn.engine.objects import QLocal
    from mqlearn.engine.qmgr import QueueManager

COLUMNS = (
    "position",
    "msg_id",
    "correl_id",
    "priority",
    "lane",
    "put_ms",
    "deadline_ms",
    "expiry",
    "expired",
    "state",
    "backout_count",
    "length",
    "format",
    "report",
    "reply_to_q",
    "reply_to_qmgr",
)
# Columns of whole numbers that may be missing: pandas' nullable "Int64" (shown as <NA>).
QUEUE_NULLABLE = ("deadline_ms",)
EVENT_NULLABLE = ("msg_seq", "priority", "expiry", "deadline")


def queue_rows(qm: QueueManager, local: QLocal) -> list[dict[str, Any]]:
    """One dict per message on the queue (all states), in delivery order; pandas-free."""
    now = qm.sim.now
    rows = []
    for position, m in enumerate(local.store.messages()):
        state = STATE_NAMES[m.state]
        if m.locker is not None and m.state == 0:
            state = "locked"
        rows.append(
            {
                "position": position,
                "msg_id": m.msgid.hex(),
                "correl_id": m.correlid.hex(),
                "priority": m.priority,
                "lane": m.lane,
                "put_ms": m.put_ms,
                "deadline_ms": None if m.deadline == NEVER else m.deadline,
                "expiry": remaining_tenths(m.deadline, now),
                "expired": is_expired(m.deadline, now),
                "state": state,
                "backout_count": m.backouts,
                "length": len(m.data),
                "format": m.field("Format", C.MQFMT_NONE),
                "report": m.field("Report", C.MQRO_NONE),
                "reply_to_q": m.field("ReplyToQ", ""),
                "reply_to_qmgr": m.field("ReplyToQMgr", ""),
            }
        )
    return rows


def event_rows(events: Sequence[Event]) -> list[dict[str, Any]]:
    """One dict per event of the log, MsgIds as hex text; pandas-free."""
    rows: list[dict[str, Any]] = [e._asdict() for e in events]
    for row in rows:
        if row["msg_id"] is not None:
            row["msg_id"] = row["msg_id"].hex()
    return rows


def queue_frame(qm: QueueManager, local: QLocal) -> pd.DataFrame | Table:
    """The messages of a local queue in delivery order (pandas when installed)."""
    return frame(queue_rows(qm, local), COLUMNS, QUEUE_NULLABLE)


def events_frame(events: Sequence[Event]) -> pd.DataFrame | Table:
    """The event log (pandas when installed)."""
    from mqlearn.engine.events import COLUMNS as EVENT_COLUMNS

    return frame(event_rows(events), EVENT_COLUMNS, EVENT_NULLABLE)


def frame(
    rows: list[dict[str, Any]], columns: Sequence[str], nullable: Sequence[str] = ()
) -> pd.DataFrame | Table:
    """``rows`` as a pandas DataFrame if pandas can be imported, else as a :class:`Table`;
    ``nullable`` columns hold whole numbers or None."""
    try:
        import pandas as pd
    except ImportError:
        return Table({c: [row[c] for row in rows] for c in columns}, nullable=nullable)
    return pd.DataFrame(rows, columns=list(columns)).astype(dict.fromkeys(nullable, "Int64"))


class Column:
    """One column of a :class:`Table` (a pandas Series' basics: iteration, ``iloc``, ``==``,
    ``~``, ``sum``)."""

    def __init__(self, name: str, values: list[Any], index: list[int]) -> None:
        self.name = name
        self.values = values
        self.index = index

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    @property
    def iloc(self) -> _Positions:
        """The value at a position: ``column.iloc[0]``."""
        return _Positions(self.values.__getitem__)

    def tolist(self) -> list[Any]:
        return list(self.values)

    # A missing value (None) stays missing through ==, != and ~, counts as nothing in a sum, and
    # a missing value in a selection does not select its row: pandas' rules for its <NA>.
    def sum(self) -> Any:
        return sum(v for v in self.values if v is not None)

    def __eq__(self, other: object) -> Column:  # type: ignore[override]
        return self._map(lambda v: v == other)

    def __ne__(self, other: object) -> Column:  # type: ignore[override]
        return self._map(lambda v: v != other)

    def __invert__(self) -> Column:
        return self._map(lambda v: not v)

    def _map(self, function: Callable[[Any], bool]) -> Column:
        return Column(
            self.name, [None if v is None else function(v) for v in self.values], self.index
        )

    __hash__ = None  # type: ignore[assignment]  # == compares element by element

    def __repr__(self) -> str:
        return "\n".join(f"{i}    {v}" for i, v in zip(self.index, self.values, strict=True))


class Row:
    """One row of a :class:`Table`: values by column name, as ``row["expiry"]`` or ``row.expiry``."""

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no column {name!r}; columns: {list(self._values)}") from None

    def __repr__(self) -> str:
        width = max((len(name) for name in self._values), default=0)
        return "\n".join(f"{name:<{width}}    {value}" for name, value in self._values.items())


class _Positions:
    """What ``.iloc`` returns: ``[i]`` gives the item at position ``i``."""

    def __init__(self, at: Any) -> None:
        self._at = at

    def __getitem__(self, position: int) -> Any:
        return self._at(position)


class Table:
    """A read-only table, column by column, for where pandas is not installed (module docstring).

    Rows keep their index (their position in the whole table) when some are selected, as pandas
    does, and ``to_string`` lays the table out exactly as ``DataFrame.to_string`` does."""

    def __init__(
        self,
        data: dict[str, list[Any]],
        index: list[int] | None = None,
        nullable: Sequence[str] = (),
    ) -> None:
        lengths = {len(values) for values in data.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        self._data = data
        self._index = index if index is not None else list(range(lengths.pop() if lengths else 0))
        self._nullable = tuple(c for c in nullable if c in data)

    @property
    def columns(self) -> list[str]:
        return list(self._data)

    @property
    def index(self) -> list[int]:
        return list(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)  # as a DataFrame: its column names

    def __getitem__(self, key: str | list[str] | Column) -> Any:
        if isinstance(key, str):
            return Column(key, self._values(key), self._index)
        if isinstance(key, Column):
            chosen = [i for i, keep in enumerate(key.values) if keep]
            if len(key) != len(self):
                raise ValueError(f"a selection of {len(key)} rows for a table of {len(self)}")
            return Table(
                {c: [v[i] for i in chosen] for c, v in self._data.items()},
                [self._index[i] for i in chosen],
                self._nullable,
            )
        return Table({c: self._values(c) for c in key}, self._index, self._nullable)

    def __getattr__(self, name: str) -> Column:
        if name.startswith("_") or name not in self._data:
            raise AttributeError(f"'Table' has no attribute or column {name!r}")
        return self[name]  # type: ignore[no-any-return]

    def _values(self, name: str) -> list[Any]:
        try:
            return self._data[name]
        except KeyError:
            raise KeyError(f"no column {name!r}; columns: {self.columns}") from None

    @property
    def iloc(self) -> _Positions:
        """The row at a position: ``table.iloc[0]``."""
        return _Positions(lambda i: Row({c: v[i] for c, v in self._data.items()}))

    def rows(self) -> list[dict[str, Any]]:
        """The rows as dicts, column name to value."""
        return [{c: v[i] for c, v in self._data.items()} for i in range(len(self))]

    def _cell(self, column: str, value: Any) -> str:
        """A value as pandas writes it in a table: after a space (or a minus sign)."""
        if value is None:
            return " <NA>" if column in self._nullable else " NaN"
        if isinstance(value, bool) or not isinstance(value, int) or column in self._nullable:
            text = str(value)
            return " " + text.replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")
        return f"{value: d}"

    def to_string(self) -> str:
        """The table as text, laid out as pandas' ``DataFrame.to_string()`` lays it out."""
        if not self._index:
            return f"Empty DataFrame\nColumns: [{', '.join(self.columns)}]\nIndex: []"
        labels = [str(i) for i in self._index]
        width = max(len(label) for label in labels)
        lines = [[" " * width], *([label.ljust(width)] for label in labels)]
        for name, values in self._data.items():
            cells = [self._cell(name, v) for v in values]
            numeric = all(isinstance(v, int) or v is None for v in values) and (
                name in self._nullable or None not in values
            )
            header = " " + name if numeric else name  # pandas' header of a number column
            size = max(len(header), *(len(c) for c in cells))
            for line, text in zip(lines, [header, *cells], strict=True):
                line.append(text.rjust(size))
        return "\n".join(" ".join(line) for line in lines)

    def __repr__(self) -> str:
        return self.to_string()

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        body = "".join(
            f"<tr><th>{i}</th>"
            + "".join(
                f"<td>{html.escape(self._cell(c, self._data[c][r]).strip())}</td>"
                for c in self._data
            )
            + "</tr>"
            for r, i in enumerate(self._index)
        )
        return (
            f'<table class="dataframe mq-table"><thead><tr><th></th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>"
        )
