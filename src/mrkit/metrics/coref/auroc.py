"""Multiclass AUROC over mention pairs (SciCo's removed ``eval/stat_metrics.py``).

Each ordered pair of gold mentions has a gold class (:mod:`.pairs`: none, coreferent,
parent, child) and a score per class from the system: either the one-hot vector of the
class the system's clusters and hierarchy give the pair (what SciCo's code does) or the
probabilities a pair scorer wrote (a cross-encoder's output).  The score is scikit-learn's
``roc_auc_score(..., multi_class="ovo", average="macro")`` (Hand & Till 2001): for every
pair of classes (a, b), the mean of the binary AUC of "a against b" on the pairs whose
gold class is a or b scored by column a, and of "b against a" scored by column b; the
mean over the pairs of classes.  A binary AUC is the Mann-Whitney statistic, ties
counting one half (equal to the trapezoidal area under the ROC curve).

Undefined (``None``) when a class has no gold pair, as scikit-learn raises then: SciCo
reports it only for the pooled pairs of the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .pairs import CLASSES


def binary_auc(positive: Sequence[float], negative: Sequence[float]) -> float:
    """P(score of a positive > score of a negative) + 1/2 P(equal), by average ranks."""
    import numpy as np
    from scipy.stats import rankdata

    pos = np.asarray(positive, dtype=np.float64)
    neg = np.asarray(negative, dtype=np.float64)
    ranks = rankdata(np.concatenate([pos, neg]))
    n_pos, n_neg = len(pos), len(neg)
    return float((ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def ovo_auroc(labels: Sequence[int], scores, n_classes: int = len(CLASSES)) -> float | None:
    """Macro one-vs-one AUROC of ``scores`` (one row of ``n_classes`` per item) against
    integer ``labels``; ``None`` when some class has no item."""
    import numpy as np

    y = np.asarray(labels, dtype=np.int64)
    s = np.asarray(scores, dtype=np.float64).reshape(len(y), n_classes)
    present = [k for k in range(n_classes) if (y == k).any()]
    if len(present) != n_classes:
        return None
    values = []
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            in_a, in_b = y == a, y == b
            ab = binary_auc(s[in_a, a], s[in_b, a])
            ba = binary_auc(s[in_b, b], s[in_a, b])
            values.append((ab + ba) / 2)
    return float(np.mean(values))


def one_hot(classes: Sequence[int], n_classes: int = len(CLASSES)):
    import numpy as np

    out = np.zeros((len(classes), n_classes))
    out[np.arange(len(classes)), np.asarray(classes, dtype=np.int64)] = 1
    return out


@dataclass
class AurocResult:
    """Pooled AUROC over the pairs of every topic, and each topic's own (``None``:
    a class has no gold pair in it)."""

    score: float | None
    per_topic: dict
    pairs: int

    def to_dict(self) -> dict:
        return {"auroc": self.score, "pairs": self.pairs, "per_topic": self.per_topic}


def auroc(items: Sequence[tuple[str, Sequence[int], object]]) -> AurocResult:
    """``items``: (topic id, gold classes, score rows) per topic."""
    import numpy as np

    labels, rows, per_topic, n = [], [], {}, 0
    for tid, y, s in items:
        s = np.asarray(s, dtype=np.float64).reshape(len(y), len(CLASSES))
        per_topic[tid] = ovo_auroc(y, s)
        labels.extend(y)
        rows.append(s)
        n += len(y)
    pooled = ovo_auroc(labels, np.concatenate(rows) if rows else np.zeros((0, len(CLASSES))))
    return AurocResult(pooled, per_topic, n)


def structure_auroc(pairs: Sequence[tuple]) -> AurocResult:
    """SciCo's AUROC: (gold topic, system topic) pairs; the system's scores are the
    one-hot classes of its own clusters and hierarchy, over the gold mentions."""
    from .pairs import mention_list, pair_classes

    items = []
    for g, s in pairs:
        mentions = [m for m, _ in mention_list(g)]
        items.append((g.id, pair_classes(g, mentions), one_hot(pair_classes(s, mentions))))
    return auroc(items)


def scores_auroc(pairs: Sequence[tuple], table: dict) -> AurocResult:
    """AUROC of a pair scorer's probabilities: ``table`` maps a topic id to
    ``{(i, j): {"none": p, "coref": p, "parent": p, "child": p}}`` (mention positions in
    the gold topic); every scored pair counts, with its gold class.  A topic absent from
    the table contributes no pair."""
    from .pairs import mention_list, pair_classes

    items = []
    for g, _ in pairs:
        scored = table.get(g.id)
        if not scored:
            continue
        n = len(mention_list(g))
        classes = pair_classes(g)
        y, rows = [], []
        for (i, j), values in scored.items():
            y.append(classes[i * n + j])
            rows.append([values[c] for c in CLASSES])
        items.append((g.id, y, rows))
    return auroc(items)
