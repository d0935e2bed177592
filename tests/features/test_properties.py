"""Exact treewidth and the per-graph properties (hand-computed and brute-force checked)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.features.properties import min_fill_width, minor_min_width, treewidth


def _adj(n, edges):
    g = {str(i): set() for i in range(n)}
    for a, b in edges:
        if a != b:
            g[str(a)].add(str(b))
            g[str(b)].add(str(a))
    return g


def _brute(adj) -> int:
    """Minimum over all elimination orders of the width (the definition)."""
    vs = list(adj)
    if not vs:
        return 0
    best = len(vs)
    for order in itertools.permutations(vs):
        g = {u: set(n) for u, n in adj.items()}
        width = 0
        for v in order:
            nb = g.pop(v)
            width = max(width, len(nb))
            for u in nb:
                g[u] |= nb - {u}
                g[u].discard(v)
        best = min(best, width)
    return best


def test_known_graphs():
    assert treewidth(_adj(1, [])) == 0
    assert treewidth(_adj(3, [(0, 1), (1, 2)])) == 1  # path
    assert treewidth(_adj(5, [(i, (i + 1) % 5) for i in range(5)])) == 2  # cycle
    assert treewidth(_adj(5, [(a, b) for a in range(5) for b in range(a + 1, 5)])) == 4  # K5
    grid = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)] + \
           [(r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3)]
    assert treewidth(_adj(9, grid)) == 3  # 3x3 grid
    outer = [(i, (i + 1) % 5) for i in range(5)]
    inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    spokes = [(i, i + 5) for i in range(5)]
    assert treewidth(_adj(10, outer + inner + spokes)) == 4  # Petersen graph
    # K_{3,3}: treewidth 3
    assert treewidth(_adj(6, [(a, b) for a in range(3) for b in range(3, 6)])) == 3


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=16))))
def test_treewidth_is_the_minimum_over_elimination_orders(case):
    n, edges = case
    adj = _adj(n, edges)
    tw = treewidth(adj)
    assert tw == _brute(adj)
    assert minor_min_width(adj) <= tw <= min_fill_width(adj)
