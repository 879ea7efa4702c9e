"""frames.Table, the course's tables where pandas is not installed (the JupyterLite course): it
prints what pandas prints, and selects rows, columns and values as a DataFrame does. Differential
against pandas itself."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn.engine import frames
from mqlearn.engine.frames import COLUMNS, QUEUE_NULLABLE, Table, queue_rows

TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x17F), max_size=12)
KINDS = {
    "int": st.integers(-(10**12), 10**12),
    "nullable": st.none() | st.integers(-(10**6), 10**9),
    "bool": st.booleans(),
    "text": TEXT | st.sampled_from(["MQSTR   ", "", "a\tb", "x\ny"]),
}


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[dict[str, object]], list[str], list[str]]:
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=5))
    names = [f"{kind}_{i}" if draw(st.booleans()) else f"c{i}" for i, kind in enumerate(kinds)]
    n = draw(st.integers(0, 12))
    rows = [
        {name: draw(KINDS[kind]) for name, kind in zip(names, kinds, strict=True)} for _ in range(n)
    ]
    nullable = [name for name, kind in zip(names, kinds, strict=True) if kind == "nullable"]
    return rows, names, nullable


def both(
    rows: list[dict[str, object]], names: list[str], nullable: list[str]
) -> tuple[pd.DataFrame, Table]:
    frame = pd.DataFrame(rows, columns=names).astype(dict.fromkeys(nullable, "Int64"))
    table = Table({c: [r[c] for r in rows] for c in names}, nullable=nullable)
    return frame, table


@given(tables())
def test_to_string_is_pandas_to_string(
    drawn: tuple[list[dict[str, object]], list[str], list[str]],
) -> None:
    frame, table = both(*drawn)
    assert table.to_string() == frame.to_string()


@given(tables(), st.data())
def test_selections_are_those_of_pandas(drawn, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    frame, table = both(*drawn)
    names = drawn[1]
    some = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    assert table[some].to_string() == frame[some].to_string()
    column = data.draw(st.sampled_from(names))
    assert len(table) == len(frame) and table.columns == list(frame.columns)
    if len(frame):
        first = frame[column].iloc[0]
        assert table[column].iloc[0] == (None if first is pd.NA else first)
        value = table[column].iloc[0]
        mask_t, mask_f = table[column] == value, frame[column] == value
        if value is not None:
            assert table[mask_t].to_string() == frame[mask_f].to_string()
            assert table[~mask_t].to_string() == frame[~mask_f].to_string()
            assert mask_t.sum() == mask_f.sum()


def test_queue_frame_is_pandas_where_pandas_is_and_a_table_prints_the_same() -> None:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    q.put(b"one minute", mq.MD(Expiry=600))
    q.put(b"forever", mq.MD(Priority=7))
    qm.sim.advance(seconds=61)
    frame = qm.queue_frame("APP.IN")
    assert isinstance(frame, pd.DataFrame)
    rows = queue_rows(qm, qm.local("APP.IN"))
    table = Table({c: [r[c] for r in rows] for c in COLUMNS}, nullable=QUEUE_NULLABLE)
    assert table.to_string() == frame.to_string()
    # delivery order: the priority 7 message first
    assert list(table["expired"]) == [False, True] and int((~table["expired"]).sum()) == 1
    row = table.iloc[0]
    assert row.priority == row["priority"] == 7 and row.deadline_ms is None
    assert "<td>&lt;NA&gt;</td>" in table._repr_html_()


def test_without_pandas_the_frames_are_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)  # import pandas fails
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    mq.Queue(qm, "APP.IN").put(b"x", mq.MD(Expiry=10))
    assert isinstance(qm.queue_frame("APP.IN"), Table)
    events = qm.events_frame()
    assert isinstance(events, Table) and list(events["kind"]) == ["put"]
    assert events[events["kind"] == "discard"].to_string().startswith("Empty DataFrame")
    assert frames.frame([], ["a"]).to_string() == "Empty DataFrame\nColumns: [a]\nIndex: []"


def test_a_table_names_a_missing_column() -> None:
    table = Table({"a": [1]})
    with pytest.raises(KeyError, match="no column 'b'; columns: \\['a'\\]"):
        table["b"]
    with pytest.raises(AttributeError, match="no attribute or column 'b'"):
        _ = table.b
    with pytest.raises(ValueError, match="columns of different lengths"):
        Table({"a": [1], "b": [1, 2]})
