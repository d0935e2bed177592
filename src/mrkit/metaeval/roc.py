"""Acceptability beyond AΔ: how well a metric's score separates acceptable from
unacceptable parses.

:func:`roc_auc` is the area under the ROC curve (the probability that a random acceptable
parse scores higher than a random unacceptable one, ties counted half: the Mann-Whitney U
statistic over n+ x n-); :func:`best_threshold` the score threshold t ("acceptable when
score >= t") that maximises Youden's J = true-positive rate - false-positive rate, with
the accuracy it reaches.  Unjudged parses (NaN) are left out.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.stats import rankdata


def _split(scores: Sequence[float], acceptable: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(scores, dtype=float)
    a = np.asarray(acceptable, dtype=float)
    keep = ~np.isnan(a)
    return s[keep], a[keep]


def roc_auc(scores: Sequence[float], acceptable: Sequence[float]) -> float:
    """ROC-AUC of ``scores`` for telling ``acceptable == 1`` from ``== 0`` (NaN if one class is empty)."""
    s, a = _split(scores, acceptable)
    pos, neg = int((a == 1).sum()), int((a == 0).sum())
    if pos == 0 or neg == 0:
        return float("nan")
    ranks = rankdata(s[(a == 1) | (a == 0)])
    lab = a[(a == 1) | (a == 0)]
    u = ranks[lab == 1].sum() - pos * (pos + 1) / 2
    return float(u / (pos * neg))


def best_threshold(scores: Sequence[float], acceptable: Sequence[float]) -> dict:
    """The threshold with the largest Youden J (the lowest such threshold on a tie), its
    J, true- and false-positive rates and accuracy."""
    s, a = _split(scores, acceptable)
    m = (a == 1) | (a == 0)
    s, a = s[m], a[m]
    pos, neg = int((a == 1).sum()), int((a == 0).sum())
    if pos == 0 or neg == 0:
        nan = float("nan")
        return {"threshold": nan, "youden": nan, "tpr": nan, "fpr": nan, "accuracy": nan}
    best = None
    for t in np.unique(s):
        pred = s >= t
        tpr = float((pred & (a == 1)).sum() / pos)
        fpr = float((pred & (a == 0)).sum() / neg)
        j = tpr - fpr
        if best is None or j > best[0] + 1e-12:
            best = (j, float(t), tpr, fpr, float((pred == (a == 1)).mean()))
    j, t, tpr, fpr, acc = best
    return {"threshold": t, "youden": j, "tpr": tpr, "fpr": fpr, "accuracy": acc}
