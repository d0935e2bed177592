"""ROC-AUC and the best threshold of acceptability (hand-computed), and their properties."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from mrkit.metaeval.roc import best_threshold, roc_auc
from mrkit.metaeval.study import _outside


def test_roc_auc_hand_computed():
    # pairs (acceptable, unacceptable): (0.35, 0.1) yes, (0.35, 0.4) no, (0.8, .) yes twice: 3/4
    assert roc_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) == 0.75
    # a tie counts half
    assert roc_auc([0.5, 0.5], [1, 0]) == 0.5
    assert math.isnan(roc_auc([0.1, 0.2], [1, 1]))
    assert roc_auc([0.1, 0.9, 0.3], [0, 1, float("nan")]) == 1.0


def test_best_threshold_hand_computed():
    bt = best_threshold([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    # t = 0.35: TPR 1, FPR 1/2; t = 0.8: TPR 1/2, FPR 0; both J = 1/2, the lower is kept
    assert bt == {"threshold": 0.35, "youden": 0.5, "tpr": 1.0, "fpr": 0.5, "accuracy": 0.75}


def test_random_baseline_outside():
    assert _outside((0.55, 0.7), 0.5) and not _outside((0.45, 0.7), 0.5)
    assert not _outside((float("nan"), float("nan")), 0.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from([0, 1])), min_size=2, max_size=30))
def test_roc_auc_is_the_pairwise_probability(items):
    s = [x for x, _ in items]
    a = [y for _, y in items]
    pos = [x for x, y in items if y == 1]
    neg = [x for x, y in items if y == 0]
    auc = roc_auc(s, a)
    if not pos or not neg:
        assert math.isnan(auc)
        return
    brute = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg) / (len(pos) * len(neg))
    assert abs(auc - brute) < 1e-12
    # flipping the scores flips the AUC; J of the best threshold lies in [0, 1]
    assert abs(roc_auc([-x for x in s], a) - (1 - auc)) < 1e-12
    assert 0 <= best_threshold(s, a)["youden"] <= 1
