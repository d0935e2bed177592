"""Meta-evaluation statistics on tiny inputs, with expected values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.metaeval import (a_delta, bootstrap_ci, human_signs, paired_difference, pairwise_accuracy,
                            preference_share, sign_test, signs, spearman, spearman_matrix)


def test_signs_and_preference_share_split_ties():
    s = signs([0.5, 0.3, 0.7], [0.4, 0.3, 0.9])
    assert list(s) == [1, 0, -1]
    # one win, one tie (half), one loss: (1 + 0.5) / 3
    assert preference_share(s) == pytest.approx(0.5)
    assert preference_share(signs([1.0, 1.0, 0.2, 0.5], [0.0, 0.5, 0.1, 0.5])) == pytest.approx(3.5 / 4)


def test_signs_ignore_float_noise():
    assert list(signs([0.1 + 0.2], [0.3])) == [0]


def test_human_signs_and_share():
    h = human_signs([1, 0, 0.5, None])
    assert list(h[:3]) == [1, -1, 0] and math.isnan(h[3])
    # 1 win, 1 loss, 1 tie among 3 judged items
    assert preference_share(h) == pytest.approx(0.5)


@pytest.mark.parametrize("ties, expected, counted", [("exclude", 2 / 3, 3), ("half", 2.5 / 4, 4),
                                                     ("wrong", 2 / 4, 4)])
def test_pairwise_accuracy_tie_policies(ties, expected, counted):
    human = [1, -1, 1, 0, -1]   # item 4 judged equal: never counted
    metric = [1, 1, 0, 1, -1]   # right, wrong, tie, (ignored), right
    r = pairwise_accuracy(human, metric, ties)
    assert r["accuracy"] == pytest.approx(expected)
    assert (r["right"], r["counted"], r["metric_ties"], r["human_strict"]) == (2, counted, 1, 4)


def test_pairwise_accuracy_skips_unjudged():
    r = pairwise_accuracy([1, np.nan, -1], [1, -1, 1])
    assert r["accuracy"] == pytest.approx(0.5) and r["counted"] == 2


def test_sign_test_hand_computed():
    r = sign_test([1] * 9 + [-1] + [0] * 3)
    assert (r["wins"], r["losses"], r["ties"]) == (9, 1, 3)
    # two-sided: 2 * P(X >= 9 | n = 10, p = 1/2) = 2 * (10 + 1) / 1024
    assert r["p"] == pytest.approx(22 / 1024)
    assert r["share"] == pytest.approx(0.9)
    lo, hi = r["ci"]
    assert lo < 0.9 < hi and 0 < lo and hi < 1
    # Clopper-Pearson upper bound for 9/10: solve P(X <= 9 | p) = 0.025 -> 1 - p^10 = 0.025
    assert hi == pytest.approx(0.975 ** (1 / 10), abs=1e-9)


def test_sign_test_no_decided_items():
    r = sign_test([0, 0])
    assert r["p"] == 1.0 and r["ties"] == 2


def test_a_delta_hand_computed():
    scores = [0.1, 0.4, 0.4, 0.9, 0.6]
    accept = [0, 1, 0, 1, 1]
    # ranks 1, 2.5, 2.5, 5, 4; acceptable {2.5, 5, 4} -> median 4; unacceptable {1, 2.5} -> 1.75
    r = a_delta(scores, accept)
    assert r["a_delta"] == pytest.approx(2.25)
    assert r["normalized"] == pytest.approx(2.25 / 5)
    assert (r["acceptable"], r["unacceptable"]) == (3, 2)


def test_a_delta_skips_unjudged_and_needs_both_classes():
    r = a_delta([0.1, 0.5, 0.9], [0, np.nan, 1])
    assert r["a_delta"] == pytest.approx(1.0)  # ranks among judged parses: 1 and 2
    assert math.isnan(a_delta([0.1, 0.2], [1, 1])["a_delta"])


def test_spearman_hand_computed():
    # d = 0, 1, 1, 0 -> rho = 1 - 6 * 2 / (4 * 15)
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    m = spearman_matrix({"a": [1, 2, 3], "b": [3, 2, 1], "c": [5, 5, 5]})
    assert m["a"]["a"] == 1.0 and m["a"]["b"] == pytest.approx(-1.0) and m["b"]["a"] == m["a"]["b"]
    assert math.isnan(m["c"]["c"]) and math.isnan(m["a"]["c"])


def test_paired_difference_constant_shift():
    r = paired_difference([0.7] * 12, [0.5] * 12, samples=500, seed=3)
    assert r["mean"] == pytest.approx(0.2)
    assert r["ci"] == pytest.approx((0.2, 0.2))
    # only the two all-same-sign flips reach |0.2|: chance 2 / 4096 per round
    assert r["p_randomization"] < 0.02
    assert r["p_bootstrap"] == 0.0


def test_paired_difference_no_difference():
    r = paired_difference([0.3, 0.6, 0.9], [0.3, 0.6, 0.9], samples=200)
    assert r["mean"] == 0 and r["p_randomization"] == 1.0 and r["p_bootstrap"] == 1.0


def test_resampling_is_seeded():
    xs, ys = np.linspace(0, 1, 30), np.linspace(0, 1, 30) ** 2
    assert paired_difference(xs, ys, seed=7) == paired_difference(xs, ys, seed=7)
    f = lambda idx: float(xs[idx].mean())  # noqa: E731
    assert bootstrap_ci(f, 30, 300, seed=1) == bootstrap_ci(f, 30, 300, seed=1)
    lo, hi = bootstrap_ci(f, 30, 300, seed=1)
    assert lo < 0.5 < hi


scores = st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_preference_shares_of_both_directions_sum_to_one(data):
    xs = data.draw(scores)
    ys = data.draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=len(xs), max_size=len(xs)))
    assert preference_share(signs(xs, ys)) + preference_share(signs(ys, xs)) == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_delta_flips_with_labels_and_ignores_monotone_rescaling(data):
    xs = data.draw(st.lists(st.integers(0, 100).map(lambda k: k / 100), min_size=2, max_size=40))
    acc = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    r = a_delta(xs, acc)["a_delta"]
    flipped = a_delta(xs, [1 - a for a in acc])["a_delta"]
    rescaled = a_delta([3 * x + 1 for x in xs], acc)["a_delta"]
    if math.isnan(r):
        assert math.isnan(flipped)
    else:
        assert flipped == pytest.approx(-r)
        assert rescaled == pytest.approx(r)
        assert abs(r) <= len(xs)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([1.0, 0.0, 0.5]), min_size=1, max_size=30))
def test_metric_agreeing_with_humans_is_fully_accurate(prefs):
    h = human_signs(prefs)
    r = pairwise_accuracy(h, h)
    if r["human_strict"]:
        assert r["accuracy"] == 1.0 and r["metric_ties"] == 0
