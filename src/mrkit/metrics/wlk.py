"""WLK: the Weisfeiler-Leman kernel similarity of two AMR graphs (Opitz et al. 2021).

On the labelled view of :mod:`mrkit.metrics.labelled`:

* round 0 features: the set of node labels and the set of ``(label, role, label)``
  triples;
* round i = 1..k: every node's label becomes its previous label together with the sorted
  ``role_label`` strings of its neighbours (outgoing and incoming edges), and the round's
  features are the set of these labels;
* each graph is the concatenation of its binary feature vectors, round i weighted
  1/(1+i); the score is the cosine of the two vectors.

As in the reference (flipz357/weisfeiler-leman-amr-metrics, ``main_wlk.py``, k = 2),
features are occurrences (0/1), not counts.  ``edge_to_node=True`` first turns every
labelled edge into a node (the reference's ``--edge_to_node_transform``).
"""

from __future__ import annotations

import math
from typing import Sequence

from ..graph import Graph
from .labelled import LabelledGraph, check_pairs, labelled_graph, to_levi
from .registry import MetricResult, register


def wl_features(lg: LabelledGraph, k: int = 2) -> list[set]:
    """The feature sets of rounds 0..k (round 0 holds labels and triples)."""
    labels = list(lg.labels)
    feats: list[set] = [{("n", l) for l in labels} | {("t", labels[s], r, labels[t]) for s, r, t in lg.edges}]
    nbrs: list[list[tuple[str, int]]] = [[] for _ in labels]
    for s, r, t in lg.edges:
        nbrs[s].append((r, t))
        nbrs[t].append((r, s))
    for _ in range(k):
        labels = [" ::: ".join(sorted([labels[v]] + [r + "_" + labels[u] for r, u in nbrs[v]]))
                  for v in range(len(labels))]
        feats.append(set(labels))
    return feats


def weighted_cosine(fa: list[set], fb: list[set]) -> float:
    """Cosine of the concatenated 0/1 vectors, block i weighted 1/(1+i)."""
    dot = na = nb = 0.0
    for i, (a, b) in enumerate(zip(fa, fb)):
        w2 = 1.0 / (1 + i) ** 2
        dot += w2 * len(a & b)
        na += w2 * len(a)
        nb += w2 * len(b)
    if na == 0 and nb == 0:
        return 1.0
    if na == 0 or nb == 0:
        return 0.0
    return min(1.0, dot / math.sqrt(na * nb))


def wlk_pair(gold: Graph, system: Graph, k: int = 2, edge_to_node: bool = False) -> float:
    a, b = labelled_graph(gold), labelled_graph(system)
    if edge_to_node:
        a, b = to_levi(a), to_levi(b)
    return weighted_cosine(wl_features(a, k), wl_features(b, k))


@register("wlk")
def wlk_metric(golds: Sequence[Graph], systems: Sequence[Graph], k: int = 2,
               edge_to_node: bool = False, **_) -> MetricResult:
    """Per pair: WLK cosine; corpus: mean of pairs."""
    check_pairs(golds, systems)
    per = [wlk_pair(g, s, k, edge_to_node) for g, s in zip(golds, systems)]
    return MetricResult("wlk", per, sum(per) / len(per) if per else 1.0,
                        {"k": k, "edge_to_node": edge_to_node, "corpus": "mean of pairs"})
