"""UCCA scores: primary and remote edges, labeled and unlabeled, over node yields.

The yield of a unit is the set of character positions of its own anchors and of every
unit below it along primary (non-remote) edges, after mtool's anchor normalization
(:func:`~mrkit.features.mrp_tuples.normal_spans`), trimmed of punctuation, without
whitespace; a punctuation-only unit has the empty yield, as in mtool's ``score/ucca.py``
(without an input text: the sorted normalized spans).  An edge is the tuple (yield of
parent, yield of child, category); remote edges carry the attribute ``remote`` true.  As
in the UCCA evaluation and mtool's ``--score ucca``.
"""

from __future__ import annotations

from typing import Iterable

from ...model.graph import Graph
from ...aggregate.counts import SetScores, TupleSets
from ...features.mrp_tuples import ALL, ATTRIBUTE_DEFAULTS, Normalizer, span_positions


def is_remote(edge, normalizer: Normalizer = ALL) -> bool:
    """An attribute ``remote`` with any value but the default ``false`` (as mtool tests it
    after its ``attributes`` normalization dropped that default; without it, any value)."""
    for a in edge.attributes:
        if normalizer.name(a.key) != "remote":
            continue
        if normalizer.attributes and normalizer.name(a.value) == ATTRIBUTE_DEFAULTS["remote"]:
            continue
        return True
    return False


def yields(g: Graph, normalizer: Normalizer = ALL) -> dict[str, frozenset[int] | tuple]:
    """Yield of every node: its own spans plus, along primary edges, its children's.

    Computed as mtool's recursive ``identify`` (nodes in file order, each node's edges in
    file order, a child's spans copied when its visit returns), with an explicit stack: on
    a cycle a node copies the spans its ancestor on the path has gathered so far, exactly
    as mtool does, and no input can exhaust the recursion limit.
    """
    children: dict[str, list[str]] = {k: [] for k in g.nodes}
    for e in g.edges:
        if not is_remote(e, normalizer) and e.source in children and e.target in g.nodes:
            children[e.source].append(e.target)
    spans: dict[str, set[tuple[int, int]]] = {}
    for root in g.nodes:
        if root in spans:
            continue
        spans[root] = set(normalizer.spans(g.text, g.nodes[root].anchors))
        stack = [(root, 0)]  # (node, index of the next child to visit)
        while stack:
            v, i = stack[-1]
            if i > 0:  # the visit of child i - 1 returned: copy its spans
                spans[v].update(spans[children[v][i - 1]])
            if i == len(children[v]):
                stack.pop()
                continue
            stack[-1] = (v, i + 1)
            c = children[v][i]
            if c not in spans:
                spans[c] = set(normalizer.spans(g.text, g.nodes[c].anchors))
                stack.append((c, 0))
    if g.text:
        return {k: span_positions(g.text, s) for k, s in spans.items()}
    return {k: tuple(sorted(s)) for k, s in spans.items()}


def ucca_sets(gold: Graph, system: Graph, normalizer: Normalizer = ALL) -> TupleSets:
    names = ("labeled primary", "labeled remote", "unlabeled primary", "unlabeled remote")
    out: TupleSets = {m: (set(), set()) for m in names}
    for side, g in enumerate((gold, system)):
        y = yields(g, normalizer)
        for e in g.edges:
            if e.source not in y or e.target not in y:
                continue
            kind = "remote" if is_remote(e, normalizer) else "primary"
            s, t, lab = normalizer.edge(g.framework, e)
            out[f"labeled {kind}"][side].add((y[s], y[t], lab))
            out[f"unlabeled {kind}"][side].add((y[s], y[t]))
    return out


def ucca_score(pairs: Iterable[tuple[Graph, Graph]]) -> SetScores:
    """UCCA primary/remote x labeled/unlabeled scores of (gold, system) pairs."""
    return SetScores.collect("ucca", (ucca_sets(g, s) for g, s in pairs))
