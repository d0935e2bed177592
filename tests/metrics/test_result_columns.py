"""metrics/result.py ``column_scores``: a compiled kernel's typed columns of a large corpus
(or any corpus once numpy is loaded) become the float64 table ``metric_scores`` makes of
the same rows, filled column by column (no Python tuple per pair: flat memory on large
corpora, issue 14), to the very bits of ``np.asarray(rows)``."""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.aggregate.corpus import Collector
from mrkit.aggregate.reducers import prf_reduce
from mrkit.metrics.result import column_scores, metric_scores

NAMES = ("matched", "gold", "system")


def _columns(n: int, seed: int) -> list[array]:
    rng = random.Random(seed)
    return [array("q", [rng.randrange(0, 1 << 62) for _ in range(n)]),  # past 2**53: rounded to a double
            array("q", [rng.randrange(-3, 60) for _ in range(n)]),
            array("d", [rng.uniform(-1e12, 1e12) for _ in range(n)])]


def _same(a, b) -> None:
    assert isinstance(a.table, np.ndarray) and isinstance(b.table, np.ndarray)
    assert a.table.dtype == b.table.dtype == np.float64 and a.table.shape == b.table.shape
    assert a.table.tobytes() == b.table.tobytes()
    assert (a.ids, a.columns, a.certified, a.detail) == (b.ids, b.columns, b.certified, b.detail)
    assert repr(a.summary()) == repr(b.summary())  # (NaN where there are no pairs)


@pytest.mark.parametrize("n", [Collector.BLOCK, Collector.BLOCK + 7])
def test_a_large_corpus_is_the_table_of_its_rows(n):
    cols = _columns(n, n)
    ids = [f"p{k}" for k in range(n)]
    _same(column_scores("m", cols, ids, prf_reduce, NAMES, {"k": 1}),
          metric_scores("m", list(zip(*cols)), ids, prf_reduce, NAMES, None, {"k": 1}))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 40), seed=st.integers(0, 10**6))
def test_with_numpy_loaded_any_size_is_the_table_of_its_rows(n, seed):
    """numpy loaded (as here): the float64 table at every size, empty included."""
    cols = _columns(n, seed)
    ids = [str(k + 1) for k in range(n)]
    _same(column_scores("m", cols, ids, prf_reduce, NAMES), metric_scores("m", list(zip(*cols)), ids, prf_reduce,
                                                                           NAMES, None, None))
