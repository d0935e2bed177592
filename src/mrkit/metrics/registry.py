"""A registry of corpus-level graph metrics, for comparison and meta-evaluation.

Every metric is a function ``(golds, systems, **options) -> MetricResult`` over two
equally long lists of graphs.  Modules register their metrics with :func:`register`; the
registry imports the modules listed in ``_MODULES`` on first use, so that importing mrkit
stays cheap.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..errors import MrkitError
from ..model.graph import Graph


@dataclass
class MetricResult:
    """Scores of one metric on a corpus of (gold, system) pairs."""

    name: str
    per_pair: list[float]
    """One score in [0, 1] per pair."""
    corpus: float
    """The metric's corpus-level score (micro average for Smatch-like metrics)."""
    details: dict = field(default_factory=dict)

    @property
    def macro(self) -> float:
        return sum(self.per_pair) / len(self.per_pair) if self.per_pair else 1.0


MetricFn = Callable[..., MetricResult]

_METRICS: dict[str, MetricFn] = {}

# metric name -> module that registers it
_MODULES: dict[str, str] = {
    "smatch": "mrkit.metrics.amr.smatch_metric",
    "sema": "mrkit.metrics.amr.sema",
    "sembleu": "mrkit.metrics.amr.sembleu",
    "s2match": "mrkit.metrics.amr.s2match",
    "wlk": "mrkit.metrics.amr.wlk",
    "wwlk": "mrkit.metrics.amr.wwlk",
    "wwlk-k3e2n": "mrkit.metrics.amr.wwlk",
    "simple": "mrkit.metrics.amr.simple",
}


def register(name: str) -> Callable[[MetricFn], MetricFn]:
    def deco(fn: MetricFn) -> MetricFn:
        _METRICS[name] = fn
        return fn

    return deco


def available() -> list[str]:
    return list(_MODULES)


def get_metric(name: str) -> MetricFn:
    if name not in _METRICS:
        module = _MODULES.get(name)
        if module is None:
            raise MrkitError(f"unknown metric {name!r}; choose from {', '.join(available())}")
        importlib.import_module(module)
    return _METRICS[name]


def metric_options(name: str) -> dict[str, object]:
    """The options metric ``name`` declares, with their defaults: the keyword parameters
    of its registered function after the two graph lists (its signature is the
    declaration)."""
    import inspect

    params = list(inspect.signature(get_metric(name)).parameters.values())[2:]
    return {p.name: p.default for p in params
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def check_options(name: str, options: dict) -> None:
    """An option the metric does not declare (misspelt, or meant for another metric) is
    an error, never silently ignored."""
    declared = metric_options(name)
    unknown = sorted(set(options) - set(declared))
    if unknown:
        takes = ", ".join(declared) if declared else "none"
        raise MrkitError(f"metric {name!r} has no option {', '.join(map(repr, unknown))} (its options: {takes})")


def score(name: str, golds: Sequence[Graph], systems: Sequence[Graph], **options) -> MetricResult:
    """Score aligned graph lists with the metric ``name`` under its declared
    ``options`` (:func:`metric_options`; any other is an error).  The cyclic garbage
    collector is paused meanwhile, as for Smatch: a metric builds many small acyclic
    objects and collections over a whole corpus only cost time."""
    from ..codecs._files import gc_paused

    fn = get_metric(name)
    check_options(name, options)
    with gc_paused():
        return fn(golds, systems, **options)
