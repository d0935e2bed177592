"""AΔ: do the metric's scores rank acceptable parses above unacceptable ones?

Definition (Opitz & Frank 2022, as computed by their evaluation code): rank the metric's
scores of *all* candidate parses of the study together (rank 1 = lowest score; tied scores
get their average rank, as ``scipy.stats.rankdata``); AΔ = median rank of the parses humans
judged acceptable minus the median rank of those judged unacceptable.  Positive = the
metric tends to score acceptable parses higher; the maximum is about half the number of
parses.  :func:`a_delta` also gives AΔ divided by the number of ranked parses, which is
comparable across studies of different size.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.stats import rankdata


def a_delta(scores: Sequence[float], acceptable: Sequence[float]) -> dict:
    """AΔ over parallel lists of scores and acceptability labels (1 / 0; NaN = unjudged)."""
    s = np.asarray(scores, dtype=float)
    a = np.asarray(acceptable, dtype=float)
    keep = ~np.isnan(a)
    ranks = rankdata(s[keep])
    a = a[keep]
    good, bad = ranks[a == 1], ranks[a == 0]
    if len(good) == 0 or len(bad) == 0:
        value = float("nan")
    else:
        value = float(np.median(good) - np.median(bad))
    n = len(ranks)
    return {"a_delta": value, "normalized": value / n if n else float("nan"),
            "acceptable": int(len(good)), "unacceptable": int(len(bad))}
