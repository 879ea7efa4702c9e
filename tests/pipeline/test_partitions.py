"""Tooling, no behaviour rule: rows find their queue definition by (qmgr, queue) names.

``validate.partitions`` looks up the distinct names through a grid, or hashes the pairs when
there are too many names for a grid; both are held to a plain dictionary lookup, row by row,
on names with nulls, undefined pairs, a queue name defined on several queue managers and
dictionaries that hold a name twice (as Arrow dictionaries may).
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqlearn.pipeline import validate
from mqlearn.pipeline.arrays import codes
from mqlearn.pipeline.queues import queue_table
from mqlearn.pipeline.schema import QUEUE_COLUMNS
from mqlearn.pipeline.validate import TextColumn, partitions
from tests.pipeline.test_spark_replay import queue_frame

QMGRS = ("QMA", "QMB", "QMC")  # QMC has no definitions
QUEUES = ("Q1", "Q2", "Q3")
DEFINED = (("QMA", "Q1"), ("QMA", "Q2"), ("QMB", "Q1"), ("QMB", "Q3"))


def definitions() -> pd.DataFrame:
    frame = queue_frame(*(queue for _, queue in DEFINED))
    return frame.assign(qmgr=[qmgr for qmgr, _ in DEFINED]).astype(QUEUE_COLUMNS)


def column(values: list[str | None], dictionary: list[str]) -> TextColumn:
    """A name column encoded against ``dictionary`` (which may repeat a name): each value takes
    the last code of its name, so both copies of a repeated name are used."""
    last = {name: code for code, name in enumerate(dictionary)}
    indices = pa.array([None if v is None else last[v] for v in values], pa.int32())
    array = pa.DictionaryArray.from_arrays(indices, pa.array(dictionary, pa.string()))
    return TextColumn(codes(array), array.dictionary)


names = st.lists(
    st.tuples(st.sampled_from((*QMGRS, None)), st.sampled_from((*QUEUES, None))), max_size=40
)


@pytest.mark.parametrize("grid_cells", [validate.GRID_CELLS, 0], ids=["grid", "hashed"])
@given(pairs=names, doubled=st.booleans())
def test_partitions_match_a_lookup_row_by_row(pairs, doubled, grid_cells) -> None:
    table = queue_table(definitions())
    qmgr_dictionary = [*QMGRS, "QMA"] if doubled else list(QMGRS)
    queue_dictionary = [*QUEUES, "Q1"] if doubled else list(QUEUES)
    qmgr = column([m for m, _ in pairs], qmgr_dictionary)
    queue = column([q for _, q in pairs], queue_dictionary)
    expected = [
        DEFINED.index((m, q)) if (m, q) in DEFINED else -1 for m, q in pairs
    ]  # the definitions are in DEFINED's order
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(validate, "GRID_CELLS", grid_cells)
        assert partitions(qmgr, queue, table).tolist() == expected
