"""Precision, recall and F1 from matched / gold / system counts."""

from __future__ import annotations


def prf(matched: float, gold: float, system: float) -> tuple[float, float, float]:
    """Precision, recall, F1 from counts (empty against empty is a perfect match)."""
    p = matched / system if system else (1.0 if gold == 0 else 0.0)
    r = matched / gold if gold else (1.0 if system == 0 else 0.0)
    f = 2 * matched / (gold + system) if gold + system else 1.0
    return p, r, f


class PRF:
    """Mixin: ``precision``, ``recall``, ``f1`` of an object with ``matched``, ``gold`` and
    ``system`` counts (attributes or properties)."""

    matched: float
    gold: float
    system: float

    @property
    def precision(self) -> float:
        return prf(self.matched, self.gold, self.system)[0]

    @property
    def recall(self) -> float:
        return prf(self.matched, self.gold, self.system)[1]

    @property
    def f1(self) -> float:
        return prf(self.matched, self.gold, self.system)[2]
