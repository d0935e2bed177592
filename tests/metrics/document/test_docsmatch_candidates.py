"""The sentence constraint of document Smatch (bit sets, several words past 63 sentences)
against its definition, on random provenance."""

from __future__ import annotations

from hypothesis import given, settings

from mrkit.features.triples import triples
from mrkit.metrics.document.docsmatch import candidate_matrix
from provenance_graphs import provenance_graph as graph, provs

@settings(max_examples=60, deadline=None)
@given(provs, provs)
def test_candidates_match_definition(pa, pb):
    ga, gb = graph(pa), graph(pb)
    ta, tb = triples(ga), triples(gb)
    allowed = candidate_matrix(ga, gb, ta, tb)
    known = any(p for p in pa + pb)
    for i, u in enumerate(ta.variables):
        for j, v in enumerate(tb.variables):
            if u == "d" or v == "d":
                want = u == v == "d"
            elif not known:
                want = True
            else:
                a, b = ga.nodes[u].provenance, gb.nodes[v].provenance
                want = not a or not b or bool(a & b)
            assert allowed[i, j] == want, (u, v)
