"""Invariants of Smatch on random AMR-like graphs (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from mrkit.align import AlignConfig
from mrkit.codecs.penman import dumps, loads
from mrkit.model.graph import Graph, Property
from mrkit.metrics.amr.smatch import smatch_pair

CONCEPTS = ["dog", "cat", "see-01", "want-01", "person", "name", "and"]
ROLES = ["ARG0", "ARG1", "mod", "ARG0-of", "consist-of", "op1"]


@st.composite
def graphs(draw, max_nodes=7):
    n = draw(st.integers(1, max_nodes))
    g = Graph(id="g")
    for k in range(n):
        node = g.add_node(f"v{k}", draw(st.sampled_from(CONCEPTS)))
        for _ in range(draw(st.integers(0, 2))):
            node.properties.append(Property(draw(st.sampled_from(["polarity", "quant", "op1"])),
                                            draw(st.sampled_from(["-", "1", "2", "Kim"]))))
    for k in range(1, n):  # a tree, so the graph is connected from v0
        g.add_edge(f"v{draw(st.integers(0, k - 1))}", f"v{k}", draw(st.sampled_from(ROLES)))
    for _ in range(draw(st.integers(0, 2))):  # re-entrancies
        g.add_edge(f"v{draw(st.integers(0, n - 1))}", f"v{draw(st.integers(0, n - 1))}",
                   draw(st.sampled_from(ROLES)))
    g.tops = ["v0"]
    return g


def renamed(g: Graph, seed: int) -> Graph:
    """Rename variables and shuffle node, property and edge order."""
    rng = random.Random(seed)
    names = list(g.nodes)
    new = [f"z{k}" for k in range(len(names))]
    rng.shuffle(new)
    ren = dict(zip(names, new))
    h = Graph(id=g.id)
    items = list(g.nodes.values())
    rng.shuffle(items)
    for node in items:
        props = list(node.properties)
        rng.shuffle(props)
        h.add_node(ren[node.id], node.label, properties=props)
    edges = list(g.edges)
    rng.shuffle(edges)
    for e in edges:
        h.add_edge(ren[e.source], ren[e.target], e.label)
    h.tops = [ren[t] for t in g.tops]
    return h


CFG = AlignConfig(exact="always")


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_graph_against_itself_is_one(g):
    p = smatch_pair(g, g, CFG)
    assert p.f1 == 1.0 and p.certified


@settings(max_examples=60, deadline=None)
@given(graphs(), graphs(), st.integers(0, 1000))
def test_invariant_to_renaming_and_order(g, s, seed):
    a = smatch_pair(g, s, CFG)
    b = smatch_pair(renamed(g, seed), renamed(s, seed + 1), CFG)
    assert (a.matched, a.gold, a.system) == (b.matched, b.gold, b.system)
    assert smatch_pair(g, renamed(g, seed), CFG).f1 == 1.0


@settings(max_examples=60, deadline=None)
@given(graphs(), graphs())
def test_f1_symmetric_under_swapping_files(g, s):
    a, b = smatch_pair(g, s, CFG), smatch_pair(s, g, CFG)
    assert a.matched == b.matched and a.f1 == b.f1
    assert a.precision == b.recall


@settings(max_examples=60, deadline=None)
@given(graphs(), graphs())
def test_heuristic_at_most_bound_and_exact(g, s):
    heur = smatch_pair(g, s, AlignConfig(exact="never", restarts=0))
    exact = smatch_pair(g, s, CFG)
    assert heur.matched <= exact.matched <= heur.bound
    assert exact.certified and exact.bound == exact.matched


@settings(max_examples=40, deadline=None)
@given(graphs())
def test_penman_round_trip_preserves_score(g):
    (h,) = loads(dumps([g]))
    p = smatch_pair(g, h, CFG)
    assert p.f1 == 1.0 and p.gold == p.system
