"""Invariants of every registered alternative metric: identical graphs score 1, scores lie
in [0, 1], renaming variables changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from altmetrics_helpers import amr_graphs, graph
from mrkit.metrics.registry import get_metric

TINY = {"want": [1.0, 0.2, 0.0], "boy": [0.1, 1.0, 0.3], "girl": [0.2, 0.9, 0.4],
        "believe": [0.5, 0.1, 0.9], "cat": [0.0, 0.3, 1.0], "city": [0.9, 0.9, 0.1]}

METRICS = {
    "sema": {},
    "sembleu": {},
    "s2match": {"vectors": TINY},
    "wlk": {},
    "wwlk": {"vectors": TINY},
    "wwlk-k3e2n": {"vectors": TINY},
    "simple": {},
}


@pytest.mark.parametrize("name", sorted(METRICS))
@settings(max_examples=25, deadline=None)
@given(pair=amr_graphs(), other=amr_graphs())
def test_metric_invariants(name, pair, other):
    fn = get_metric(name)
    opts = METRICS[name]
    g, renamed = graph(pair[0]), graph(pair[1])
    h = graph(other[0])
    same = fn([g], [renamed], **opts)
    assert same.pair_scores[0] == pytest.approx(1.0)
    diff = fn([g], [h], **opts)
    assert 0.0 <= diff.pair_scores[0] <= 1.0 + 1e-12
    assert 0.0 <= diff.corpus <= 1.0 + 1e-12
    back = fn([h], [renamed], **opts)
    assert back.pair_scores[0] == pytest.approx(fn([h], [g], **opts).pair_scores[0])
