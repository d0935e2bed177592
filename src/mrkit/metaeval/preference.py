"""Pair-level preference statistics: ℙ (how often a metric prefers X over Y), pairwise
accuracy against human preferences, and the binomial (sign) test on preferences.

Two scores closer than :data:`TIE_EPS` are a tie (floating-point noise must not decide a
preference).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.stats import binomtest

TIE_EPS = 1e-9


def signs(xs: Sequence[float], ys: Sequence[float], eps: float = TIE_EPS) -> np.ndarray:
    """Per item: +1 if x > y, -1 if x < y, 0 if they tie (|x - y| <= eps)."""
    d = np.asarray(xs, dtype=float) - np.asarray(ys, dtype=float)
    return np.where(d > eps, 1, np.where(d < -eps, -1, 0))


def human_signs(preference: Sequence[float | None]) -> np.ndarray:
    """Human preferences 1 / 0 / 0.5 (first / second / equal) as +1 / -1 / 0; NaN if unjudged."""
    return np.array([np.nan if p is None else (1.0 if p == 1.0 else -1.0 if p == 0.0 else 0.0)
                     for p in preference])


def preference_share(s: Sequence[float]) -> float:
    """ℙ(X over Y): share of items where X wins, ties counted half (NaN items skipped)."""
    a = np.asarray(s, dtype=float)
    a = a[~np.isnan(a)]
    if len(a) == 0:
        return float("nan")
    return float(((a > 0).sum() + 0.5 * (a == 0).sum()) / len(a))


def pairwise_accuracy(human: Sequence[float], metric: Sequence[float], ties: str = "exclude") -> dict:
    """Share of items with a strict human preference where the metric prefers the same side.

    ``human`` and ``metric`` are signs (+1 / -1 / 0; NaN = unjudged).  Items the humans
    judged equal never count.  Items where the metric ties: ``ties="exclude"`` drops them
    (the definition of Opitz & Frank 2022's evaluation code), ``"half"`` counts them as half
    right, ``"wrong"`` as wrong.
    """
    h = np.asarray(human, dtype=float)
    m = np.asarray(metric, dtype=float)
    strict = ~np.isnan(h) & (h != 0)
    h, m = h[strict], m[strict]
    right = int((h * m > 0).sum())
    tied = int((m == 0).sum())
    if ties == "exclude":
        n = len(h) - tied
        acc = right / n if n else float("nan")
    elif ties == "half":
        n = len(h)
        acc = (right + 0.5 * tied) / n if n else float("nan")
    elif ties == "wrong":
        n = len(h)
        acc = right / n if n else float("nan")
    else:
        raise ValueError(f"ties must be exclude, half or wrong, not {ties!r}")
    return {"accuracy": acc, "right": right, "counted": n, "metric_ties": tied,
            "human_strict": int(strict.sum())}


def sign_test(s: Sequence[float], level: float = 0.95) -> dict:
    """Two-sided binomial test that X and Y win equally often (ties and NaN dropped).

    Returns wins, losses, ties, the p-value, and the Clopper-Pearson interval of the share
    of wins among decided items.
    """
    a = np.asarray(s, dtype=float)
    a = a[~np.isnan(a)]
    wins, losses, tied = int((a > 0).sum()), int((a < 0).sum()), int((a == 0).sum())
    n = wins + losses
    if n == 0:
        return {"wins": 0, "losses": 0, "ties": tied, "p": 1.0, "share": float("nan"),
                "ci": (float("nan"), float("nan"))}
    res = binomtest(wins, n, 0.5)
    ci = res.proportion_ci(confidence_level=level, method="exact")
    return {"wins": wins, "losses": losses, "ties": tied, "p": float(res.pvalue),
            "share": wins / n, "ci": (float(ci.low), float(ci.high))}
