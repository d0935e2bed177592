"""SciCo's hierarchy scores over clusters (Cattan et al. 2021), matching mentions by span.

* **Hierarchy score**: the units are the parent -> child relations between clusters
  after transitive closure (on both sides).  A gold relation ``X -> Y`` is recalled when
  some mention of X and some mention of Y sit in system clusters ``A -> B`` related in
  the system's closure; precision is the same with the roles swapped.
* **50% variant**: ``X -> Y`` is recalled when some ``A -> B`` of the system's closure
  has A holding at least half of X's mentions and B at least half of Y's (and the other
  way round for precision).  Taken literally, as in SciCo's code, a cluster without
  mentions is "half held" by every cluster of the other side.
* **Path ratio**: over ordered pairs of mentions (a mention with itself included) that
  are connected in gold or in the system, ``min(d_g, d_s) / max(d_g, d_s)`` where
  ``d`` is 1 for the same cluster, 1 + the length of the shortest directed path between
  the clusters otherwise, 0 when not connected; micro (sum over topics, then divide) and
  macro (mean of the topic ratios).  ``with_tn`` also counts pairs connected on neither
  side, as 1.  Paths run through every cluster a relation names, also one without
  mentions (as SciCo's ``shortest_path.py`` builds its graph from the relations).

Mentions of the system that gold does not have (and the reverse) take part as they are:
they are never in a gold cluster, so their relations are never correct.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ...errors import InputError
from .metrics import Counts
from ...codecs.scico import Topic, find_cycle
from .score import CorefResult, score_documents


def closure(relations: Iterable[tuple]) -> set[tuple]:
    """The relations and every pair ``(x, y)``, ``x != y``, with a directed path x -> y.

    Materialises the closure (quadratic for a chain): the scores below count it
    without building it; this stays for callers who want the pairs themselves.
    """
    rel = set(relations)
    children: dict = {}
    for p, c in rel:
        children.setdefault(p, set()).add(c)
    out = set(rel)
    for start in children:
        seen, stack = set(), list(children[start])
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(children.get(node, ()))
        out.update((start, n) for n in seen if n != start)
    return out


def _where(topic: Topic) -> dict:
    return {m: c for c, ms in topic.clusters.items() for m in ms}


class _Graph:
    """The clusters and relations of one side, indexed, in an order where every parent
    comes before its children (the relations must not form a cycle)."""

    def __init__(self, topic: Topic):
        self.topic = topic
        index: dict = {}
        for c in topic.clusters:
            index.setdefault(c, len(index))
        for p, c in topic.relations:
            index.setdefault(p, len(index))
            index.setdefault(c, len(index))
        self.index = index
        children: list[set[int]] = [set() for _ in index]
        indegree = [0] * len(index)
        for p, c in topic.relations:
            ci = index[c]
            kids = children[index[p]]
            if ci not in kids:
                kids.add(ci)
                indegree[ci] += 1
        self.children = [sorted(k) for k in children]
        order = [i for i, d in enumerate(indegree) if d == 0]
        for i in order:  # Kahn's algorithm (the list grows while it is read)
            for c in self.children[i]:
                indegree[c] -= 1
                if indegree[c] == 0:
                    order.append(c)
        if len(order) != len(index):
            cycle = find_cycle(topic.relations)
            raise InputError("the relations form a cycle: " + " -> ".join(map(repr, cycle or ())),
                             topic.source_file, topic.source_line, topic.id, unit="topic")
        self.order = order

    def reach(self) -> list[int]:
        """For every node, the bit set (an int) of the nodes it has a path to."""
        reach = [0] * len(self.index)
        for i in reversed(self.order):
            r = 0
            for c in self.children[i]:
                r |= reach[c] | (1 << c)
            reach[i] = r
        return reach

    def below(self, marks: list[int]) -> list[int]:
        """For every node, the union of ``marks[b]`` over the nodes b it has a path to."""
        out = [0] * len(self.index)
        for i in reversed(self.order):
            r = 0
            for c in self.children[i]:
                r |= out[c] | marks[c]
            out[i] = r
        return out


def _count(side: _Graph, other: _Graph, holders) -> tuple[int, int]:
    """Relations of ``side``'s closure (x, y) for which some a in holders(x) and b in
    holders(y) are related in ``other``'s closure, and the size of that closure.

    With bit sets over ``side``'s nodes: ``marks[b]`` holds every y with b in holders(y),
    ``other.below(marks)[a]`` every y held by a node below a, so x's found relations are
    its reach intersected with the union of that over holders(x).  About
    (relations + mentions) x clusters / 64 word operations: no pair is enumerated.
    """
    reach = side.reach()
    held = [holders(x) for x in side.index]
    marks = [0] * len(other.index)
    for y, hs in enumerate(held):
        for b in hs:
            marks[other.index[b]] |= 1 << y
    below = other.below(marks)
    found = 0
    for x, hs in enumerate(held):
        if reach[x]:
            union = 0
            for a in hs:
                union |= below[other.index[a]]
            found += (reach[x] & union).bit_count()
    return found, sum(r.bit_count() for r in reach)


def _holders_all(topic: Topic, other: Topic):
    where = _where(other)
    return lambda x: {where[m] for m in topic.clusters.get(x, ()) if m in where}


def _holders_half(topic: Topic, other: Topic):
    where = _where(other)
    return lambda x: _half_holders(topic.clusters.get(x, ()), where, other.clusters)


def hierarchy_counts(gold: Topic, system: Topic) -> Counts:
    """The cluster-level hierarchy score of one topic."""
    g, s = _Graph(gold), _Graph(system)
    r_num, r_den = _count(g, s, _holders_all(gold, system))
    p_num, p_den = _count(s, g, _holders_all(system, gold))
    return Counts(r_num, r_den, p_num, p_den)


def _half_holders(mentions: Sequence, other_where: dict, other_clusters: dict) -> set:
    if not mentions:
        return set(other_clusters)
    held = Counter(other_where[m] for m in mentions if m in other_where)
    return {c for c, n in held.items() if n >= 0.5 * len(mentions)}


def hierarchy50_counts(gold: Topic, system: Topic) -> Counts:
    """The 50% variant of the hierarchy score of one topic."""
    g, s = _Graph(gold), _Graph(system)
    r_num, r_den = _count(g, s, _holders_half(gold, system))
    p_num, p_den = _count(s, g, _holders_half(system, gold))
    return Counts(r_num, r_den, p_num, p_den)


def _distance_rows(topic: Topic, sources, targets):
    """``d[i, j]`` between the clusters numbered ``sources[i]`` and ``targets[j]`` (-1: no
    cluster): 1 for the same cluster, 1 + the shortest directed path (through any
    cluster a relation names, with mentions or not), 0 when not connected.  Breadth-first
    searches in scipy."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    index = {c: i for i, c in enumerate(topic.clusters)}
    out = np.zeros((len(sources), len(targets)), dtype=np.int64)
    if not index:
        return out
    for rel in topic.relations:  # clusters without mentions: after the numbered ones
        for c in rel:
            index.setdefault(c, len(index))
    n = len(index)
    edges = [(index[p], index[c]) for p, c in topic.relations]
    rows = np.array([e[0] for e in edges], dtype=np.int64)
    cols = np.array([e[1] for e in edges], dtype=np.int64)
    graph = csr_matrix((np.ones(len(edges)), (rows, cols)), shape=(n, n))
    valid = sources >= 0
    uniq, pos = np.unique(sources[valid], return_inverse=True)
    if len(uniq) == 0:
        return out
    dist = shortest_path(graph, directed=True, unweighted=True, indices=uniq)
    dist = np.atleast_2d(dist)
    tvalid = targets >= 0
    block = dist[pos][:, targets[tvalid]]
    finite = np.isfinite(block)
    sub = np.zeros(block.shape, dtype=np.int64)
    sub[finite] = block[finite].astype(np.int64) + 1
    out[np.ix_(np.flatnonzero(valid), np.flatnonzero(tvalid))] = sub
    return out


