"""Smatch: the best one-to-one variable mapping between two AMR graphs, certified.

A graph becomes its Smatch triples (:mod:`mrkit.model.amr`): node-local triples (instance,
attributes, top) are unary features, relation triples are labelled edges, and the
shared engine (:mod:`mrkit.align`) finds the mapping that matches most triples, together
with a proof of optimality (upper bound reached, or the exact ILP).

Precision = matched / system triples, recall = matched / gold triples,
F1 = 2 matched / (gold + system).  Corpus scores are micro-averaged (the standard:
sum the counts, then divide); macro is the mean of the pair F1 scores.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Callable, Sequence

import numpy as np

from ...align import AlignConfig, Alignment, Features, align, build_problem
from ...model.amr import NON_INVERTED_OF
from ...features.triples import Triples, triples
from ...errors import InputError
from ...model.graph import Graph
from ...codecs._files import gc_paused
from ...aggregate.prf import PRF, prf
from .aligned_pair import AlignedPairScore


@dataclass
class PairScore(AlignedPairScore):
    """Smatch of one gold/system pair."""

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(precision=self.precision, recall=self.recall, f1=self.f1)
        return d


@dataclass
class SmatchResult(PRF):
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


def _pair_score(index: int, gid: str | None, ta: Triples, tb: Triples, config: AlignConfig) -> PairScore:
    res = align_triples(ta, tb, config)
    mapping = {ta.variables[i]: (tb.variables[j] if j >= 0 else None) for i, j in enumerate(res.mapping)}
    return PairScore(index, gid, res.score, len(ta), len(tb), res.certified, res.bound, res.method, mapping)


def smatch_pair(gold: Graph, system: Graph, config: AlignConfig = AlignConfig(),
                index: int = 0, keep: frozenset[str] = NON_INVERTED_OF) -> PairScore:
    """Smatch of one pair of graphs."""
    return _pair_score(index, gold.id, triples(gold, keep), triples(system, keep), config)


# ------------------------------------------------------------------ corpus

Item = tuple[int, "str | None", Triples, Triples]


def _score_chunk(task: tuple) -> list[PairScore]:
    config, items = task
    return [_pair_score(k, gid, ta, tb, config) for k, gid, ta, tb in items]


def score_items(items: Sequence[Item], config: AlignConfig = AlignConfig(),
                progress: Callable[[int], None] | None = None, executor=None,
                chunk: int = 256) -> list[PairScore]:
    """Score (index, id, gold triples, system triples) items, in order: in this process,
    or in chunks through ``executor`` (see :mod:`mrkit.runtime.executor`; the caller
    chooses it, results never depend on it)."""
    out: list[PairScore] = []
    if executor is None:
        with gc_paused():
            for item in items:
                out.append(_pair_score(*item, config))
                if progress is not None:
                    progress(1)
        return out
    tasks = ((config, items[k:k + chunk]) for k in range(0, len(items), chunk))
    for scores in executor.map(_score_chunk, tasks):
        out.extend(scores)
        if progress is not None:
            progress(len(scores))
    return out


def _result(pairs: list[PairScore], bootstrap: int, seed: int) -> SmatchResult:
    ci = None
    if bootstrap:
        from ...aggregate.resampling import bootstrap as resample, prf_reduce

        ci = resample(np.asarray([(p.matched, p.gold, p.system) for p in pairs], dtype=float).reshape(-1, 3),
                      prf_reduce, bootstrap, seed)
    return SmatchResult(pairs, ci)


def smatch_corpus(
    golds: Sequence[Graph],
    systems: Sequence[Graph],
    config: AlignConfig = AlignConfig(),
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    bootstrap: int = 0,
    keep: frozenset[str] = NON_INVERTED_OF,
    executor=None,
) -> SmatchResult:
    """Score aligned lists of gold and system graphs.

    ``executor``: how the pairs run (default: in this process; see
    :mod:`mrkit.runtime.executor`); ``workers`` is ignored (kept for one release: pass an
    executor).  ``progress``: called with the number of pairs finished since the last
    call.  ``bootstrap``: number of bootstrap samples for 95% confidence intervals (0 =
    none).  Results do not depend on the executor.  Files are read and streamed by
    :func:`mrkit.pipeline.amr.smatch_files`.
    """
    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} graphs but system has {len(systems)}")
    if not golds:
        raise InputError("no pairs to score")
    with gc_paused():
        items = [(k, g.id, triples(g, keep), triples(s, keep)) for k, (g, s) in enumerate(zip(golds, systems))]
    pairs = score_items(items, config, progress, executor)
    return _result(pairs, bootstrap, config.seed)


def read_pairs(gold_path: str, system_path: str) -> tuple[list[Graph], list[Graph]]:
    """Read both files completely and check that they hold the same number of graphs."""
    from ...codecs.penman import read_penman

    golds = read_penman(gold_path)
    systems = read_penman(system_path)
    _check_counts(len(golds), len(systems), gold_path, system_path)
    return golds, systems


def _check_counts(n_gold: int, n_system: int, gold_path: str, system_path: str) -> None:
    if n_gold == n_system == 0:
        raise InputError(f"holds no graph, nor does the system file {system_path}: nothing to score",
                         gold_path)
    if n_gold != n_system:
        raise InputError(
            f"holds {n_system} graphs but the gold file {gold_path} holds {n_gold}", system_path)


def smatch_files(gold_path: str, system_path: str, config: AlignConfig = AlignConfig(),
                 workers: int = 1, progress: Callable[[int], None] | None = None,
                 bootstrap: int = 0, keep: frozenset[str] = NON_INVERTED_OF) -> SmatchResult:
    """Smatch of two PENMAN files, as :class:`SmatchResult` (kept for one release: the
    pipeline's :func:`mrkit.pipeline.amr.smatch_files` streams, reads MRP and standard
    input, runs through an executor and returns the common corpus result).  ``workers``
    is ignored."""
    golds, systems = read_pairs(gold_path, system_path)
    return smatch_corpus(golds, systems, config, progress=progress, bootstrap=bootstrap, keep=keep)


def example_paths() -> tuple[str, str]:
    """The small gold and system files shipped with mrkit."""
    from importlib.resources import files

    base = files("mrkit") / "data" / "examples"
    return str(base / "gold.amr"), str(base / "system.amr")
