"""The compiled identifier check (mqlearn.pipeline.ids) against Python's own hex reading."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlearn.pipeline.ids import MALFORMED, NULL, UNASKED, hex_text, id_column

HEXISH = "0123456789abcdefABCDEF"
TEXTS = st.one_of(
    st.none(),
    st.text(HEXISH, min_size=48, max_size=48),
    st.just("0" * 48),
    st.text(HEXISH + "gG :\x00é", min_size=46, max_size=50),  # near misses
    st.text(HEXISH, min_size=47, max_size=47).flatmap(
        lambda t: st.integers(0, 47).map(lambda k: t[:k] + "x" + t[k:])
    ),
)


def expected(text: str | None) -> tuple[int, bytes | None]:
    """(NULL / MALFORMED / 0, the bytes) as Python reads 48 hex digits."""
    if text is None:
        return NULL, None
    if len(text) != 48 or any(c not in HEXISH for c in text):
        return MALFORMED, None
    return 0, bytes.fromhex(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=40), st.data())
def test_identifiers_are_checked_and_numbered_as_python_reads_them(texts, data) -> None:
    """Tooling (MsgId/CorrelId columns): a value is malformed exactly when Python's reading
    of 48 hex digits refuses it; MQMI_NONE is the all-zero one; asked-for values get one number
    per distinct 24 bytes (case ignored), other rows the number of an equal asked-for value or
    UNASKED; a well-formed value's text, written from its words, comes back in lower case."""
    query = np.array(data.draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts))))
    column = id_column(pa.array(texts, pa.string()), query)
    read = [expected(t) for t in texts]
    numbers: dict[bytes, int] = {}
    for (status, value), asked in zip(read, query, strict=True):
        if status == 0 and asked:
            numbers.setdefault(value, len(numbers))
    codes = [status if status < 0 else numbers.get(value, UNASKED) for status, value in read]
    assert column.codes.tolist() == codes
    assert column.asked == len(numbers)
    assert column.zero.tolist() == [value == bytes(24) for _, value in read]
    shown = hex_text(column.words, np.array([status != 0 for status, _ in read]))
    pairs = zip(texts, read, strict=True)
    assert shown.to_pylist() == [t.lower() if s == 0 else None for t, (s, _) in pairs]


WELL_FORMED = st.one_of(st.none(), st.text(HEXISH, min_size=48, max_size=48), st.just("0" * 48))


@settings(max_examples=200, deadline=None)
@given(st.lists(WELL_FORMED, min_size=0, max_size=30), st.data())
def test_identifiers_carried_as_words_come_back_as_their_text_and_numbers(texts, data) -> None:
    """Tooling (messages carried over a cut of a trace keep their identifiers as words): the
    text written from the words is the trace's, in lower case (null where there was none), and
    a lookup of the words gives the numbers the rows got (MQMI_NONE: none asked, -1)."""
    query = np.array(data.draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts))))
    column = id_column(pa.array(texts, pa.string()), query)
    null = np.array([t is None for t in texts], dtype=bool)
    assert hex_text(column.words, null).to_pylist() == [t and t.lower() for t in texts]
    reversed_at = np.arange(len(texts))[::-1].copy()
    shown = hex_text(column.words, null[::-1], reversed_at)  # the words picked by position
    assert shown.to_pylist() == [t and t.lower() for t in texts[::-1]]
    looked_up = column.codes_of(column.words, reversed_at, null[::-1], none=bool(column.asked))
    rows = column.codes[::-1]
    if column.asked:
        rows = np.where(column.zero[::-1], -1, rows)
    assert looked_up.tolist() == rows.tolist()
