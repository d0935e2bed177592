"""Paired significance of score differences, and bootstrap intervals over items.

All resampling is seeded (numpy ``default_rng(seed)``), so every number is reproducible.
Items (sentences) are the resampling unit: the parses of one sentence by all systems stay
together, since they share its difficulty.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np


def _interval(values: np.ndarray, level: float) -> tuple[float, float]:
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return (float("nan"), float("nan"))
    lo, hi = (1 - level) / 2 * 100, (1 + level) / 2 * 100
    return (float(np.percentile(values, lo)), float(np.percentile(values, hi)))


def bootstrap_indices(n: int, samples: int, seed: int) -> np.ndarray:
    """``samples`` x ``n`` item indices drawn with replacement."""
    return np.random.default_rng(seed).integers(0, n, size=(samples, n))


def bootstrap_ci(stat: Callable[[np.ndarray], float], n: int, samples: int = 1000,
                 seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of ``stat(indices)`` over bootstrap resamples of ``n`` items."""
    if n == 0 or samples <= 0:
        return (float("nan"), float("nan"))
    idx = bootstrap_indices(n, samples, seed)
    return _interval(np.array([stat(row) for row in idx], dtype=float), level)


def paired_difference(xs: Sequence[float], ys: Sequence[float], samples: int = 1000,
                      seed: int = 0, level: float = 0.95) -> dict:
    """Mean paired difference x - y with a paired-bootstrap interval and two p-values.

    - ``p_randomization``: approximate randomization (each item's pair of scores swapped
      with probability 1/2; ``samples`` rounds; p = (hits + 1) / (samples + 1), two-sided);
    - ``p_bootstrap``: two-sided paired-bootstrap p-value (share of resampled mean
      differences on the other side of 0, doubled, capped at 1).

    With ``samples <= 0`` only the mean is computed (interval NaN, p-values None).
    """
    d = np.asarray(xs, dtype=float) - np.asarray(ys, dtype=float)
    n = len(d)
    if n == 0:
        nan = float("nan")
        return {"mean": nan, "ci": (nan, nan), "p_randomization": 1.0, "p_bootstrap": 1.0}
    observed = float(d.mean())
    if samples <= 0:
        nan = float("nan")
        return {"mean": observed, "ci": (nan, nan), "p_randomization": None, "p_bootstrap": None}
    rng = np.random.default_rng(seed)
    boot = d[rng.integers(0, n, size=(samples, n))].mean(axis=1)
    flips = rng.choice(np.array([-1.0, 1.0]), size=(samples, n))
    perm = (flips * d).mean(axis=1)
    hits = int((np.abs(perm) >= abs(observed) - 1e-12).sum())
    if observed == 0:
        p_boot = 1.0
    else:
        other = (boot <= 0).sum() if observed > 0 else (boot >= 0).sum()
        p_boot = min(1.0, 2 * float(other) / samples)
    return {"mean": observed, "ci": _interval(boot, level),
            "p_randomization": (hits + 1) / (samples + 1), "p_bootstrap": p_boot}
