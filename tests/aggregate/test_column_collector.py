""":class:`mrkit.aggregate.columns.ColumnCollector` (chunks of typed columns, per-pair values
computed in the chunk) gives the corpus result :class:`mrkit.aggregate.corpus.Collector`
gives for the same rows, to the bit, whatever the chunking: the summary (micro through the
column sums, macro through the per-pair F1), the per-pair statistics, the certification
and numpy's own reduction of the table."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.aggregate import corpus as corpus_mod
from mrkit.aggregate.columns import ColumnCollector, ColumnTable, chunk_values
from mrkit.aggregate.corpus import Collector
from mrkit.aggregate.resampling import prf_reduce

count = st.integers(0, 80)
rows_st = st.lists(st.tuples(count, count, count), min_size=1, max_size=400)


def _chunks(rows, cuts):
    """``rows`` split at the (sorted, deduplicated) positions ``cuts``."""
    at = sorted({c % (len(rows) + 1) for c in cuts} | {0, len(rows)})
    return [rows[a:b] for a, b in zip(at, at[1:]) if b > a]


def _columns(rows, code):
    return [array(code, [r[j] for r in rows]) for j in range(3)]


def _collected(rows, cuts, certified, *, with_values=True, float_at=None):
    col = ColumnCollector("smatch", prf_reduce, 3, certified=True)
    k = 0
    for n, part in enumerate(_chunks(rows, cuts)):
        cols = _columns(part, "d" if n == float_at else "q")
        values = chunk_values(prf_reduce, cols, ("f1",)) if with_values else None
        col.add_columns([str(i) for i in range(k, k + len(part))], cols,
                        bytes(certified[k:k + len(part)]), values)
        k += len(part)
    return col.result()


def _reference(rows, certified):
    c = Collector("smatch", prf_reduce, 3, certified=True)
    c.add_many([str(i) for i in range(len(rows))], rows, [bool(x) for x in certified])
    return c.result()


@settings(max_examples=150, deadline=None)
@given(rows=rows_st, cuts=st.lists(st.integers(0, 400), max_size=8), data=st.data(),
       with_values=st.booleans())
def test_same_result_as_the_row_collector(rows, cuts, data, with_values):
    certified = data.draw(st.lists(st.integers(0, 1), min_size=len(rows), max_size=len(rows)))
    got = _collected(rows, cuts, certified, with_values=with_values)
    want = _reference(rows, certified)
    assert isinstance(got._raw("table"), ColumnTable)
    assert got.summary() == want.summary()
    assert got.column_sums() == want.column_sums()
    assert got.ids == want.ids
    assert got.rows() == want.rows()
    # and numpy's reduction of the same table (the path taken once numpy is loaded)
    a = np.asarray(rows, dtype=np.float64)
    per = prf_reduce(a)
    assert list(got._per_pair_values()["f1"]) == [float(x) for x in per["f1"]]
    assert got.macro_f1 == float(np.mean(per["f1"]))
    assert got.n_certified == sum(certified)
    np.testing.assert_array_equal(got.table, a)
    np.testing.assert_array_equal(got.certified, np.asarray(certified, dtype=bool))


@settings(max_examples=60, deadline=None)
@given(rows=rows_st, cuts=st.lists(st.integers(0, 400), min_size=1, max_size=6), data=st.data())
def test_a_chunk_of_floats_turns_the_columns_to_float64(rows, cuts, data):
    """A count that is not an int (a float chunk, anywhere): the columns become float64, the
    numbers do not change (counts below 2**53 are exact doubles)."""
    n_chunks = len(_chunks(rows, cuts))
    float_at = data.draw(st.integers(0, n_chunks - 1))
    certified = [1] * len(rows)
    got = _collected(rows, cuts, certified, float_at=float_at)
    assert got._raw("table").columns[0].typecode == "d"
    want = _reference(rows, certified)
    assert got.summary() == want.summary()
    assert got.column_sums() == want.column_sums()


def test_values_missing_from_one_chunk_are_computed_after_the_last():
    col = ColumnCollector("smatch", prf_reduce, 3)
    first = _columns([(1, 2, 3), (2, 2, 2)], "q")
    col.add_columns(["a", "b"], first, None, chunk_values(prf_reduce, first, ("f1",)))
    col.add_columns(["c"], _columns([(0, 1, 1)], "q"))
    assert col.values is None
    r = col.result()
    assert r.certified is None and r.n_certified is None
    assert r.macro_f1 == (2 * 1 / 5 + 1.0 + 0.0) / 3


def test_known_values_stand_for_the_reducers_own():
    """Values given to the table are what ``values_of`` reads for that reducer (the others
    are computed from the columns when read)."""
    cols = _columns([(1, 2, 3), (2, 2, 2)], "q")
    t = ColumnTable(cols, (prf_reduce.scalar, {"f1": array("d", [7.0, 8.0])}))
    got = t.values_of(prf_reduce.scalar)
    assert list(got) == ["precision", "recall", "f1"]
    assert list(got["f1"]) == [7.0, 8.0]
    assert list(got["precision"]) == [1 / 3, 1.0] and list(got["recall"]) == [0.5, 1.0]


def test_a_chunk_of_the_wrong_width_is_refused():
    col = ColumnCollector("smatch", prf_reduce, 3)
    with pytest.raises(ValueError):
        col.add_columns(["a"], [array("q", [1]), array("q", [1])])
    with pytest.raises(ValueError):
        col.add_columns(["a", "b"], _columns([(1, 1, 1)], "q"))


def test_pairwise_sum_of_a_large_array_has_numpys_bits():
    """The macro F1 of 250,000 pairs (a float64 array, no numpy) is numpy's mean."""
    rng = np.random.default_rng(14)
    values = rng.random(250_003)
    assert corpus_mod.pairwise_sum(array("d", values.tolist())) / len(values) == float(np.mean(values))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=700), st.booleans())
def test_pairwise_sum_either_way_has_numpys_bits(values, in_order):
    """The lanes of :func:`pairwise_sum` summed by ``sum`` (Python < 3.12) or by a loop."""
    saved = corpus_mod._SUM_IN_ORDER
    corpus_mod._SUM_IN_ORDER = in_order and saved  # the builtin only where it adds in order
    try:
        assert corpus_mod.pairwise_sum(values) == float(np.sum(np.asarray(values, dtype=np.float64)))
    finally:
        corpus_mod._SUM_IN_ORDER = saved
