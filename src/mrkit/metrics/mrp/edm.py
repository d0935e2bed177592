"""Elementary Dependency Match (EDM) for anchored graphs such as EDS.

Nodes are identified by the character positions of their anchors (trimmed of
punctuation, without whitespace, as in the MRP metric), so no alignment is needed.
Tuples: names (span, label), arguments (span, span, edge label), tops (span) and
properties (span, property, value); "all" sums them (Dridan & Oepen 2011; mtool's
``--score edm``).
"""

from __future__ import annotations

from typing import Iterable

from ...model.graph import Graph
from ...aggregate.counts import SetScores, TupleSets
from ...features.mrp_tuples import ALL, Normalizer, explode, norm

MEASURES = ("names", "arguments", "tops", "properties")


def edm_sets(gold: Graph, system: Graph, normalizer: Normalizer = ALL) -> TupleSets:
    out: TupleSets = {m: (set(), set()) for m in MEASURES}
    use_text = bool(gold.text) and bool(system.text)
    for side, g in enumerate((gold, system)):
        ident = {}
        for k, n in g.nodes.items():
            ident[k] = (explode(g.text, n.anchors, normalizer.anchors) if use_text and n.anchors
                        else tuple(sorted((a.start, a.end) for a in n.anchors)))
            if n.label is not None:
                out["names"][side].add((ident[k], normalizer.name(n.label)))
            for p in n.properties:
                out["properties"][side].add((ident[k], normalizer.name(p.key), norm(p.value)))
        for top in g.tops:
            if top in ident:
                out["tops"][side].add(ident[top])
        for e in g.edges:
            s, t, lab = normalizer.edge(g.framework, e)
            if s in ident and t in ident:
                out["arguments"][side].add((ident[s], ident[t], lab))
    return out


def edm_score(pairs: Iterable[tuple[Graph, Graph]]) -> SetScores:
    """EDM of (gold, system) pairs, with an "all" measure summing the four."""
    return SetScores.collect("edm", (edm_sets(g, s) for g, s in pairs), total="all")
