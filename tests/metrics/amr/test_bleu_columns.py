"""The compiled per-pair BLEU (``mrkit.metrics.amr._sembleu.bleu_f1``, the column twin of
:func:`mrkit.metrics.amr.sembleu.bleu_scalar_reducer`) has the scalar reducer's bits on
every row: generated rows (zero matches, zero totals, empty graphs, every k, the
reference's weights)."""

from __future__ import annotations

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.metrics.amr.sembleu import REFERENCE_WEIGHTS, bleu_scalar_reducer

_sembleu = pytest.importorskip("mrkit.metrics.amr._sembleu")

WEIGHTS = [(1.0,), (0.5, 0.5), (1 / 3,) * 3, REFERENCE_WEIGHTS, (0.2, 0.3, 0.5)]


@st.composite
def tables(draw):
    weights = draw(st.sampled_from(WEIGHTS))
    k = len(weights)
    n = st.integers(0, 40) | st.just(0)
    rows = draw(st.lists(st.lists(n, min_size=2 * k + 2, max_size=2 * k + 2), min_size=1, max_size=50))
    return weights, rows


@settings(max_examples=300, deadline=None)
@given(t=tables())
def test_bleu_f1_is_the_scalar_reducer(t):
    weights, rows = t
    scalar = bleu_scalar_reducer(weights)
    cols = [array("q", [r[j] for r in rows]) for j in range(len(rows[0]))]
    out = array("d")
    out.frombytes(_sembleu.bleu_f1(cols, tuple(float(w) for w in weights)))
    assert out.tolist() == [scalar(r)["f1"] for r in rows]
    assert scalar.columns(cols) == {"f1": out}


def test_bad_columns():
    with pytest.raises(ValueError):
        _sembleu.bleu_f1([array("q", [1])] * 3, (1.0,))
    with pytest.raises(ValueError):
        _sembleu.bleu_f1([array("d", [1.0])] * 4, (1.0,))
    with pytest.raises(ValueError):
        _sembleu.bleu_f1([array("q", [1]), array("q", [1, 2]), array("q", [1]), array("q", [1])], (1.0,))
