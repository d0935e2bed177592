"""UCCA scores: primary and remote edges, labeled and unlabeled, over node yields.

The yield of a unit is the set of character positions of its own anchors and of every
unit below it along primary (non-remote) edges (trimmed of punctuation, without
whitespace).  An edge is the tuple (yield of parent, yield of child, category); remote
edges carry the attribute ``remote`` true.  As in the UCCA evaluation and mtool's
``--score ucca``.
"""

from __future__ import annotations

from typing import Iterable

from ..graph import Anchor, Graph
from .counts import SetScores, TupleSets
from .mrp_tuples import explode, norm, normal_edge


def is_remote(edge) -> bool:
    return any(norm(a.key) == "remote" and norm(a.value) == "true" for a in edge.attributes)


def yields(g: Graph) -> dict[str, frozenset[int]]:
    """Yield of every node (cycle-safe; each node's own anchors plus its primary children's)."""
    children: dict[str, list[str]] = {k: [] for k in g.nodes}
    for e in g.edges:
        if not is_remote(e) and e.source in children and e.target in g.nodes:
            children[e.source].append(e.target)
    spans: dict[str, list[Anchor]] = {}

    def visit(root: str) -> None:
        stack, on_path = [(root, False)], set()
        while stack:
            v, done = stack.pop()
            if done:
                acc = list(g.nodes[v].anchors)
                for c in children[v]:
                    acc.extend(spans.get(c, ()))
                spans[v] = acc
                on_path.discard(v)
            elif v not in spans and v not in on_path:
                on_path.add(v)
                stack.append((v, True))
                stack.extend((c, False) for c in children[v] if c not in spans)

    for k in g.nodes:
        if k not in spans:
            visit(k)
    return {k: explode(g.text, s) if s else frozenset() for k, s in spans.items()}


def ucca_sets(gold: Graph, system: Graph) -> TupleSets:
    names = ("labeled primary", "labeled remote", "unlabeled primary", "unlabeled remote")
    out: TupleSets = {m: (set(), set()) for m in names}
    for side, g in enumerate((gold, system)):
        y = yields(g)
        for e in g.edges:
            if e.source not in y or e.target not in y:
                continue
            kind = "remote" if is_remote(e) else "primary"
            s, t, lab = normal_edge(g.framework, e.source, e.target, e.label, e.normal)
            out[f"labeled {kind}"][side].add((y[s], y[t], lab))
            out[f"unlabeled {kind}"][side].add((y[s], y[t]))
    return out


def ucca_score(pairs: Iterable[tuple[Graph, Graph]]) -> SetScores:
    """UCCA primary/remote x labeled/unlabeled scores of (gold, system) pairs."""
    return SetScores.collect("ucca", (ucca_sets(g, s) for g, s in pairs))
