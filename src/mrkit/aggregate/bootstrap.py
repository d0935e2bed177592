"""Statistics shared by the scorers: bootstrap confidence intervals over pairs."""

from __future__ import annotations

from typing import Sequence

import numpy as np


def bootstrap_prf(
    counts: Sequence[tuple[float, float, float]],
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of micro precision, recall and F1.

    ``counts``: (matched, gold, system) per pair; pairs are resampled with replacement.
    """
    arr = np.asarray(counts, dtype=np.float64).reshape(-1, 3)
    if len(arr) == 0:
        return {"precision": (1.0, 1.0), "recall": (1.0, 1.0), "f1": (1.0, 1.0)}
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(arr), size=(samples, len(arr)))
    sums = arr[idx].sum(axis=1)  # (samples, 3)
    m, g, s = sums[:, 0], sums[:, 1], sums[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(s > 0, m / s, 1.0)
        r = np.where(g > 0, m / g, 1.0)
        f = np.where(g + s > 0, 2 * m / (g + s), 1.0)
    lo, hi = (1 - level) / 2 * 100, (1 + level) / 2 * 100
    return {name: (float(np.percentile(v, lo)), float(np.percentile(v, hi)))
            for name, v in (("precision", p), ("recall", r), ("f1", f))}
