"""SemBLEU's compiled row (``mrkit.metrics.amr._sembleu``, the triples path without
``reference``) equals the Python reference :func:`mrkit.metrics.amr.sembleu._row` of the
labelled view, k = 1..3, on every pair of the shared AMR files and on generated graphs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from altmetrics_helpers import amr_graphs, graph
from conftest import shared_path
from penman_graphs import AMR_PAIRS
from mrkit.features.labelled import labelled_from_triples
from mrkit.features.triples import triples
from mrkit.metrics.amr.sembleu import _compiled, _row, sembleu_row, sembleu_triples_row
from mrkit.pipeline.amr import iter_amr_pairs

pytestmark = pytest.mark.skipif(_compiled() is None, reason="compiled SemBLEU kernel not built")


def reference(g, s, k):
    return _row(labelled_from_triples(g), labelled_from_triples(s), k, False)


def compiled(g, s, k):
    return _compiled()(len(g.variables), g.instances, g.attributes, g.relations,
                       len(s.variables), s.instances, s.attributes, s.relations, k)


@pytest.mark.parametrize("gold,system", AMR_PAIRS, ids=[p[0].split("/")[-1] for p in AMR_PAIRS])
def test_compiled_row_equals_reference_on_shared_pairs(gold, system):
    n = 0
    for g, s in iter_amr_pairs(str(shared_path("amr", gold)), str(shared_path("amr", system))):
        tg, ts = triples(g), triples(s)
        for k in (1, 2, 3):
            assert compiled(tg, ts, k) == reference(tg, ts, k)
            assert compiled(ts, tg, k) == reference(ts, tg, k)
        n += 1
    assert n > 0


@settings(max_examples=200, deadline=None)
@given(amr_graphs(), amr_graphs(), st.integers(1, 3))
def test_compiled_row_equals_reference_on_generated_graphs(a, b, k):
    ga, gb = graph(a[0]), graph(b[0])
    ta, tb = triples(ga), triples(gb)
    assert compiled(ta, tb, k) == reference(ta, tb, k)
    assert compiled(ta, ta, k) == reference(ta, ta, k)
    assert sembleu_triples_row(ta, tb, k) == sembleu_row(ga, gb, k)


def test_self_loop_and_hand_counts():
    # (a / x :ARG0 a :mod (b / y)): nodes x, y; edges x-ARG0->x, x-mod->y; length 4.
    # 3-grams: x ARG0 x mod y, x ARG0 x ARG0 x is the same self-loop twice (not counted),
    # so 1 three-gram; against itself every n-gram matches.
    t = triples(graph("(a / x :ARG0 a :mod (b / y))"))
    assert compiled(t, t, 3) == [2, 2, 1, 2, 2, 1, 4, 4]
    assert compiled(t, t, 3) == reference(t, t, 3)
    u = triples(graph("(a / x :mod (b / y) :mod (c / y))"))
    # gold u (y twice), system t (y once): 1-grams x, y: 2 match; 2-grams of t: x ARG0 x (not in u)
    # and x mod y (twice in u, clipped to once): 1; the 3-gram x ARG0 x mod y is not in u: 0
    assert compiled(u, t, 3) == [2, 1, 0, 2, 2, 1, 4, 5]


def test_declines_what_is_not_its_shape():
    fn = _compiled()
    assert fn(1, [(5, "x")], [], [], 1, [], [], [], 3) is None
    assert fn(1, [], [], [], 1, [], [], [], 4) is None
    assert fn(1, (), [], [], 1, [], [], [], 3) is None
