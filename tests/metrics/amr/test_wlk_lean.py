"""WLK's lean kernel (:func:`mrkit.metrics.amr.wlk._wlk_triples_lean`, triples straight to
the Weisfeiler-Leman rounds) gives to the bit the score of the reference code it replaces
on the triples path (:func:`_wlk_labelled` of :func:`labelled_from_triples`: the labelled
view, tagged round-0 features, the integer relabelling table, :func:`weighted_cosine`),
for k = 0..3, on every pair of the shared AMR files and on generated graphs; and the
compiled twin of the lean kernel (``mrkit.metrics.amr._wlk``) gives its scores to the bit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from altmetrics_helpers import amr_graphs, graph
from conftest import shared_path
from penman_graphs import AMR_PAIRS
from mrkit.features.labelled import labelled_from_triples
from mrkit.features.triples import triples
from mrkit.metrics.amr.wlk import _compiled, _wlk_labelled, _wlk_triples_lean, wlk_pair, wlk_triples_pair
from mrkit.pipeline.amr import iter_amr_pairs


def reference(g, s, k):
    return _wlk_labelled(labelled_from_triples(g), labelled_from_triples(s), k, False)


def compiled(g, s, k):
    fn = _compiled()
    if fn is None:
        return _wlk_triples_lean(g, s, k)
    return fn(len(g.variables), g.instances, g.attributes, g.relations,
              len(s.variables), s.instances, s.attributes, s.relations, k)


@pytest.mark.parametrize("gold,system", AMR_PAIRS, ids=[p[0].split("/")[-1] for p in AMR_PAIRS])
def test_lean_kernel_equals_reference_on_shared_pairs(gold, system):
    g_path, s_path = shared_path("amr", gold), shared_path("amr", system)
    n = 0
    for g, s in iter_amr_pairs(str(g_path), str(s_path)):
        tg, ts = triples(g), triples(s)
        for k in (0, 1, 2, 3):
            assert _wlk_triples_lean(tg, ts, k) == reference(tg, ts, k) == compiled(tg, ts, k)
            assert _wlk_triples_lean(ts, tg, k) == reference(ts, tg, k) == compiled(ts, tg, k)
        n += 1
    assert n > 0


@settings(max_examples=200, deadline=None)
@given(amr_graphs(), amr_graphs(), st.integers(0, 4))
def test_lean_kernel_equals_reference_on_generated_graphs(a, b, k):
    ga, gb = graph(a[0]), graph(b[0])
    ta, tb = triples(ga), triples(gb)
    assert _wlk_triples_lean(ta, tb, k) == reference(ta, tb, k) == compiled(ta, tb, k)
    assert _wlk_triples_lean(ta, ta, k) == reference(ta, ta, k) == compiled(ta, ta, k)
    assert wlk_triples_pair(ta, tb, k) == wlk_pair(ga, gb, k)


def test_hand_computed_score():
    # (a / cat) vs (b / cat :mod (c / big)): round 0 features {cat} vs {cat, big, (cat, mod, big)},
    # round 1 {cat()} vs {cat(mod big), big(mod cat)}, round 2 likewise disjoint:
    # dot = 1, |a| = 1 + 1/4 + 1/9, |b| = 3 + 2/4 + 2/9
    ga = graph("(a / cat)")
    gb = graph("(b / cat :mod (c / big))")
    na, nb = 1 + 1 / 4 + 1 / 9, 3 + 2 / 4 + 2 / 9
    assert _wlk_triples_lean(triples(ga), triples(gb), 2) == pytest.approx(1 / (na * nb) ** 0.5, abs=1e-15)


def test_compiled_kernel_is_built_and_declines_what_is_not_its_shape():
    fn = _compiled()
    if fn is None:
        pytest.skip("compiled WLK kernel not built")
    t = triples(graph("(a / cat :mod (c / big))"))
    assert fn(len(t.variables), t.instances, t.attributes, t.relations,
              len(t.variables), t.instances, t.attributes, t.relations, 2) == 1.0
    assert fn(1, [(5, "cat")], [], [], 1, [], [], [], 2) is None  # index out of range
    assert fn(1, [("x", "cat")], [], [], 1, [], [], [], 2) is None
    assert fn(1, (), [], [], 1, [], [], [], 2) is None
