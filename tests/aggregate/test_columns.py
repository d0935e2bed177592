"""A :class:`mrkit.aggregate.columns.ColumnTable` (typed columns of a compiled kernel) sums
and reduces to numpy's bits: integer columns exactly, float columns in row order as numpy
adds a C-ordered table along axis 0; the column twins of the scalar reducers
(``_prf_scalar.columns``, ``_mean_scalar.columns``) give every row's scalar values."""

from __future__ import annotations

from array import array

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.aggregate.columns import ColumnTable
from mrkit.aggregate.resampling import _mean_scalar, _prf_scalar, mean_reduce, prf_reduce

counts = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=300)
scores = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=3000)


@settings(max_examples=100, deadline=None)
@given(rows=counts)
def test_integer_columns(rows):
    cols = [array("q", [r[j] for r in rows]) for j in range(3)]
    t = ColumnTable(cols)
    a = np.asarray(rows, dtype=np.float64)
    assert t.shape == a.shape and len(t) == len(rows) and t.integral()
    assert t.column_sums() == tuple(float(x) for x in a.sum(axis=0))
    np.testing.assert_array_equal(np.asarray(t), a)
    assert t.rows == rows
    per = t.values_of(_prf_scalar)
    want = prf_reduce(a)
    for k in ("precision", "recall", "f1"):
        assert list(per[k]) == [float(x) for x in want[k]]  # a float64 array (compiled) or a list
        assert list(per[k]) == [_prf_scalar(r)[k] for r in rows]


@settings(max_examples=100, deadline=None)
@given(xs=scores)
def test_float_columns_sum_as_numpy_does(xs):
    cols = [array("d", xs), array("d", [1.0]) * len(xs)]
    t = ColumnTable(cols)
    a = np.column_stack([np.asarray(xs), np.ones(len(xs))])
    assert not t.integral()
    sums = t.column_sums()
    assert sums == tuple(float(x) for x in a.sum(axis=0))
    assert _mean_scalar(sums)["f1"] == float(mean_reduce(a.sum(axis=0))["f1"])
    assert list(t.values_of(_mean_scalar)["f1"]) == [float(x) for x in mean_reduce(a)["f1"]]
