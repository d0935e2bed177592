"""Structural properties of one graph: the measurements behind the graph statistics of
Kuhlmann & Oepen (2016), Table 2 of the MRP 2019 overview (``mrkit analyze``).

Pure functions over the graph model.  The conventions follow ``mtool --analyze``
(cfmrp/mtool, ``analyzer.py``), so that the corpus statistics agree with it:

* a *singleton* is a node with no incoming and no outgoing edge that is not a top; the
  density, the treewidth, the reentrancy and non-top-root percentages count only the
  other nodes;
* edges are a set of (source, target, label): a repeated edge counts once (mtool keeps
  its edges in a set);
* the treewidth is that of the undirected simple graph of the non-singleton nodes (loops
  dropped), at least 1 (mtool's convention: a tree, and a graph of one node, has width 1);
  it is computed exactly (:func:`treewidth`), not bounded by a heuristic;
* a graph is *connected* when its non-singleton nodes form exactly one undirected
  component; *multi-rooted* when more than one node (singletons included) has no
  incoming edge;
* for graphs whose nodes are ordered (flavor 0: node ids are token positions), the
  length of an edge is the distance of its end points' positions, two edges *cross* when
  their spans overlap without nesting, and a graph has *page number at most two* when its
  crossing edges can be coloured with two colours (the conflict graph is bipartite).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..model.graph import Graph
from ..model.mrp import FLAVORS

Adjacency = dict[str, set[str]]


# --------------------------------------------------------------------- treewidth

def _eliminate(adj: Adjacency, v: str) -> None:
    """Remove ``v``, making its neighbours a clique (in place)."""
    nb = adj.pop(v)
    for u in nb:
        s = adj[u]
        s.discard(v)
        s |= nb
        s.discard(u)


def _is_clique(adj: Adjacency, vs: Iterable[str]) -> bool:
    vs = list(vs)
    for i, a in enumerate(vs):
        na = adj[a]
        for b in vs[i + 1:]:
            if b not in na:
                return False
    return True


def _almost_simplicial(adj: Adjacency, v: str) -> bool:
    nb = adj[v]
    if _is_clique(adj, nb):
        return True
    for u in nb:
        rest = nb - {u}
        if _is_clique(adj, rest):
            return True
    return False


def minor_min_width(adj: Adjacency) -> int:
    """A lower bound of the treewidth (Gogate & Dechter's minor-min-width): contract a
    vertex of minimum degree into its neighbour with fewest common neighbours."""
    g = {u: set(n) for u, n in adj.items()}
    best = 0
    while g:
        u = min(g, key=lambda x: (len(g[x]), x))
        nb = g[u]
        best = max(best, len(nb))
        if not nb:
            del g[u]
            continue
        v = min(nb, key=lambda x: (len(g[x] & nb), x))
        # contract u into v
        merged = (g[v] | nb) - {u, v}
        del g[u]
        for w in nb:
            g[w].discard(u)
        g[v] = merged
        for w in merged:
            g[w].add(v)
    return best


def min_fill_width(adj: Adjacency) -> int:
    """An upper bound of the treewidth: the width of the min-fill elimination order."""
    g = {u: set(n) for u, n in adj.items()}
    width = 0
    while g:
        def fill(x: str) -> int:
            nb = list(g[x])
            return sum(1 for i, a in enumerate(nb) for b in nb[i + 1:] if b not in g[a])
        v = min(g, key=lambda x: (fill(x), len(g[x]), x))
        width = max(width, len(g[v]))
        _eliminate(g, v)
    return width


def _reduce(adj: Adjacency, low: int) -> int:
    """Safe reductions (Bodlaender & Koster): eliminate simplicial vertices, and almost
    simplicial ones of degree at most the lower bound; returns the raised lower bound."""
    changed = True
    while changed and adj:
        changed = False
        for v in sorted(adj, key=lambda x: len(adj[x])):
            if v not in adj:
                continue
            d = len(adj[v])
            if _is_clique(adj, adj[v]) or (d <= low and _almost_simplicial(adj, v)):
                low = max(low, d)
                _eliminate(adj, v)
                changed = True
    return low


def _width_at_most(adj: Adjacency, k: int, failed: set[frozenset[str]]) -> bool:
    """Whether the graph has an elimination order of width at most ``k`` (exhaustive
    search over the sets of remaining vertices: the graph after eliminating a set does
    not depend on the order)."""
    if len(adj) <= k + 1:
        return True
    key = frozenset(adj)
    if key in failed:
        return False
    g = {u: set(n) for u, n in adj.items()}
    # reductions that are safe for the decision "width <= k"
    changed = True
    while changed and len(g) > k + 1:
        changed = False
        for v in list(g):
            if v in g and len(g[v]) <= k and _almost_simplicial(g, v):
                _eliminate(g, v)
                changed = True
    if len(g) <= k + 1:
        return True
    if minor_min_width(g) > k:
        failed.add(key)
        return False
    for v in sorted(g, key=lambda x: (len(g[x]), x)):
        if len(g[v]) > k:
            break
        h = {u: set(n) for u, n in g.items()}
        _eliminate(h, v)
        if _width_at_most(h, k, failed):
            return True
    failed.add(key)
    failed.add(frozenset(g))
    return False


def treewidth(adj: Adjacency) -> int:
    """The exact treewidth of an undirected simple graph (``adj``: vertex -> neighbours,
    symmetric, no loops); 0 for a graph without edges.

    Per connected component: the safe reductions, then the lower bound (minor-min-width)
    and the upper bound (min-fill) and, where they differ, an exhaustive decision search
    for every width between them.  Exponential in the worst case (the problem is
    NP-hard), immediate on the graphs of meaning representation banks."""
    g = {u: set(n) - {u} for u, n in adj.items()}
    best = 0
    seen: set[str] = set()
    for start in list(g):
        if start in seen:
            continue
        comp, stack = [], [start]
        seen.add(start)
        while stack:
            u = stack.pop()
            comp.append(u)
            for w in g[u]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        if len(comp) - 1 <= best:
            continue  # a component of n vertices has width at most n - 1
        sub = {u: set(g[u]) for u in comp}
        low = _reduce(sub, 1 if len(comp) > 1 else 0)
        best = max(best, low)
        if not sub:
            continue
        low = max(low, minor_min_width(sub))
        high = min_fill_width(sub)
        width = high
        for k in range(max(low, best), high):
            if _width_at_most(sub, k, set()):
                width = k
                break
        best = max(best, width)
    return best


# --------------------------------------------------------------------- one graph

def flavor_of(g: Graph) -> int | None:
    """The MRP flavor of a graph: its ``flavor`` field, else its framework's."""
    flavor = g.extra.get("flavor")
    if isinstance(flavor, int) and not isinstance(flavor, bool):
        return flavor
    return FLAVORS.get((g.framework or "").lower())


def _position(key: str) -> int | None:
    try:
        return int(key)
    except ValueError:
        return None


@dataclass
class GraphProperties:
    """The measurements of one graph (see the module docstring for the conventions)."""

    nodes: int = 0
    edges: int = 0
    tops: int = 0
    labels: int = 0
    properties: int = 0
    anchors: int = 0
    attributes: int = 0
    edge_labels: set[str] = field(default_factory=set)
    singletons: int = 0
    reentrant: int = 0
    roots: int = 0
    nontop_roots: int = 0
    loops: int = 0
    components: int = 0
    cyclic: bool = False
    forest: bool = False
    tree: bool = False
    treewidth: int = 1
    density: float = 1.0
    ordered: bool = False
    edge_length: int = 0
    noncrossing: bool | None = None
    pagenumber_two: bool | None = None

    @property
    def connected(self) -> bool:
        return self.components == 1

    @property
    def multirooted(self) -> bool:
        return self.roots > 1


def _edge_set(g: Graph, invert: Callable[[str, str | None], str | None] | None) -> list[tuple[str, str, str | None]]:
    """Distinct (source, target, label) of a graph's edges; with ``invert`` (label,
    normal) -> base label or None, inverted edges are turned around."""
    out: dict[tuple[str, str, str | None], None] = {}
    for e in g.edges:
        label: str | None = e.label
        if label == "" and e.extra.get("_mrp", {}).get("label", "") in (None, "absent"):
            label = None
        s, t = e.source, e.target
        if invert is not None:
            base = invert(label, e.normal) if label is not None or e.normal else None
            if base:
                s, t, label = t, s, base
        out[(s, t, label)] = None
    return list(out)


def _has_anchors(node) -> bool:
    if node.anchors:
        return True
    priv = node.extra.get("_mrp", {})
    return "anchors" in priv.get("empty", ())  # "anchors": [] is there, as in mtool


def _crossing(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pairs (indices into ``spans``, distinct spans) of crossing edges."""
    out = []
    n = len(spans)
    for i in range(n):
        a1, b1 = spans[i]
        for j in range(n):
            a2, b2 = spans[j]
            if a1 < a2 < b1 < b2:
                out.append((i, j))
    return out


def _bipartite(n: int, pairs: list[tuple[int, int]]) -> bool:
    adj: dict[int, list[int]] = {}
    for i, j in pairs:
        adj.setdefault(i, []).append(j)
        adj.setdefault(j, []).append(i)
    colour: dict[int, int] = {}
    for start in adj:
        if start in colour:
            continue
        colour[start] = 0
        stack = [start]
        while stack:
            u = stack.pop()
            for w in adj[u]:
                if w not in colour:
                    colour[w] = 1 - colour[u]
                    stack.append(w)
                elif colour[w] == colour[u]:
                    return False
    return True


def graph_properties(g: Graph, *, invert: Callable[[str | None, str | None], str | None] | None = None,
                     ordered: bool | None = None) -> GraphProperties:
    """The measurements of ``g``.  ``invert(label, normal)``: the base label of an
    inverted edge (None: not inverted), to analyse graphs with inverted edges normalised
    (AMR⁻¹); ``ordered``: whether node ids are positions (default: flavor 0)."""
    p = GraphProperties()
    nodes = g.nodes
    p.nodes = len(nodes)
    edges = _edge_set(g, invert)
    p.edges = len(edges)
    tops = set(g.tops)
    p.tops = sum(1 for k in nodes if k in tops)
    p.labels = sum(1 for n in nodes.values() if n.label is not None)
    p.properties = sum(len(n.properties) for n in nodes.values())
    p.anchors = sum(1 for n in nodes.values() if _has_anchors(n))
    p.attributes = sum(len(e.attributes) for e in g.edges)
    if len(edges) != len(g.edges):  # attributes of repeated edges count once
        seen: dict[tuple, int] = {}
        for e in g.edges:
            seen.setdefault((e.source, e.target, e.label), len(e.attributes))
        p.attributes = sum(seen.values())
    p.edge_labels = {lab for _, _, lab in edges if lab is not None}

    out: dict[str, list[str]] = {k: [] for k in nodes}
    indeg: dict[str, int] = {k: 0 for k in nodes}
    for s, t, _ in edges:
        out[s].append(t)
        indeg[t] += 1
        if s == t:
            p.loops += 1
    outdeg = {k: len(v) for k, v in out.items()}
    active = [k for k in nodes if indeg[k] or outdeg[k] or k in tops]
    p.singletons = p.nodes - len(active)
    p.reentrant = sum(1 for k in nodes if indeg[k] > 1)
    p.roots = sum(1 for k in nodes if indeg[k] == 0)
    p.nontop_roots = sum(1 for k in active if indeg[k] == 0 and k not in tops)

    # undirected view of the non-singleton nodes
    und: Adjacency = {k: set() for k in active}
    for s, t, _ in edges:
        if s != t:
            und[s].add(t)
            und[t].add(s)
    seen_c: set[str] = set()
    for start in active:
        if start in seen_c:
            continue
        p.components += 1
        stack = [start]
        seen_c.add(start)
        while stack:
            u = stack.pop()
            for w in und[u]:
                if w not in seen_c:
                    seen_c.add(w)
                    stack.append(w)

    p.cyclic = p.loops > 0 or _directed_cycle(out)
    p.forest = not p.cyclic and all(d <= 1 for d in indeg.values())
    p.tree = p.forest and p.components == 1
    n_active = len(active)
    p.treewidth = 1 if n_active <= 1 else max(1, treewidth(und))
    p.density = 1.0 if n_active <= 1 else sum(1 for s, t, _ in edges if s != t) / (n_active - 1)

    if ordered is None:
        ordered = flavor_of(g) == 0
    if ordered:
        pos = {k: _position(k) for k in nodes}
        if all(v is not None for v in pos.values()):
            p.ordered = True
            spans = sorted({(min(pos[s], pos[t]), max(pos[s], pos[t])) for s, t, _ in edges})  # type: ignore[type-var]
            p.edge_length = sum(abs(pos[s] - pos[t]) for s, t, _ in edges)  # type: ignore[operator]
            pairs = _crossing(spans)
            p.noncrossing = not pairs
            p.pagenumber_two = _bipartite(len(spans), pairs)
    return p


def _directed_cycle(out: dict[str, list[str]]) -> bool:
    """Whether the directed graph has a cycle (iterative three-colour search)."""
    state: dict[str, int] = {}
    for start in out:
        if start in state:
            continue
        state[start] = 1
        stack = [(start, iter(out[start]))]
        while stack:
            u, it = stack[-1]
            for w in it:
                st = state.get(w, 0)
                if st == 1:
                    return True
                if st == 0:
                    state[w] = 1
                    stack.append((w, iter(out[w])))
                    break
            else:
                state[u] = 2
                stack.pop()
    return False


__all__ = ["GraphProperties", "flavor_of", "graph_properties", "min_fill_width", "minor_min_width", "treewidth"]
