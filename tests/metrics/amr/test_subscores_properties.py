"""Invariants of the subscores on random AMR-like graphs (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mrkit.align import AlignConfig
from mrkit.features.conventions import Conventions
from mrkit.features.subscores import ALIGNED, SUBSCORES
from mrkit.metrics.amr.subscores import subscores_pair
from test_smatch_properties import graphs, renamed

CFG = AlignConfig(exact="always")


@settings(max_examples=40, deadline=None)
@given(graphs())
def test_a_graph_against_itself_is_perfect(g):
    p = subscores_pair(g, g, CFG)
    assert p.certified
    for name in SUBSCORES:
        m, ng, ns = p.counts[name]
        assert ng == ns and m == ng, name


@settings(max_examples=40, deadline=None)
@given(graphs(), st.integers(0, 1000))
def test_a_renamed_reordered_copy_loses_at_most_the_subset_top(g, seed):
    # the top of a Reentrancies/SRL subset sits on the source of its first triple in
    # reading order (amr-evaluation's construction), so a reordered copy may put it on
    # another node: that one triple, and nothing else, can be lost
    p = subscores_pair(g, renamed(g, seed), CFG)
    for name in SUBSCORES:
        m, ng, ns = p.counts[name]
        assert ng == ns, name
        assert m >= ng - (1 if name in ("reentrancies", "srl") else 0), name


@settings(max_examples=40, deadline=None)
@given(graphs(), graphs())
def test_swapping_gold_and_system_swaps_the_counts(a, b):
    p, q = subscores_pair(a, b, CFG), subscores_pair(b, a, CFG)
    for name in SUBSCORES:
        m, ng, ns = p.counts[name]
        assert q.counts[name] == (m, ns, ng), name
        assert 0 <= m <= min(ng, ns)


@settings(max_examples=30, deadline=None)
@given(graphs(), graphs(), st.sampled_from(["smatch", "concept"]), st.booleans())
def test_conventions_keep_the_bounds(a, b, top, mod_domain):
    p = subscores_pair(a, b, CFG, conventions=Conventions(top=top, mod_domain=mod_domain))
    for name in ALIGNED:
        m, ng, ns = p.counts[name]
        assert 0 <= m <= min(ng, ns)
