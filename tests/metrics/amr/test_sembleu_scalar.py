"""SemBLEU's plain-Python reducer (the summary of a small corpus without numpy) gives the
bits of the numpy reducer, on every kind of row: zero matches, no system n-grams of some
order, empty graphs, brevity penalty on and off, k = 1..3, the reference's weights."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.metrics.amr.sembleu import REFERENCE_WEIGHTS, bleu_reducer

WEIGHTS = [(1.0,), (0.5, 0.5), (1 / 3,) * 3, REFERENCE_WEIGHTS]


@st.composite
def rows(draw):
    w = draw(st.sampled_from(WEIGHTS))
    k = len(w)
    small = st.integers(0, 6)
    return w, [tuple(draw(small) for _ in range(2 * k + 2)) for _ in range(draw(st.integers(1, 5)))]


@settings(max_examples=500, deadline=None)
@given(rows())
def test_scalar_twin_has_the_bits_of_the_numpy_reducer(case):
    weights, table = case
    reduce = bleu_reducer(weights)
    for row in table:
        assert reduce.scalar(row)["f1"] == float(reduce(np.asarray(row, dtype=np.float64))["f1"])
    sums = tuple(float(sum(r[j] for r in table)) for j in range(len(table[0])))
    assert reduce.scalar(sums)["f1"] == float(reduce(np.asarray(table, dtype=np.float64).sum(axis=0))["f1"])