def _path_parts(gold: Topic, system: Topic) -> tuple[float, int, int]:
    """Numerator and denominator of the path ratio, and the number of mentions.

    Ordered pairs of mentions are grouped by their (gold cluster, system cluster)
    cells; distances come a block of rows at a time (bounded memory), and the numerator
    is summed exactly per distinct (shorter, longer) distance pair."""
    import numpy as np

    gw, sw = _where(gold), _where(system)
    cells = Counter((gw.get(m), sw.get(m)) for m in set(gw) | set(sw))
    gidx = {c: i for i, c in enumerate(gold.clusters)}
    sidx = {c: i for i, c in enumerate(system.clusters)}
    keys = sorted(cells.items(), key=lambda kv: (gidx.get(kv[0][0], -1), sidx.get(kv[0][1], -1)))
    gi = np.array([gidx.get(g, -1) for (g, _), _ in keys], dtype=np.int64)
    si = np.array([sidx.get(s, -1) for (_, s), _ in keys], dtype=np.int64)
    w = np.array([n for _, n in keys], dtype=np.int64)
    total = int(w.sum())
    n_cells = len(keys)
    ratios: Counter = Counter()
    den = 0
    # Rows whose clusters have no relation to another cluster on either side
    # (leaves, unrelated clusters, mentions one side lacks) reach only their own clusters:
    # distance 1 to the cells sharing their gold (or system) cluster, 0 to all others.
    # Counted directly, so that only the other rows take the blocks of distances.
    def has_children(topic: Topic, index: dict) -> np.ndarray:
        out = np.zeros(len(index) + 1, dtype=bool)  # the last slot: no cluster (-1)
        for p, c in topic.relations:
            if p in index and c != p:  # a child without mentions may lead further
                out[index[p]] = True
        return out

    g_out, s_out = has_children(gold, gidx), has_children(system, sidx)
    trivial = ~g_out[gi] & ~s_out[si]
    g_mass = np.bincount(gi[gi >= 0], weights=w[gi >= 0], minlength=len(gidx)).astype(np.int64)
    s_mass = np.bincount(si[si >= 0], weights=w[si >= 0], minlength=len(sidx)).astype(np.int64)
    for g, s_, n in zip(gi[trivial].tolist(), si[trivial].tolist(), w[trivial].tolist()):
        same_g = int(g_mass[g]) if g >= 0 else 0
        same_s = int(s_mass[s_]) if s_ >= 0 else 0
        both = n if g >= 0 and s_ >= 0 else 0  # the cell itself: 1 on both sides
        den += n * (same_g + same_s - both)
        if both:
            ratios[(1, 1)] += n * n
    rest = np.flatnonzero(~trivial)
    step = max(1, 1_000_000 // max(n_cells, 1))
    for start in range(0, len(rest), step):
        rows = rest[start:start + step]
        a = _distance_rows(gold, gi[rows], gi)
        b = _distance_rows(system, si[rows], si)
        weight = w[rows][:, None] * w[None, :]
        den += int(weight[(a > 0) | (b > 0)].sum())
        both = (a > 0) & (b > 0)
        lo = np.minimum(a, b)[both]
        hi = np.maximum(a, b)[both]
        if len(lo):
            width = int(hi.max()) + 1
            code, inverse = np.unique(lo * width + hi, return_inverse=True)
            sums = np.zeros(len(code), dtype=np.int64)
            np.add.at(sums, inverse.ravel(), weight[both])
            for c, n in zip(code.tolist(), sums.tolist()):
                ratios[divmod(c, width)] += n
    num = math.fsum(n * lo / hi for (lo, hi), n in sorted(ratios.items()))
    return num, den, total


def path_ratio_counts(gold: Topic, system: Topic, with_tn: bool = False) -> tuple[float, int]:
    """Numerator and denominator of the path-distance ratio of one topic."""
    num, den, total = _path_parts(gold, system)
    if with_tn:  # the pairs connected on neither side count 1 each
        return num + (total * total - den), total * total
    return num, den


@dataclass
class TopicScore:
    """The hierarchy counts of one topic."""

    id: str
    hierarchy: Counts
    hierarchy50: Counts
    path: tuple[float, int]
    path_tn: tuple[float, int]


@dataclass
class HierarchyResult:
    """SciCo scores of a corpus of topics, with the coreference scores of its clusters."""

    topics: list[TopicScore]
    coref: CorefResult
    options: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    """Further scores asked for (``auroc``, ``auroc_scores``, ``common_ancestor``,
    ``components``), each a dict, reported as they are."""

    def _sum(self, name: str) -> Counts:
        total = Counts()
        for t in self.topics:
            total = total + getattr(t, name)
        return total

    def prf(self, name: str) -> tuple[float, float, float]:
        """Micro recall, precision, F1 of ``hierarchy`` or ``hierarchy50``."""
        c = self._sum(name)
        return c.recall, c.precision, c.f1

    def macro_f1(self, name: str) -> float:
        return sum(getattr(t, name).f1 for t in self.topics) / len(self.topics) if self.topics else 0.0

    def path_ratio(self, with_tn: bool = False) -> tuple[float, float]:
        """Micro and macro path-distance ratio."""
        parts = [t.path_tn if with_tn else t.path for t in self.topics]
        num, den = sum(p[0] for p in parts), sum(p[1] for p in parts)
        micro = num / den if den else 0.0
        macro = sum(n / d if d else 0.0 for n, d in parts) / len(parts) if parts else 0.0
        return micro, macro

    @property
    def undefined(self) -> list[str]:
        """Scores that rest on a 0/0 (shown as 0): ``hierarchy`` / ``hierarchy50`` with
        no relations on a side, ``path_ratio`` with no connected pair, and the coreference
        metrics' (``coref muc``, ...)."""
        out = [name for name in ("hierarchy", "hierarchy50") if self._sum(name).undefined]
        if not sum(t.path[1] for t in self.topics):
            out.append("path_ratio")
        if not sum(t.path_tn[1] for t in self.topics):
            out.append("path_ratio_with_tn")
        return out + [f"coref {m}" for m in self.coref.undefined]

    def to_dict(self, per_topic: bool = False) -> dict:
        out: dict = {"topics": len(self.topics), "options": self.options}
        for name in ("hierarchy", "hierarchy50"):
            r, p, f = self.prf(name)
            c = self._sum(name)
            out[name] = {"recall": r, "precision": p, "f1": f, "macro_f1": self.macro_f1(name),
                         "counts": {"r_num": c.r_num, "r_den": c.r_den, "p_num": c.p_num, "p_den": c.p_den}}
        for key, tn in (("path_ratio", False), ("path_ratio_with_tn", True)):
            micro, macro = self.path_ratio(tn)
            out[key] = {"micro": micro, "macro": macro}
        out["coref"] = self.coref.to_dict()["scores"]
        out["undefined"] = self.undefined
        out.update(self.extra)
        if per_topic:
            out["per_topic"] = {t.id: {"hierarchy": t.hierarchy.to_dict(), "hierarchy50": t.hierarchy50.to_dict(),
                                       "path_ratio": list(t.path), "path_ratio_with_tn": list(t.path_tn)}
                                for t in self.topics}
        return out


def pair_topics(gold: Sequence[Topic], system: Sequence[Topic],
                system_file: str | None = None) -> list[tuple[Topic, Topic]]:
    """(gold, system) topics paired by id, in gold order; a topic id twice on a side, a
    system topic gold lacks or a gold topic the system lacks is an :class:`InputError`."""
    for side in (gold, system):
        seen: set = set()
        for t in side:
            if t.id in seen:
                raise InputError("topic id appears twice", t.source_file, t.source_line, t.id, unit="topic")
            seen.add(t.id)
    by_id = {t.id: t for t in system}
    gold_ids = {t.id for t in gold}
    for t in system:
        if t.id not in gold_ids:
            raise InputError("topic of the system file is not in the gold file", t.source_file, t.source_line,
                             t.id, unit="topic")
    pairs = []
    for g in gold:
        s = by_id.get(g.id)
        if s is None:
            raise InputError("topic of the gold file is missing from the system file", system_file,
                             None, g.id, unit="topic")
        pairs.append((g, s))
    return pairs


def score_topic(gold: Topic, system: Topic) -> TopicScore:
    """Hierarchy, 50% hierarchy and path-ratio counts of one pair of topics."""
    num, den, total = _path_parts(gold, system)
    return TopicScore(gold.id, hierarchy_counts(gold, system), hierarchy50_counts(gold, system),
                      (num, den), (num + (total * total - den), total * total))


def score_topics(gold: Sequence[Topic], system: Sequence[Topic], *, keep_singletons: bool = False,
                 repeated: str = "first", system_file: str | None = None) -> HierarchyResult:
    """SciCo scores of system topics against gold topics (paired by id).

    The coreference scores use ``keep_singletons=False`` by default, as SciCo's
    evaluation does.
    """
    pairs = pair_topics(gold, system, system_file)
    scores = [score_topic(g, s) for g, s in pairs]
    coref = score_documents([g.document() for g, _ in pairs], [s.document() for _, s in pairs],
                            keep_singletons=keep_singletons, repeated=repeated)
    return HierarchyResult(scores, coref, {"keep_singletons": keep_singletons, "repeated": repeated})
