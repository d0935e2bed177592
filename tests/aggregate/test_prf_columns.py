"""aggregate/resampling.py _prf_columns (the per-pair P/R/F of a small table, a column at a
time) gives _prf_scalar's bits for every row, and through it the plain-Python summary keeps
numpy's bits; RowTable sums each column once."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mrkit.aggregate import corpus as corpus_mod
from mrkit.aggregate.resampling import _prf_columns, _prf_scalar, prf_reduce

counts = st.one_of(st.integers(0, 60), st.sampled_from([0.0, 1.0, 2.5, 7.0, 1e-9]))
rows = st.lists(st.tuples(counts, st.integers(0, 60), st.integers(0, 60)), max_size=60)


def columns_of(rows):
    """The (matched, gold, system) columns of rows, as the summary hands them over."""
    return list(zip(*rows)) if rows else [(), (), ()]


@given(rows)
def test_columns_equal_the_scalar_row_by_row(table):
    cols = _prf_columns(columns_of(table))
    assert list(cols) == ["precision", "recall", "f1"]
    for i, row in enumerate(table):
        want = _prf_scalar(row)
        assert {k: cols[k][i] for k in cols} == want


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=300))
def test_plain_summary_has_numpy_bits(table):
    plain = corpus_mod.RowTable(list(table), 3)
    arr = np.asarray(table, dtype=np.float64)
    per = prf_reduce(arr)
    cols = _prf_columns(columns_of(plain.rows))
    for k in per:
        assert cols[k] == [float(x) for x in per[k]]
    assert corpus_mod.pairwise_sum(cols["f1"]) / len(table) == float(np.mean(per["f1"]))
    assert plain.column_sums() == tuple(float(x) for x in arr.sum(axis=0))
    assert plain.column_sums() is plain.column_sums()  # summed once
    res = corpus_mod.CorpusResult("smatch", plain, prf_reduce, [None] * len(table), [True, False] * len(table))
    assert res.n_certified == len(table)


def test_integral_sees_floats_and_ints():
    assert corpus_mod.RowTable([(1, 2, 3), (2.0, 3, 4)], 3).integral()
    assert not corpus_mod.RowTable([(1, 2, 3), (2.5, 3, 4)], 3).integral()
    assert corpus_mod.RowTable([], 3).integral() and corpus_mod.RowTable([], 3).column_sums() == (0.0, 0.0, 0.0)
