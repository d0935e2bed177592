"""SciCo's two-stage pipeline from a pair scorer's probabilities (§4, Appendix B.2).

1. Clusters: average-linkage agglomerative clustering of the topic's mentions over the
   distance ``1 - p_coref``, the probability of a pair taken as the larger of (i, j)
   and (j, i) (SciCo's ``undirect_adjacency_matrix``), 1 on the diagonal, 0 for a pair
   with no score; distance threshold ``coref_threshold`` (the paper's tuned 0.6).
2. Hierarchy: for every ordered pair of distinct clusters (C1, C2), the mean over the
   scored mention pairs (m1 in C1, m2 in C2) of ``p_child(m1, m2)`` (m1 is a child of
   m2; when the file has no ``child`` column, ``p_parent(m2, m1)``) scores "C2 is the
   parent of C1"; relations are inserted greedily (:mod:`.hierarchy`), highest first,
   none below ``hierarchy_threshold`` (the paper's 0.4), never a cycle.
"""

from __future__ import annotations

from ..codecs.scico import Topic
from ..metrics.coref.pairs import mention_list
from .agglomerative import agglomerative
from .hierarchy import cluster_scores, greedy_relations
from .levenshtein import predicted_topic

COREF_THRESHOLD = 0.6
HIERARCHY_THRESHOLD = 0.4


def predict_topic(topic: Topic, scores: dict, coref_threshold: float = COREF_THRESHOLD,
                  hierarchy_threshold: float = HIERARCHY_THRESHOLD) -> Topic:
    """``scores``: ``{(i, j): {"coref": p, "child": p, "parent": p, ...}}`` over mention
    positions of ``topic``."""
    mentions = [m for m, _ in mention_list(topic)]
    n = len(mentions)
    prob = [[0.0] * n for _ in range(n)]
    for (i, j), v in scores.items():
        p = v.get("coref")
        if p is not None and i != j:
            prob[i][j] = prob[j][i] = max(prob[i][j], p)
    dist = [[0.0 if i == j else 1.0 - prob[i][j] for j in range(n)] for i in range(n)]
    labels = agglomerative(dist, coref_threshold)

    def child(i: int, j: int) -> float:
        v = scores[(i, j)]
        if "child" in v:
            return v["child"]
        back = scores.get((j, i), {})
        return back.get("parent", 0.0)

    usable = [(i, j) for (i, j), v in scores.items()
              if "child" in v or "parent" in scores.get((j, i), {})]
    means = cluster_scores(labels, child, usable)
    candidates = [(parent, kid, s) for (kid, parent), s in sorted(means.items())]
    relations = greedy_relations(candidates, hierarchy_threshold)
    return predicted_topic(topic, mentions, labels, relations)
