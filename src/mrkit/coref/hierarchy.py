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
  side, as 1.  Paths run through clusters that have mentions.

Mentions of the system that gold does not have (and the reverse) take part as they are:
they are never in a gold cluster, so their relations are never correct.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..errors import InputError
from .metrics import Counts
from .scico import Topic
from .score import CorefResult, score_documents


def closure(relations: Iterable[tuple]) -> set[tuple]:
    """The relations and every pair ``(x, y)``, ``x != y``, with a directed path x -> y."""
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


def _found(relations: set, clusters: dict, other_where: dict, other_relations: set) -> int:
    found = 0
    for x, y in relations:
        xs = {other_where[m] for m in clusters.get(x, ()) if m in other_where}
        ys = {other_where[m] for m in clusters.get(y, ()) if m in other_where}
        if any((a, b) in other_relations for a in xs for b in ys):
            found += 1
    return found


def hierarchy_counts(gold: Topic, system: Topic) -> Counts:
    """The cluster-level hierarchy score of one topic."""
    g, s = closure(gold.relations), closure(system.relations)
    return Counts(_found(g, gold.clusters, _where(system), s), len(g),
                  _found(s, system.clusters, _where(gold), g), len(s))


def _half_holders(mentions: Sequence, other_where: dict, other_clusters: dict) -> set:
    if not mentions:
        return set(other_clusters)
    held = Counter(other_where[m] for m in mentions if m in other_where)
    return {c for c, n in held.items() if n >= 0.5 * len(mentions)}


def _found50(relations: set, clusters: dict, other: Topic, other_relations: set) -> int:
    where = _where(other)
    found = 0
    for x, y in relations:
        xs = _half_holders(clusters.get(x, ()), where, other.clusters)
        ys = _half_holders(clusters.get(y, ()), where, other.clusters)
        if any((a, b) in other_relations for a in xs for b in ys):
            found += 1
    return found


def hierarchy50_counts(gold: Topic, system: Topic) -> Counts:
    """The 50% variant of the hierarchy score of one topic."""
    g, s = closure(gold.relations), closure(system.relations)
    return Counts(_found50(g, gold.clusters, system, s), len(g),
                  _found50(s, system.clusters, gold, g), len(s))


def _distances(topic: Topic) -> dict:
    """Shortest directed path lengths (in relations) between clusters that have mentions."""
    nodes = set(topic.clusters)
    children: dict = {}
    for p, c in topic.relations:
        if p in nodes and c in nodes:
            children.setdefault(p, set()).add(c)
    dist = {}
    for start in nodes:
        frontier, d, seen = [start], 0, {start: 0}
        while frontier:
            d += 1
            nxt = []
            for node in frontier:
                for c in children.get(node, ()):
                    if c not in seen:
                        seen[c] = d
                        nxt.append(c)
            frontier = nxt
        dist[start] = seen
    return dist


def path_ratio_counts(gold: Topic, system: Topic, with_tn: bool = False) -> tuple[float, int]:
    """Numerator and denominator of the path-distance ratio of one topic."""
    gw, sw = _where(gold), _where(system)
    cells = Counter((gw.get(m), sw.get(m)) for m in set(gw) | set(sw))
    gd, sd = _distances(gold), _distances(system)

    def distance(dist: dict, a, b) -> int:
        if a is None or b is None:
            return 0
        if a == b:
            return 1
        n = dist[a].get(b)
        return 0 if n is None else n + 1

    num, den = 0.0, 0
    items = list(cells.items())
    for (g1, s1), w1 in items:
        for (g2, s2), w2 in items:
            a, b = distance(gd, g1, g2), distance(sd, s1, s2)
            if a == 0 and b == 0:
                if with_tn:
                    num += w1 * w2
                    den += w1 * w2
                continue
            num += w1 * w2 * min(a, b) / max(a, b)
            den += w1 * w2
    return num, den


@dataclass
class TopicScore:
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
        if per_topic:
            out["per_topic"] = {t.id: {"hierarchy": t.hierarchy.to_dict(), "hierarchy50": t.hierarchy50.to_dict(),
                                       "path_ratio": list(t.path), "path_ratio_with_tn": list(t.path_tn)}
                                for t in self.topics}
        return out


def score_topics(gold: Sequence[Topic], system: Sequence[Topic], *, keep_singletons: bool = False,
                 repeated: str = "first", system_file: str | None = None) -> HierarchyResult:
    """SciCo scores of system topics against gold topics (paired by id).

    The coreference scores use ``keep_singletons=False`` by default, as SciCo's
    evaluation does.
    """
    by_id = {t.id: t for t in system}
    scores = []
    for g in gold:
        s = by_id.get(g.id)
        if s is None:
            raise InputError("topic of the gold file is missing from the system file", system_file,
                             None, g.id, unit="topic")
        scores.append(TopicScore(g.id, hierarchy_counts(g, s), hierarchy50_counts(g, s),
                                 path_ratio_counts(g, s), path_ratio_counts(g, s, with_tn=True)))
    coref = score_documents([g.document() for g in gold], [by_id[g.id].document() for g in gold],
                            keep_singletons=keep_singletons, repeated=repeated)
    return HierarchyResult(scores, coref, {"keep_singletons": keep_singletons, "repeated": repeated})
