"""Gold / system / correct counts of the set metrics (MRP tuples, SDP, EDM, UCCA).

:class:`Counts` is the one precision/recall/F container of set metrics: its scores come
from :class:`~mrkit.aggregate.prf.PRF` (:func:`~mrkit.aggregate.prf.prf`, never
re-computed here); ``p``/``r``/``f`` and ``g``/``s``/``c`` are the short names the MRP
reports use.  :class:`SetScores` sums a set metric over pairs as they stream past.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .prf import PRF


@dataclass
class Counts(PRF):
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

    # the names of PRF (matched, gold, system) and of a summable row
    @property
    def matched(self) -> int:
        return self.c

    @property
    def gold(self) -> int:
        return self.g

    @property
    def system(self) -> int:
        return self.s

    def row(self) -> tuple[int, int, int]:
        """``(matched, gold, system)``: the summable row of :func:`~mrkit.aggregate.resampling.prf_reduce`."""
        return (self.c, self.g, self.s)

    @property
    def p(self) -> float:
        return self.precision

    @property
    def r(self) -> float:
        return self.recall

    @property
    def f(self) -> float:
        return self.f1

    @property
    def perfect(self) -> bool:
        return self.g == self.s == self.c

    def to_dict(self) -> dict:
        return {"g": self.g, "s": self.s, "c": self.c, "p": self.p, "r": self.r, "f": self.f}


TupleSets = dict[str, tuple[set, set]]
"""Per measure, the gold and the system tuple set of one graph pair."""

PairCounts = dict[str, tuple[Counts, bool]]
"""Per measure, the counts of one graph pair and whether its two sets are equal."""


def pair_counts(sets: TupleSets) -> PairCounts:
    """The counts of one pair's tuple sets (a few numbers: what a worker sends back)."""
    return {name: (Counts.of_sets(gold, system), gold == system) for name, (gold, system) in sets.items()}


@dataclass
class SetScores:
    """A set-based corpus metric: per measure the summed counts, and how many graph pairs
    match exactly (gold set equal to system set)."""

    metric: str
    counts: dict[str, Counts] = field(default_factory=dict)
    exact: dict[str, int] = field(default_factory=dict)
    n: int = 0

    def add(self, pair: PairCounts) -> "SetScores":
        """Add one pair's counts (:func:`pair_counts`)."""
        self.n += 1
        for name, (c, same) in pair.items():
            self.counts.setdefault(name, Counts()).add(c)
            self.exact[name] = self.exact.get(name, 0) + same
        return self

    def with_total(self, total: str | None) -> "SetScores":
        """``total``: name of an extra measure summing all others (added once, at the end)."""
        if total:
            self.counts[total] = Counts.total(list(self.counts.values()))
        return self

    @classmethod
    def collect(cls, metric: str, per_pair: Iterable[TupleSets], total: str | None = None) -> "SetScores":
        """Sum per-pair tuple sets; ``total``: name of an extra measure summing all others."""
        out = cls(metric)
        for sets in per_pair:
            out.add(pair_counts(sets))
        return out.with_total(total)

    def to_dict(self) -> dict:
        d: dict = {"metric": self.metric, "n": self.n}
        for name, c in self.counts.items():
            d[name] = c.to_dict()
            if name in self.exact:
                d[name]["exact"] = self.exact[name]
        return d
