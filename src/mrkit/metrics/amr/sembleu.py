"""SemBLEU (Song & Gildea 2019): BLEU over graph n-grams.

The n-grams of a graph (on the labelled view of :mod:`mrkit.features.labelled`, so
inverted roles are un-inverted properly and attribute values are nodes):

* n = 1: every node label;
* n = 2: ``label :role label`` for every edge;
* n = 3: ``label :role label :role label`` for every path of two distinct edges.

The score is BLEU with clipped n-gram precision up to ``k`` (default 3), weights
``1/k`` each (they sum to 1), the brevity penalty over graph sizes (nodes + edges, as the
reference counts them), NIST geometric smoothing (Chen & Cherry's method 3) and
re-weighting to uniform ``1/m`` when no system graph has an n-gram longer than ``m``
(``auto_reweigh``).  ``sembleu_corpus`` sums the counts over the corpus (corpus BLEU);
each pair's sentence score is the same formula on that pair alone.

Differences from the reference (freesunshine0316/sembleu): its weights are
(0.34, 0.33, 0.34), which sum to 1.01 (pass ``weights=`` to reproduce them); it deletes
the string "-of" from every role and reverses the edge, which turns ``:consist-of``
into a reversed ``:consist``; it only collects n-grams from nodes reachable from a
parentless node, mrkit from every node.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ...model.graph import Graph
from ...features.labelled import LabelledGraph, check_pairs, labelled_graph
from ..registry import MetricResult, register

REFERENCE_WEIGHTS = (0.34, 0.33, 0.34)
"""The weights of the reference eval.py (they sum to 1.01)."""


@dataclass
class NgramStats:
    ngrams: dict[int, Counter]
    length: int


def graph_ngrams(lg: LabelledGraph, k: int = 3) -> NgramStats:
    out = lg.out_edges()
    grams: dict[int, Counter] = {n: Counter() for n in range(1, k + 1)}
    for v, label in enumerate(lg.labels):
        grams[1][(label,)] += 1
        if k < 2:
            continue
        for e1, (r1, m) in enumerate(out[v]):
            grams[2][(label, ":" + r1, lg.labels[m])] += 1
            if k < 3:
                continue
            for r2, t in out[m]:
                if m == v and (r2, t) == (r1, m):
                    continue  # the same self-loop twice
                grams[3][(label, ":" + r1, lg.labels[m], ":" + r2, lg.labels[t])] += 1
    if k > 3:
        raise ValueError("SemBLEU n-grams are defined up to n = 3")
    return NgramStats(grams, len(lg.labels) + len(lg.edges))


def _bleu(stats: Sequence[tuple[NgramStats, NgramStats]], weights: Sequence[float]) -> float:
    """BLEU of (reference, hypothesis) n-gram statistics, summed over the pairs."""
    num: Counter = Counter()
    den: Counter = Counter()
    hyp_len = ref_len = 0
    for ref, hyp in stats:
        for n in range(1, len(weights) + 1):
            counts = hyp.ngrams.get(n, Counter())
            total = sum(counts.values())
            if total == 0:
                continue
            refc = ref.ngrams.get(n, Counter())
            num[n] += sum(min(c, refc[g]) for g, c in counts.items())
            den[n] += total
        hyp_len += hyp.length
        ref_len += ref.length
    if hyp_len == 0:
        return 1.0 if ref_len == 0 else 0.0
    if num[1] == 0:
        return 0.0
    max_gram = max(n for n in den if den[n] > 0)
    if max_gram < len(weights):
        weights = (1.0 / max_gram,) * max_gram
    bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    logs = 0.0
    inc = 1
    for n, w in enumerate(weights, start=1):
        if num[n] == 0:
            p = 1.0 / (2 ** inc * max(1, den[n]))
            inc += 1
        else:
            p = num[n] / den[n]
        logs += w * math.log(p)
    return bp * math.exp(logs)


def _weights(k: int, weights: Sequence[float] | None) -> tuple[float, ...]:
    if weights is not None:
        return tuple(weights)
    if k not in (1, 2, 3):
        raise ValueError("SemBLEU k must be 1, 2 or 3")
    return (1.0 / k,) * k


def sembleu_pair(gold: Graph, system: Graph, k: int = 3,
                 weights: Sequence[float] | None = None) -> float:
    """Sentence-level SemBLEU of one pair."""
    w = _weights(k, weights)
    return _bleu([(graph_ngrams(labelled_graph(gold), len(w)),
                   graph_ngrams(labelled_graph(system), len(w)))], w)


def sembleu_corpus(golds: Sequence[Graph], systems: Sequence[Graph], k: int = 3,
                   weights: Sequence[float] | None = None) -> tuple[float, list[float]]:
    """Corpus SemBLEU and the sentence SemBLEU of every pair."""
    check_pairs(golds, systems)
    w = _weights(k, weights)
    stats = [(graph_ngrams(labelled_graph(g), len(w)), graph_ngrams(labelled_graph(s), len(w)))
             for g, s in zip(golds, systems)]
    return _bleu(stats, w), [_bleu([st], w) for st in stats]


@register("sembleu")
def sembleu_metric(golds: Sequence[Graph], systems: Sequence[Graph], k: int = 3,
                   weights: Sequence[float] | None = None) -> MetricResult:
    """Per pair: sentence SemBLEU; corpus: corpus SemBLEU (not the mean of pairs)."""
    corpus, per = sembleu_corpus(golds, systems, k, weights)
    return MetricResult("sembleu", per, corpus, {"k": k, "weights": list(_weights(k, weights))})
