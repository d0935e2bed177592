"""SEMA's node pairs, counted exactly: the largest node pairing carried by paired edges.

Each graph has edges, each with a key and two ends (a source and a target node, or
``None`` for an end that may not be paired).  Gold and system edges pair one-to-one, only
within a key.  Gold and system nodes pair one-to-one, and a pair ``(u, v)`` is allowed
only when a pair of paired edges *carries* it: ``u`` and ``v`` are the two sources, or the
two targets.  :func:`most_carried` is the largest number of node pairs over every pairing
of the edges.  (For SEMA, :func:`mrkit.metrics.amr.sema.sema_triple_counts`, the key is
the role with the concepts of both ends, and a node pair is a concept triple that counts.)

The choices of different keys meet at shared nodes, so this is a set packing (NP-hard in
general: a pair of edges spends two edges and up to two node pairs).  It splits into
independent blocks: the keys linked by a shared node, with their nodes.  A block is solved
by branch and bound over the pairings of its keys (every edge of a key's smaller side
takes one edge of the larger side: adding a pair of edges only adds node pairs, so some
optimum pairs as many edges as it can), bounded by the largest matching of the node pairs
still carried by some choice; a block the search does not close within ``budget`` steps
is handed to HiGHS as an integer program, through the engine's instance
(:func:`mrkit.align.ilp.configured_highs`).

Why a small search here rather than the engine (the project's rule: alignment goes to
:mod:`mrkit.align`): the problem is not the engine's (:mod:`mrkit.align.problem`: there an
edge counts when both its ends are mapped; here edges count in any case, a node counts
when one paired edge carries it, and an edge may carry a node pair while its other end is
paired elsewhere); loading the engine, numpy and highspy takes 0.1-0.2 s where a whole
``mrkit score -m sema`` of BAMBOO SICK's 4,929 pairs takes 0.03 s; the metric's Python path
must run without compiled modules (the engine's package needs its kernel); and the blocks
the greedy pairing cannot settle are a few edges (BAMBOO STS: 6 of 1,380 pairs, the
largest a key with 8 gold and 8 system edges, 0.35 ms; SICK: 1 pair).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Hashable, Sequence

    Edge = tuple[Hashable, "int | None", "int | None"]

BUDGET = 200_000
"""Work of the search of one block (node pairs read by its bounds: about 0.1 s) before the
block goes to HiGHS."""

DEPTH = 200
"""Edges of the smaller sides of a block's keys (the depth of the search) from which the
block goes to HiGHS at once."""


def most_carried(gold: Sequence[Edge], system: Sequence[Edge], budget: int = BUDGET) -> int:
    """The largest number of node pairs carried by a one-to-one pairing of the edges.

    ``gold``, ``system``: edges ``(key, source, target)``, the ends node numbers (of that
    graph) or ``None``; only edges with the same key pair, and a node pair is carried by a
    pair of edges when it is their two sources or their two targets (an end ``None``
    carries nothing).  Blocks the search does not settle within ``budget`` (work: node
    pairs read) are solved by HiGHS (``budget=0``: every block with a choice)."""
    by_key: dict = {}
    for side, edges in ((0, gold), (1, system)):
        for key, s, t in edges:
            # node numbers of both graphs in one space: gold 2u, system 2v + 1
            ends = (None if s is None else 2 * s + side, None if t is None else 2 * t + side)
            by_key.setdefault(key, ([], []))[side].append(ends)
    keys = [(key, g, s) for key, (g, s) in by_key.items() if g and s]
    # blocks: keys linked by a node (union-find over keys and nodes)
    parent: dict = {}

    def find(x):
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent.get(x, x)
        return root

    for k, (_, g, s) in enumerate(keys):
        for ends in (*g, *s):
            for n in ends:
                if n is not None:
                    a, b = find(("k", k)), find(n)
                    if a != b:
                        parent[b] = a
    blocks: dict = {}
    for k, item in enumerate(keys):
        blocks.setdefault(find(("k", k)), []).append(item)
    return sum(_block(items, budget) for items in blocks.values())


def _carried(gold_ends, system_ends) -> tuple:
    """The node pairs (gold, system) carried by a gold and a system edge's ends."""
    return tuple((u, v) for u, v in zip(gold_ends, system_ends) if u is not None and v is not None)


