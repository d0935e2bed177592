"""SDP scores of bi-lexical graphs (DM, PSD): labeled and unlabeled dependencies.

Nodes are identified by their anchors (the token they stand for) after mtool's anchor
normalization (:func:`~mrkit.features.mrp_tuples.normal_spans`: spans united, then trimmed of
punctuation and whitespace), as mtool's ``score/sdp.py`` sees them after ``--score``
normalizes the graphs; a node without anchors has the empty identity, as there.  Every
top node adds a virtual edge from a root.  Reported: labeled and unlabeled precision,
recall, F1 and the number of graphs matched exactly, as the SDP 2015 scorer and mtool's
``--score sdp``.
"""

from __future__ import annotations

from typing import Iterable

from ...model.graph import Graph, Node
from ...aggregate.counts import SetScores, TupleSets
from ...features.mrp_tuples import ALL, Normalizer

ROOT = ("root",)


def token(node: Node, text: str | None = None, normalizer: Normalizer = ALL) -> tuple:
    """A node's identity: its normalized anchor spans (``()`` when it has none)."""
    return normalizer.spans(text, node.anchors)


def sdp_sets(gold: Graph, system: Graph, normalizer: Normalizer = ALL) -> TupleSets:
    out: TupleSets = {}
    for side, g in enumerate((gold, system)):
        ident = {k: token(n, g.text, normalizer) for k, n in g.nodes.items()}
        labeled, unlabeled = set(), set()
        for e in g.edges:
            s, t, lab = normalizer.edge(g.framework, e)
            if s in ident and t in ident:
                labeled.add((ident[s], ident[t], lab))
                unlabeled.add((ident[s], ident[t]))
        for top in g.tops:
            if top in ident:
                labeled.add((ROOT, ident[top], None))
                unlabeled.add((ROOT, ident[top]))
        for name, items in (("labeled", labeled), ("unlabeled", unlabeled)):
            out.setdefault(name, (set(), set()))[side].update(items)
    return out


def sdp_score(pairs: Iterable[tuple[Graph, Graph]]) -> SetScores:
    """Labeled and unlabeled dependency scores of (gold, system) pairs."""
    return SetScores.collect("sdp", (sdp_sets(g, s) for g, s in pairs))
