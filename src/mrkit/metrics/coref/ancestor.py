"""Common-ancestor score of a SciCo hierarchy (SciCo's removed ``eval/ancestor.py``).

For a pair of mentions (x, y) of a topic, ``delta(x, y) = |A(x) & A(y)| / |A(x) | A(y)|``
where ``A(x)`` is x with its ancestors in the mention graph (every mention of a parent
cluster -> every mention of its child; a relation to a cluster without mentions links
nothing).  A topic scores ``1 - mean |delta_gold(x, y) - delta_system(x, y)|`` over its
unordered pairs of gold mentions (system mentions matched by span; a mention the system
lacks has no ancestor there); the corpus score is the mean of the topic scores.

SciCo's code (commit 0360781) computes this with two slips, which mrkit does not copy
(its oracle in the tests is that code with both fixed): it passes the two mentions'
*cluster ids* to ``delta`` as if they were mention indices (networkx raises when an id
is not a mention index), and its union aliases the first set, so the intersection it
takes is ``A(y)``.  A topic with fewer than two mentions has no pair: undefined, left
out of the mean (``None`` in the per-topic table).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .pairs import cluster_reach, mention_list


def _deltas(topic, where_of: Sequence):
    """delta(a, b) between the clusters (or ``None``: no cluster) of two mentions, with
    ancestor sets counted in mentions."""
    size = Counter(c for _, c in mention_list(topic))
    reach = cluster_reach(topic)
    ancestors: dict = {c: set() for c in reach}
    for p, kids in reach.items():
        for k in kids:
            ancestors[k].add(p)
    weight = {c: sum(size[a] for a in anc) for c, anc in ancestors.items()}

    def delta(a, b) -> float:
        if a is None or b is None:  # a mention without cluster: only itself
            inter = 0
            union = (weight[a] if a is not None else 0) + (weight[b] if b is not None else 0) + 2
            return inter / union
        aa, ab = ancestors[a], ancestors[b]
        inter = sum(size[c] for c in aa & ab) + (a in ab) + (b in aa)
        union = weight[a] + 1 + weight[b] + 1 - inter
        return inter / union

    return delta


def topic_score(gold, system) -> float | None:
    """The common-ancestor score of one pair of topics (``None``: under two mentions)."""
    mentions = [m for m, _ in mention_list(gold)]
    if len(mentions) < 2:
        return None
    gw = dict(mention_list(gold))
    sw = dict(mention_list(system))
    cells = Counter((gw[m], sw.get(m)) for m in mentions)
    dg, ds = _deltas(gold, ()), _deltas(system, ())
    keys = list(cells)
    total = 0.0
    for i, (g1, s1) in enumerate(keys):
        n1 = cells[(g1, s1)]
        if n1 > 1:
            total += n1 * (n1 - 1) / 2 * abs(dg(g1, g1) - (ds(s1, s1) if s1 is not None else 0.0))
        for g2, s2 in keys[i + 1:]:
            total += n1 * cells[(g2, s2)] * abs(dg(g1, g2) - ds(s1, s2))
    n = len(mentions)
    return 1 - total / (n * (n - 1) / 2)


@dataclass
class AncestorResult:
    """The common-ancestor score of a corpus and of every topic."""

    score: float
    per_topic: dict

    def to_dict(self) -> dict:
        return {"common_ancestor": self.score, "per_topic": self.per_topic}


def common_ancestor(pairs: Sequence[tuple]) -> AncestorResult:
    """Mean of the topics' scores over (gold, system) topic pairs (topics without a pair
    of mentions left out; 0 when none is left)."""
    per_topic = {g.id: topic_score(g, s) for g, s in pairs}
    defined = [v for v in per_topic.values() if v is not None]
    return AncestorResult(sum(defined) / len(defined) if defined else 0.0, per_topic)
