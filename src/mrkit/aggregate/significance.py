"""Paired significance of per-item score differences, and bootstrap intervals of any
statistic over items: the forms the meta-evaluation uses, computed by
:mod:`mrkit.aggregate.resampling` (the one place that resamples).

Items (sentences) are the resampling unit: the parses of one sentence by all systems stay
together, since they share its difficulty.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .resampling import bootstrap_indices, bootstrap_values, interval, mean_reduce, paired_test

__all__ = ["bootstrap_ci", "bootstrap_indices", "paired_difference"]


def bootstrap_ci(stat: Callable[[np.ndarray], float], n: int, samples: int = 1000,
                 seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of ``stat(indices)`` over bootstrap resamples of ``n`` items."""
    if n == 0 or samples <= 0:
        return (float("nan"), float("nan"))
    return interval(bootstrap_values(stat, n, samples, seed), level)


def paired_difference(xs: Sequence[float], ys: Sequence[float], samples: int = 1000,
                      seed: int = 0, level: float = 0.95) -> dict:
    """Mean paired difference x - y with a paired-bootstrap interval and two p-values
    (``p_randomization``: approximate randomization; ``p_bootstrap``: two-sided paired
    bootstrap; see :func:`mrkit.aggregate.resampling.paired_test`, of which this is the
    mean-of-items case).  With ``samples <= 0`` only the mean is computed (interval NaN,
    p-values None)."""
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    n = len(x)
    if n == 0:
        nan = float("nan")
        return {"mean": nan, "ci": (nan, nan), "p_randomization": 1.0, "p_bootstrap": 1.0}
    ones = np.ones(n)
    t = paired_test(np.c_[x, ones], np.c_[y, ones], mean_reduce, samples, seed, level)["f1"]
    return {"mean": t["difference"], "ci": t["ci"], "p_randomization": t["p_randomization"],
            "p_bootstrap": t["p_bootstrap"]}
