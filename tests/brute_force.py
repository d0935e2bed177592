"""The optimum of a small alignment problem by trying every one-to-one partial mapping:
the oracle of the certified scores of the compiled stages (tests/align)."""

from __future__ import annotations

import itertools


def optimum(p) -> float:
    """The best ``p.score(m)`` over every partial one-to-one mapping ``m`` of the
    :class:`mrkit.align` problem ``p`` (gold node -> system node, -1 unmapped)."""
    import numpy as np

    best = 0.0
    for k in range(min(p.n_a, p.n_b) + 1):
        for rows in itertools.combinations(range(p.n_a), k):
            for cols in itertools.permutations(range(p.n_b), k):
                m = np.full(p.n_a, -1)
                m[list(rows)] = cols
                best = max(best, p.score(m))
    return best
