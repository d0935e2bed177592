"""Spearman rank correlation between metrics over the same scored parses."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
from scipy.stats import spearmanr


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rho; NaN when either side is constant (rho is undefined there)."""
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(spearmanr(x, y).statistic)


def spearman_matrix(scores: Mapping[str, Sequence[float]]) -> dict[str, dict[str, float]]:
    """rho for every pair of metrics; ``scores[name]`` lists the metric's score of each parse."""
    names = list(scores)
    out: dict[str, dict[str, float]] = {a: {} for a in names}
    for i, a in enumerate(names):
        for b in names[i:]:
            rho = 1.0 if a == b and np.ptp(np.asarray(scores[a], dtype=float)) > 0 else \
                spearman(scores[a], scores[b])
            out[a][b] = out[b][a] = rho
    return out


def finite_or_none(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x
