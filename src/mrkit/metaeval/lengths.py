"""Sentence-length buckets of a study (Opitz & Frank 2022, Figures 6-8): buckets of
``width`` tokens up to ``cap``, and one bucket for every longer sentence ("55+")."""

from __future__ import annotations

from typing import Sequence

import numpy as np


def length_buckets(lengths: Sequence[int], width: int = 5, cap: int = 55) -> tuple[list[str], np.ndarray]:
    """(bucket labels, bucket index of each sentence).  Buckets ``1-5``, ``6-10``, ...,
    ``51-55`` and ``55+`` (longer than ``cap``) for the defaults; a length 0 goes to the
    first bucket."""
    edges = list(range(0, cap, width))
    labels = [f"{lo + 1}-{min(lo + width, cap)}" for lo in edges] + [f"{cap}+"]
    x = np.asarray(lengths, dtype=int)
    idx = np.where(x > cap, len(edges), np.maximum(x - 1, 0) // width)
    return labels, idx


def acceptability_by_length(lengths: Sequence[int], acceptable: Sequence[float], width: int = 5,
                            cap: int = 55) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Per bucket: the share of acceptable parses (NaN where none is judged) and the
    number of judged parses (Figure 6)."""
    labels, idx = length_buckets(lengths, width, cap)
    a = np.asarray(acceptable, dtype=float)
    share = np.full(len(labels), np.nan)
    count = np.zeros(len(labels), dtype=int)
    for b in range(len(labels)):
        v = a[(idx == b) & ~np.isnan(a)]
        count[b] = len(v)
        if len(v):
            share[b] = v.mean()
    return labels, share, count
