"""A meta-evaluation study: score several systems with several metrics against one gold
corpus, then compare the metrics with each other and with human judgements.

:func:`meta_evaluate` runs the metrics through the registry
(``get_metric(name)(golds, systems)``: a result with ``corpus``, ``pair_scores`` and
``macro``, see :class:`mrkit.metrics.result.MetricScores`) and computes every table;
:class:`MetaEvaluation` holds the results and turns them into a plain dict for JSON.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..model.graph import Graph
from ..metrics.registry import MetricResult, available, declaration, get_metric
from .acceptability import a_delta
from .roc import best_threshold, roc_auc
from .correlation import finite_or_none, spearman, spearman_matrix
from ..codecs.labels import HumanLabels, check_labels
from .preference import human_signs, pairwise_accuracy, preference_share, sign_test, signs
from ..aggregate.significance import bootstrap_ci, paired_difference


def sentence_length(g: Graph) -> int:
    """Tokens of the sentence (``# ::snt``/``# ::tok``), else the number of nodes."""
    return len(g.text.split()) if g.text else len(g.nodes)


def run_metric(name: str, golds: Sequence[Graph], systems: Sequence[Graph], **common) -> MetricResult:
    """Run a registered metric, passing only the ``common`` options its signature names
    (``executor`` only to the metrics that align: the others' pairs cost less than sending
    them to workers)."""
    fn = get_metric(name)
    params = inspect.signature(fn).parameters
    kw = {k: v for k, v in common.items() if k in params and v is not None}
    if "executor" in kw and not declaration(name).aligns:
        del kw["executor"]
    res = fn(golds, systems, **kw)
    if len(res.pair_scores) != len(golds):
        raise InputError(f"metric {name} returned {len(res.pair_scores)} pair scores for {len(golds)} pairs")
    return res


@dataclass
class MetaEvaluation:
    """Every table of a meta-evaluation (see :meth:`to_dict` for the layout)."""

    systems: list[str]
    metrics: list[str]
    results: dict[str, dict[str, MetricResult]]
    """metric -> system -> result"""
    lengths: list[int]
    labels: HumanLabels | None = None
    system_table: dict = field(default_factory=dict)
    preference_table: dict = field(default_factory=dict)
    pairwise_table: dict = field(default_factory=dict)
    acceptability_table: dict = field(default_factory=dict)
    system_pairs_table: dict = field(default_factory=dict)
    """With more than two systems: pairwise accuracy and AΔ of every pair of systems
    ("A vs B" -> metric -> row; see :func:`_system_pairs_table`)."""
    correlation: dict = field(default_factory=dict)
    length_correlation: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    """Wall time of each metric on all systems (not part of :meth:`to_dict`: reports stay
    byte-identical from run to run)."""

    def scores(self, metric: str, system: str) -> np.ndarray:
        return np.asarray(self.results[metric][system].pair_scores, dtype=float)

    def to_dict(self, per_pair: bool = False) -> dict:
        d = {
            "systems": self.systems,
            "metrics": self.metrics,
            "items": len(self.lengths),
            "settings": self.settings,
            "system_scores": self.system_table,
            "preferences": self.preference_table,
            "pairwise_accuracy": self.pairwise_table,
            "acceptability": self.acceptability_table,
            **({"system_pairs": self.system_pairs_table} if self.system_pairs_table else {}),
            "spearman": self.correlation,
            "length_spearman": self.length_correlation,
        }
        if self.labels is not None:
            d["human_counts"] = self.labels.counts()
        if per_pair:
            d["per_pair"] = {m: {s: list(self.results[m][s].pair_scores) for s in self.systems}
                             for m in self.metrics}
            d["lengths"] = self.lengths
        return _clean(d)


def _clean(obj):
    """NaN -> None and tuples -> lists, so the dict is valid JSON."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, (float, np.floating)):
        return finite_or_none(float(obj))
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def meta_evaluate(
    golds: Sequence[Graph],
    systems: Mapping[str, Sequence[Graph]],
    metrics: Sequence[str] | None = None,
    labels: HumanLabels | None = None,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    ties: str = "exclude",
    progress: Callable[[str], None] | None = None,
    **metric_options,
) -> MetaEvaluation:
    """Score ``systems`` (name -> graphs, paired in order with ``golds``) and compare metrics.

    ``samples``/``seed``/``level``: bootstrap and randomization rounds, their seed and the
    confidence level of every interval.  ``ties``: how pairwise accuracy counts metric
    ties (see :func:`mrkit.metaeval.preference.pairwise_accuracy`).  ``metric_options``
    (e.g. ``config=AlignConfig(...)``, ``executor=...``) reach every metric that accepts them.
    """
    names = list(systems)
    if len(names) < 2:
        raise InputError("a comparison needs at least two systems")
    metrics = list(metrics or available())
    n = len(golds)
    for s in names:
        if len(systems[s]) != n:
            raise InputError(f"holds {len(systems[s])} graphs but the gold file holds {n}", s)
    if labels is not None:
        check_labels(labels, n, len(names), [g.metadata.get("id") for g in golds])

    results: dict[str, dict[str, MetricResult]] = {}
    seconds: dict[str, float] = {}
    for m in metrics:
        results[m] = {}
        t0 = time.perf_counter()
        for s in names:
            if progress:
                progress(f"{m} {s}")
            results[m][s] = run_metric(m, golds, systems[s], **metric_options)
        seconds[m] = time.perf_counter() - t0

    ev = MetaEvaluation(names, metrics, results, [sentence_length(g) for g in golds], labels)
    ev.settings = {"samples": samples, "seed": seed, "level": level, "ties": ties}
    ev.seconds = seconds
    _system_table(ev)
    _preference_table(ev, samples, seed, level)
    if labels is not None:
        _pairwise_table(ev, samples, seed, level, ties)
        _acceptability_table(ev, samples, seed, level)
        if len(names) > 2:
            _system_pairs_table(ev, samples, seed, level, ties)
    pooled = {m: np.concatenate([ev.scores(m, s) for s in names]) for m in metrics}
    ev.correlation = spearman_matrix(pooled)
    lengths = np.tile(np.asarray(ev.lengths, dtype=float), len(names))
    ev.length_correlation = {m: spearman(lengths, pooled[m]) for m in metrics}
    return ev


def _system_table(ev: MetaEvaluation) -> None:
    for m in ev.metrics:
        ev.system_table[m] = {s: {"micro": ev.results[m][s].corpus, "macro": ev.results[m][s].macro}
                              for s in ev.systems}
    if ev.labels is not None and ev.labels.n_systems:
        acc = np.array([[np.nan if v is None else v for v in row] or [np.nan] * len(ev.systems)
                        for row in ev.labels.acceptable], dtype=float)
        ev.system_table["human acceptable"] = {
            s: {"micro": float(np.nanmean(acc[:, k])) if np.any(~np.isnan(acc[:, k])) else float("nan"),
                "macro": None}
            for k, s in enumerate(ev.systems)}


def _preference_table(ev: MetaEvaluation, samples: int, seed: int, level: float) -> None:
    for i, a in enumerate(ev.systems):
        for b in ev.systems[i + 1:]:
            rows = {}
            for m in ev.metrics:
                xa, xb = ev.scores(m, a), ev.scores(m, b)
                sg = signs(xa, xb)
                rows[m] = {"share": preference_share(sg), "sign_test": sign_test(sg, level),
                           "difference": paired_difference(xa, xb, samples, seed, level)}
            if ev.labels is not None and i == 0 and b == ev.systems[1]:
                hs = human_signs(ev.labels.preference)
                rows["human"] = {"share": preference_share(hs), "sign_test": sign_test(hs, level)}
            ev.preference_table[f"{a} vs {b}"] = rows


def _pairwise_table(ev: MetaEvaluation, samples: int, seed: int, level: float, ties: str) -> None:
    hs = human_signs(ev.labels.preference)
    if np.all(np.isnan(hs)):
        return
    a, b = ev.systems[0], ev.systems[1]
    for m in ev.metrics:
        ms = signs(ev.scores(m, a), ev.scores(m, b)).astype(float)
        row = pairwise_accuracy(hs, ms, ties)
        row["ci"] = bootstrap_ci(lambda idx: pairwise_accuracy(hs[idx], ms[idx], ties)["accuracy"],
                                 len(hs), samples, seed, level)
        row["beats_random"] = _outside(row["ci"], RANDOM_PAIRWISE)
        ev.pairwise_table[m] = row


def _acceptability_table(ev: MetaEvaluation, samples: int, seed: int, level: float) -> None:
    k = len(ev.systems)
    acc = np.array([[np.nan if v is None else v for v in row] if row else [np.nan] * k
                    for row in ev.labels.acceptable], dtype=float)  # items x systems
    if np.all(np.isnan(acc)):
        return
    for m in ev.metrics:
        sc = np.stack([ev.scores(m, s) for s in ev.systems], axis=1)  # items x systems
        row = a_delta(sc.ravel(), acc.ravel())
        row["ci"] = bootstrap_ci(lambda idx: a_delta(sc[idx].ravel(), acc[idx].ravel())["a_delta"],
                                 len(sc), samples, seed, level)
        row["beats_random"] = _outside(row["ci"], RANDOM_A_DELTA)
        row["roc_auc"] = roc_auc(sc.ravel(), acc.ravel())
        row["roc_auc_ci"] = bootstrap_ci(lambda idx: roc_auc(sc[idx].ravel(), acc[idx].ravel()),
                                         len(sc), samples, seed, level)
        row["best_threshold"] = best_threshold(sc.ravel(), acc.ravel())
        ev.acceptability_table[m] = row


def _system_pairs_table(ev: MetaEvaluation, samples: int, seed: int, level: float, ties: str) -> None:
    """Pairwise accuracy and AΔ for every pair of systems.  The human preference between
    the first two systems is the labels' preference; between any other two it follows
    from acceptability (the acceptable parse of the two is preferred; both or neither:
    no preference; either unjudged: unjudged).  AΔ ranks the two systems' parses."""
    k = len(ev.systems)
    acc = np.array([[np.nan if v is None else v for v in row] if row else [np.nan] * k
                    for row in ev.labels.acceptable], dtype=float)
    for i, a in enumerate(ev.systems):
        for j in range(i + 1, k):
            b = ev.systems[j]
            if i == 0 and j == 1:
                hs, source = human_signs(ev.labels.preference), "preference labels"
            else:
                hs, source = np.sign(acc[:, i] - acc[:, j]), "acceptability"
            sub = acc[:, [i, j]]
            rows: dict = {"human": source}
            for m in ev.metrics:
                xa, xb = ev.scores(m, a), ev.scores(m, b)
                ms = signs(xa, xb).astype(float)
                row = pairwise_accuracy(hs, ms, ties)
                row["ci"] = bootstrap_ci(lambda idx: pairwise_accuracy(hs[idx], ms[idx], ties)["accuracy"],
                                         len(hs), samples, seed, level)
                row["beats_random"] = _outside(row["ci"], RANDOM_PAIRWISE)
                sc = np.stack([xa, xb], axis=1)
                ad = a_delta(sc.ravel(), sub.ravel())
                ad["ci"] = bootstrap_ci(lambda idx: a_delta(sc[idx].ravel(), sub[idx].ravel())["a_delta"],
                                        len(sc), samples, seed, level)
                ad["beats_random"] = _outside(ad["ci"], RANDOM_A_DELTA)
                rows[m] = {"pairwise": row, "a_delta": ad}
            ev.system_pairs_table[f"{a} vs {b}"] = rows


RANDOM_PAIRWISE = 0.5
"""Pairwise accuracy of the random baseline (a coin flip per pair; Opitz & Frank 2022, RAND)."""
RANDOM_A_DELTA = 0.0
"""AΔ of the random baseline (random scores rank both classes alike)."""


def _outside(ci, value: float) -> bool:
    """Whether ``value`` lies outside the interval (Table 2's dagger); False without one."""
    lo, hi = ci
    if lo is None or hi is None or np.isnan(lo) or np.isnan(hi):
        return False
    return bool(value < lo or value > hi)
