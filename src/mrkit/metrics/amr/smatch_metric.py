"""Smatch as a registered metric (per-pair F1, corpus micro F1)."""

from __future__ import annotations

from typing import Sequence

from ...align import AlignConfig
from ...model.graph import Graph
from ..registry import MetricResult, register
from .smatch import smatch_corpus


@register("smatch")
def smatch_metric(golds: Sequence[Graph], systems: Sequence[Graph],
                  config: AlignConfig = AlignConfig(), workers: int = 1) -> MetricResult:
    res = smatch_corpus(golds, systems, config, workers=workers)
    return MetricResult("smatch", [p.f1 for p in res.pairs], res.f1,
                        {"precision": res.precision, "recall": res.recall,
                         "certified": res.certified, "pairs": len(res.pairs)})