def _block(items: list, budget: int) -> int:
    """:func:`most_carried` of one block: its keys ``(key, gold ends, system ends)``."""
    # each key as (smaller side, larger side, smaller side is gold), the keys with the
    # fewest choices first: those without a choice tighten the bound at once
    keys = []
    for _, g, s in items:
        small, large, gold_small = (g, s, True) if len(g) <= len(s) else (s, g, False)
        opts = [[_carried(x, y) if gold_small else _carried(y, x) for y in large] for x in small]
        keys.append((len(large), len(small), opts))
    keys.sort(key=lambda k: (k[0], k[1]))
    steps = [(i, opts) for i, (_, _, key_opts) in enumerate(keys) for opts in key_opts]
    used = [[False] * n for n, _, _ in keys]
    if all(len(opts) == 1 for _, opts in steps):
        return _matching([p for _, opts in steps for p in opts[0]])
    chosen: list = []
    best = [0]
    work = [0]

    def bound(d: int) -> int:
        pairs = list(chosen)
        for i, opts in steps[d:]:
            u = used[i]
            for y, carried in enumerate(opts):
                if not u[y]:
                    pairs.extend(carried)
        work[0] += len(pairs)
        if work[0] > budget:
            raise _OverBudget
        return _matching(pairs)

    def search(d: int) -> bool:
        """True when the best reaches the bound of the whole block (the search ends)."""
        if d == len(steps):
            value = _matching(chosen)
            if value > best[0]:
                best[0] = value
            return best[0] >= top
        if d and bound(d) <= best[0]:
            return False
        i, opts = steps[d]
        u = used[i]
        for y, carried in enumerate(opts):
            if u[y]:
                continue
            u[y] = True
            chosen.extend(carried)
            done = search(d + 1)
            del chosen[len(chosen) - len(carried):]
            u[y] = False
            if done:
                return True
        return False

    try:
        if len(steps) > DEPTH:
            raise _OverBudget
        top = bound(0)
        search(0)
    except _OverBudget:
        return _ilp(steps, best[0])
    return best[0]


class _OverBudget(Exception):
    pass


def _matching(pairs) -> int:
    """Size of a largest matching of the bipartite graph of ``pairs`` (augmenting paths,
    breadth first, no recursion)."""
    adj: dict = {}
    for u, v in pairs:
        vs = adj.setdefault(u, [])
        if v not in vs:
            vs.append(v)
    match_u: dict = {}
    match_v: dict = {}
    for u, vs in adj.items():  # a greedy start
        for v in vs:
            if v not in match_v:
                match_u[u], match_v[v] = v, u
                break
    for u in adj:
        if u in match_u:
            continue
        prev: dict = {}
        frontier = [u]
        end = None
        while frontier and end is None:
            nxt = []
            for x in frontier:
                for v in adj[x]:
                    if v in prev:
                        continue
                    prev[v] = x
                    w = match_v.get(v)
                    if w is None:
                        end = v
                        break
                    nxt.append(w)
                if end is not None:
                    break
            frontier = nxt
        v = end
        while v is not None:  # flip the path
            x = prev[v]
            nv = match_u.get(x)
            match_u[x], match_v[v] = v, x
            v = nv if x != u else None
    return len(match_u)


def _ilp(steps: list, start: int) -> int:
    """The block's optimum by HiGHS: binaries ``x`` per (step, option), each step (an edge
    of a key's smaller side) takes exactly one option and each edge of a larger side at
    most one step; ``y`` in [0, 1] per carried node pair, at most one per node, each at
    most the sum of the ``x`` that carry it; maximise the sum of ``y``.  For fixed ``x``
    the ``y`` constraints are a bipartite matching polytope, integral, so only ``x`` is
    declared integer.  The value returned is recounted from the ``x`` read back (never
    below ``start``, a value the search reached)."""
    import highspy
    import numpy as np

    from ...align.ilp import configured_highs, rowwise_lp

    xs: list = []  # (step, option)
    for d, (_, opts) in enumerate(steps):
        xs.extend((d, y) for y in range(len(opts)))
    pid: dict = {}
    carriers: list = []
    for k, (d, y) in enumerate(xs):
        for p in set(steps[d][1][y]):  # a loop against a loop carries its pair twice
            if p not in pid:
                pid[p] = len(pid)
                carriers.append([])
            carriers[pid[p]].append(k)
    n_x, n_y = len(xs), len(pid)
    inf = highspy.kHighsInf
    rows: list = []  # (columns, values, lower, upper)
    by_step: dict = {}
    by_large: dict = {}
    for k, (d, y) in enumerate(xs):
        by_step.setdefault(d, []).append(k)
        by_large.setdefault((steps[d][0], y), []).append(k)
    rows += [(ks, [1.0] * len(ks), 1.0, 1.0) for ks in by_step.values()]
    rows += [(ks, [1.0] * len(ks), -inf, 1.0) for ks in by_large.values() if len(ks) > 1]
    by_node: dict = {}
    for p, j in pid.items():
        by_node.setdefault(("u", p[0]), []).append(n_x + j)
        by_node.setdefault(("v", p[1]), []).append(n_x + j)
    rows += [(cols, [1.0] * len(cols), -inf, 1.0) for cols in by_node.values() if len(cols) > 1]
    rows += [([n_x + j] + ks, [1.0] + [-1.0] * len(ks), -inf, 0.0) for j, ks in enumerate(carriers)]
    lp = rowwise_lp([0.0] * n_x + [1.0] * n_y, rows)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n_x + [highspy.HighsVarType.kContinuous] * n_y
    h = configured_highs()
    if h.passModel(lp) != highspy.HighsStatus.kOk:
        raise RuntimeError("HiGHS refused the model of SEMA's pairing")
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:  # no limit was set: never
        raise RuntimeError(f"HiGHS ended with {h.getModelStatus()} on SEMA's pairing")
    values = h.getSolution().col_value[:n_x]
    pairs = [p for k, (d, y) in enumerate(xs) if values[k] > 0.5 for p in steps[d][1][y]]
    got = _matching(pairs)
    if got + 1e-6 < h.getInfo().objective_function_value:
        raise RuntimeError("HiGHS's pairing does not reach its objective")
    return max(got, start)
