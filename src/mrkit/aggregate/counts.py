"""Gold / system / correct counts with precision, recall and F1, shared by the set metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .prf import prf


@dataclass
class Counts:
    """``g`` gold tuples, ``s`` system tuples, ``c`` correct (matched) tuples."""

    g: int = 0
    s: int = 0
    c: int = 0

    def add(self, other: "Counts") -> "Counts":
        self.g += other.g
        self.s += other.s
        self.c += other.c
        return self

    @classmethod
    def of_sets(cls, gold: set, system: set) -> "Counts":
        return cls(len(gold), len(system), len(gold & system))

    @classmethod
    def total(cls, items: Iterable["Counts"]) -> "Counts":
        out = cls()
        for x in items:
            out.add(x)
        return out

    @property
    def p(self) -> float:
        return prf(self.c, self.g, self.s)[0]

    @property
    def r(self) -> float:
        return prf(self.c, self.g, self.s)[1]

    @property
    def f(self) -> float:
        return prf(self.c, self.g, self.s)[2]

    @property
    def perfect(self) -> bool:
        return self.g == self.s == self.c

    def to_dict(self) -> dict:
        return {"g": self.g, "s": self.s, "c": self.c, "p": self.p, "r": self.r, "f": self.f}


TupleSets = dict[str, tuple[set, set]]
"""Per measure, the gold and the system tuple set of one graph pair."""


@dataclass
class SetScores:
    """A set-based corpus metric: per measure the summed counts, and how many graph pairs
    match exactly (gold set equal to system set)."""

    metric: str
    counts: dict[str, Counts]
    exact: dict[str, int]
    n: int

    @classmethod
    def collect(cls, metric: str, per_pair: Iterable[TupleSets], total: str | None = None) -> "SetScores":
        """Sum per-pair tuple sets; ``total``: name of an extra measure summing all others."""
        counts: dict[str, Counts] = {}
        exact: dict[str, int] = {}
        n = 0
        for sets in per_pair:
            n += 1
            for name, (gold, system) in sets.items():
                counts.setdefault(name, Counts()).add(Counts.of_sets(gold, system))
                exact[name] = exact.get(name, 0) + (gold == system)
        if total:
            counts[total] = Counts.total(list(counts.values()))
        return cls(metric, counts, exact, n)

    def to_dict(self) -> dict:
        d: dict = {"metric": self.metric, "n": self.n}
        for name, c in self.counts.items():
            d[name] = c.to_dict()
            if name in self.exact:
                d[name]["exact"] = self.exact[name]
        return d
