"""Smatch: the best one-to-one variable mapping between two AMR graphs, certified.

A graph becomes its Smatch triples (:mod:`mrkit.amr`): node-local triples (instance,
attributes, top) are unary features, relation triples are labelled edges, and the
shared engine (:mod:`mrkit.align`) finds the mapping that matches most triples, together
with a proof of optimality (upper bound reached, or the exact ILP).

Precision = matched / system triples, recall = matched / gold triples,
F1 = 2 matched / (gold + system).  Corpus scores are micro-averaged (the standard:
sum the counts, then divide); macro is the mean of the pair F1 scores.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from ..align import AlignConfig, Alignment, Features, align, build_problem
from ..amr import NON_INVERTED_OF, Triples, triples
from ..errors import InputError
from ..graph import Graph
from ..parallel import map_pairs


def prf(matched: float, gold: float, system: float) -> tuple[float, float, float]:
    """Precision, recall, F1 from counts (empty against empty is a perfect match)."""
    p = matched / system if system else (1.0 if gold == 0 else 0.0)
    r = matched / gold if gold else (1.0 if system == 0 else 0.0)
    f = 2 * matched / (gold + system) if gold + system else 1.0
    return p, r, f


@dataclass
class PairScore:
    """Smatch of one gold/system pair."""

    index: int
    id: str | None
    matched: float
    gold: int
    system: int
    certified: bool
    bound: float
    method: str
    mapping: dict[str, str | None] = field(default_factory=dict, repr=False)

    @property
    def precision(self) -> float:
        return prf(self.matched, self.gold, self.system)[0]

    @property
    def recall(self) -> float:
        return prf(self.matched, self.gold, self.system)[1]

    @property
    def f1(self) -> float:
        return prf(self.matched, self.gold, self.system)[2]

    @property
    def f1_bound(self) -> float:
        """The best F1 any mapping could reach (equals ``f1`` when certified)."""
        return prf(self.bound, self.gold, self.system)[2]

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(precision=self.precision, recall=self.recall, f1=self.f1)
        return d


@dataclass
class SmatchResult:
    """Corpus Smatch: micro and macro scores, certification, optional confidence intervals."""

    pairs: list[PairScore]
    ci: dict[str, tuple[float, float]] | None = None

    @property
    def matched(self) -> float:
        return sum(p.matched for p in self.pairs)

    @property
    def gold(self) -> int:
        return sum(p.gold for p in self.pairs)

    @property
    def system(self) -> int:
        return sum(p.system for p in self.pairs)

    @property
    def precision(self) -> float:
        return prf(self.matched, self.gold, self.system)[0]

    @property
    def recall(self) -> float:
        return prf(self.matched, self.gold, self.system)[1]

    @property
    def f1(self) -> float:
        return prf(self.matched, self.gold, self.system)[2]

    @property
    def macro_f1(self) -> float:
        return float(np.mean([p.f1 for p in self.pairs])) if self.pairs else 1.0

    @property
    def certified(self) -> int:
        return sum(p.certified for p in self.pairs)

    @property
    def certified_share(self) -> float:
        return self.certified / len(self.pairs) if self.pairs else 1.0

    @property
    def f1_bound(self) -> float:
        """Upper bound of the micro F1 (equals ``f1`` when every pair is certified)."""
        return prf(sum(p.bound for p in self.pairs), self.gold, self.system)[2]

    def to_dict(self, per_pair: bool = False) -> dict:
        d = {
            "pairs": len(self.pairs),
            "matched": self.matched, "gold_triples": self.gold, "system_triples": self.system,
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "macro_f1": self.macro_f1,
            "certified": self.certified, "certified_share": self.certified_share,
            "f1_upper_bound": self.f1_bound,
        }
        if self.ci is not None:
            d["ci"] = {k: list(v) for k, v in self.ci.items()}
        if per_pair:
            d["per_pair"] = [p.to_dict() for p in self.pairs]
        return d


# ------------------------------------------------------------------ features

def smatch_features(t: Triples) -> Features:
    """Unary features (instance, attributes, top) and relation edges of Smatch triples."""
    unary = [Counter() for _ in t.variables]
    for i, concept in t.instances:
        unary[i][("instance", concept)] += 1
    for i, role, value in t.attributes:
        unary[i][("attr", role, value)] += 1
    for i in t.tops:
        unary[i][("top",)] += 1
    return Features(len(t.variables), unary, list(t.relations))


def align_triples(ta: Triples, tb: Triples, config: AlignConfig = AlignConfig(),
                  allowed: np.ndarray | None = None) -> Alignment:
    """Align two triple sets with the shared engine (optionally under a candidate constraint)."""
    return align(build_problem(smatch_features(ta), smatch_features(tb), allowed), config)


def smatch_pair(gold: Graph, system: Graph, config: AlignConfig = AlignConfig(),
                index: int = 0, keep: frozenset[str] = NON_INVERTED_OF) -> PairScore:
    """Smatch of one pair of graphs."""
    ta, tb = triples(gold, keep), triples(system, keep)
    res = align_triples(ta, tb, config)
    mapping = {ta.variables[i]: (tb.variables[j] if j >= 0 else None) for i, j in enumerate(res.mapping)}
    return PairScore(index, gold.id, res.score, len(ta), len(tb), res.certified,
                     res.bound, res.method, mapping)


# ------------------------------------------------------------------ corpus

def smatch_corpus(
    golds: Sequence[Graph],
    systems: Sequence[Graph],
    config: AlignConfig = AlignConfig(),
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    bootstrap: int = 0,
    keep: frozenset[str] = NON_INVERTED_OF,
) -> SmatchResult:
    """Score aligned lists of gold and system graphs.

    ``workers``: processes to use (0 = all cores).  ``progress``: called with the number
    of pairs finished since the last call.  ``bootstrap``: number of bootstrap samples
    for 95% confidence intervals (0 = none).
    """
    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} graphs but system has {len(systems)}")
    items = [(g, s, config, k, keep) for k, (g, s) in enumerate(zip(golds, systems))]
    results: list[PairScore] = map_pairs(smatch_pair, items, workers=workers, progress=progress)
    ci = None
    if bootstrap:
        from ..stats import bootstrap_prf

        ci = bootstrap_prf([(p.matched, p.gold, p.system) for p in results], bootstrap, config.seed)
    return SmatchResult(results, ci)


def read_pairs(gold_path: str, system_path: str) -> tuple[list[Graph], list[Graph]]:
    """Read both files completely and check that they hold the same number of graphs."""
    from ..codecs.penman import read_penman

    golds = read_penman(gold_path)
    systems = read_penman(system_path)
    if len(golds) != len(systems):
        raise InputError(
            f"holds {len(systems)} graphs but the gold file {gold_path} holds {len(golds)}",
            system_path,
        )
    return golds, systems


def smatch_files(gold_path: str, system_path: str, config: AlignConfig = AlignConfig(),
                 **kw) -> SmatchResult:
    """Smatch of two PENMAN files (the same API the ``mrkit smatch`` command uses)."""
    golds, systems = read_pairs(gold_path, system_path)
    return smatch_corpus(golds, systems, config, **kw)


def example_paths() -> tuple[str, str]:
    """The small gold and system files shipped with mrkit."""
    from importlib.resources import files

    base = files("mrkit") / "data" / "examples"
    return str(base / "gold.amr"), str(base / "system.amr")


def smatch_graph_lists(a: Iterable[Graph], b: Iterable[Graph], **kw) -> SmatchResult:
    return smatch_corpus(list(a), list(b), **kw)
