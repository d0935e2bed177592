"""Smatch as a registered metric (per-pair F1, corpus micro F1), its pairs aligned
through the caller's executor."""

from __future__ import annotations

from ...aggregate.reducers import prf_reduce
from ...align import AlignConfig
from ...errors import InputError
from ..registry import register, through
from ..result import MetricScores, metric_scores

TYPE_CHECKING = False  # typing is not loaded at run time
if TYPE_CHECKING:
    from typing import Sequence

    from ...model.graph import Graph
    from .smatch import PairScore

# The graph path's modules (the Python engine, numpy, the graph model) load when a pair is
# scored here, not with the registration: `mrkit score -m smatch` reads the metric's
# declaration (its options) and then scores through the pipeline of `mrkit smatch`.

COLUMNS = ("matched", "gold", "system")
"""The summable row of a Smatch-like pair: matched, gold and system triples."""


def _align_chunk(task: tuple) -> list[PairScore]:
    from .smatch import _pair_score

    (config,), items = task
    return [_pair_score(k, gid, ta, tb, config) for k, gid, ta, tb in items]


def prf_scores(name: str, pairs: Sequence[PairScore], details: dict) -> MetricScores:
    """The corpus result of scored pairs (micro P/R/F of summed counts, certification)."""
    return metric_scores(name, [(p.matched, p.gold, p.system) for p in pairs], [p.id for p in pairs],
                         prf_reduce, COLUMNS, [p.certified for p in pairs], details)


@register("smatch", columns=COLUMNS, reduce=prf_reduce, corpus="micro F1", aligns=True)
def smatch_metric(golds: Sequence[Graph], systems: Sequence[Graph],
                  config: AlignConfig = AlignConfig(), executor=None) -> MetricScores:
    """Per pair: Smatch F1; corpus: micro F1.  ``executor`` aligns the pairs (default:
    this process)."""
    from ...features.triples import triples

    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} graphs but system has {len(systems)}")
    if not golds:
        raise InputError("no pairs to score")
    # the triples travel to the workers (smaller to send than the graphs)
    items = [(k, g.id, triples(g), triples(s)) for k, (g, s) in enumerate(zip(golds, systems))]
    pairs = through(executor, _align_chunk, items, config)
    res = prf_scores("smatch", pairs, {})
    res.detail.update(precision=res.precision, recall=res.recall, certified=res.n_certified, pairs=res.pairs)
    return res
