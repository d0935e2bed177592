"""Document graphs with random sentence provenance, for the tests of document Smatch's
sentence constraint (tests/metrics/document: the candidate matrix and the compiled mask)."""

from __future__ import annotations

from hypothesis import strategies as st

from mrkit.model.graph import Graph

provs = st.lists(st.frozensets(st.integers(0, 200), max_size=3), min_size=1, max_size=12)
"""The provenance of each node (sentence numbers; empty: unknown)."""


def provenance_graph(ps) -> Graph:
    """A document graph whose nodes have the provenance ``ps`` (empty: unknown)."""
    g = Graph(id="g", metadata={"provenance": ""})
    g.add_node("d", "document")
    g.tops = ["d"]
    for k, p in enumerate(ps):
        g.add_node(f"n{k}", "x", provenance=p)
        g.add_edge("d", f"n{k}", "snt1" if k == 0 else "ARG0")
    return g
