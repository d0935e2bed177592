"""Inter-annotator agreement as SciCo reports it (§3.4), and its correlation with a
baseline (§5.2).

Several annotations of the same topics; each unordered pair of annotators is scored
with one as gold and the other as system (the scores used are symmetric): CoNLL-F1
(singletons removed, as SciCo), the cluster-level hierarchy F1 and the path ratio.

* ``AVG``: the mean (and standard deviation) over annotator pairs of the pair's
  micro-averaged score over all topics;
* ``MAX-micro``: for each annotator, the best micro score it reaches with another;
  averaged over annotators ("the average maximal pairwise IAA");
* ``MAX-macro``: for each topic, the best score of an annotator pair on it; averaged over
  topics.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Sequence

SCORES = ("conll", "hierarchy", "path_ratio")


def _pair_scores(a: Sequence, b: Sequence) -> tuple[dict, dict]:
    """Micro scores of one annotator pair, and per-topic scores (topic id -> score)."""
    from .hierarchy import score_topics

    r = score_topics(a, b)
    micro = {"conll": r.coref.conll_f1, "hierarchy": r.prf("hierarchy")[2], "path_ratio": r.path_ratio()[0]}
    per_topic = {}
    for t, d in zip(r.topics, r.coref.documents):
        conll = sum(d.counts[m].f1 for m in ("muc", "bcub", "ceafe")) / 3
        num, den = t.path
        per_topic[t.id] = {"conll": conll, "hierarchy": t.hierarchy.f1, "path_ratio": num / den if den else 0.0}
    return micro, per_topic


def agreement(annotations: Sequence[Sequence], names: Sequence[str] | None = None) -> dict:
    """AVG, MAX-micro and MAX-macro of every score over ``annotations`` (two or more
    lists of topics with the same ids)."""
    k = len(annotations)
    if k < 2:
        raise ValueError("agreement needs two annotations or more")
    names = list(names) if names else [str(i + 1) for i in range(k)]
    pairs = {}
    for i, j in combinations(range(k), 2):
        pairs[(i, j)] = _pair_scores(annotations[i], annotations[j])
    out: dict = {"annotators": names, "pairs": {}, "per_topic": {}}
    for (i, j), (micro, _) in pairs.items():
        out["pairs"][f"{names[i]}-{names[j]}"] = micro
    topic_ids = list(next(iter(pairs.values()))[1])
    for s in SCORES:
        values = [micro[s] for micro, _ in pairs.values()]
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        best = [max(pairs[tuple(sorted((a, b)))][0][s] for b in range(k) if b != a) for a in range(k)]
        per_topic_best = [max(pt[t][s] for _, pt in pairs.values()) for t in topic_ids]
        out[s] = {"avg": mean, "std": std, "max_micro": sum(best) / k,
                  "max_macro": sum(per_topic_best) / len(per_topic_best) if per_topic_best else 0.0}
    for t in topic_ids:
        out["per_topic"][t] = {s: sum(pt[t][s] for _, pt in pairs.values()) / len(pairs) for s in SCORES}
    return out


def correlation(agreement_per_topic: dict, baseline_per_topic: dict, score: str = "conll") -> dict:
    """Pearson and Spearman correlation (with two-sided p-values) between the topics'
    mean pairwise agreement and a baseline's score on them (topics both have)."""
    from scipy.stats import pearsonr, spearmanr

    ids = [t for t in agreement_per_topic if t in baseline_per_topic]
    x = [agreement_per_topic[t][score] for t in ids]
    y = [baseline_per_topic[t] for t in ids]
    if len(ids) < 3:
        raise ValueError(f"a correlation needs three topics or more ({len(ids)} in common)")
    pr, sr = pearsonr(x, y), spearmanr(x, y)
    return {"topics": len(ids), "score": score, "pearson": float(pr[0]), "pearson_p": float(pr[1]),
            "spearman": float(sr[0]), "spearman_p": float(sr[1])}


def baseline_per_topic(gold: Sequence, system: Sequence) -> dict:
    """A system's CoNLL-F1 per topic against gold (singletons removed)."""
    _, per_topic = _pair_scores(gold, system)
    return {t: v["conll"] for t, v in per_topic.items()}
