"""aggregate/resampling.py against a direct computation: a naive loop over the resamples,
drawn from ``numpy.random.default_rng(seed)`` in the documented order (first every bootstrap
resample ``integers(0, n, size=(samples, n))``, then every randomisation round
``integers(0, 2, size=(samples, n))``, an item's rows swapped where the draw is 0)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mrkit.aggregate import resampling
from mrkit.aggregate.resampling import (bootstrap, mean_reduce, paired_test, prf_reduce,
                                        recall_precision_reduce)
from mrkit.aggregate.significance import paired_difference


# ------------------------------------------------------------------ direct computations

def naive_prf(m: float, g: float, s: float) -> dict[str, float]:
    """Smatch's convention: empty against empty is a perfect match."""
    p = m / s if s > 0 else (1.0 if g == 0 else 0.0)
    r = m / g if g > 0 else (1.0 if s == 0 else 0.0)
    f = 2 * m / (g + s) if g + s > 0 else 1.0
    return {"precision": p, "recall": r, "f1": f}


def naive_mean(total: float, count: float) -> dict[str, float]:
    return {"f1": total / count if count > 0 else math.nan}


def naive_recall_precision(rn: float, rd: float, pn: float, pd: float) -> dict[str, float]:
    """The CoNLL scorer's conventions: 0/0 = 0, F of (0, 0) = 0."""
    r = rn / rd if rd else 0.0
    p = pn / pd if pd else 0.0
    return {"precision": p, "recall": r, "f1": 2 * r * p / (r + p) if r + p else 0.0}


NAIVE = {prf_reduce: naive_prf, mean_reduce: naive_mean, recall_precision_reduce: naive_recall_precision}


def naive_stats(reduce, column_sums) -> dict[str, float]:
    return NAIVE[reduce](*[float(x) for x in column_sums])


def percentile_interval(values: list[float], level: float) -> tuple[float, float]:
    vals = np.array([v for v in values if not math.isnan(v)])
    if len(vals) == 0:
        return (math.nan, math.nan)
    return (float(np.percentile(vals, (1 - level) / 2 * 100)), float(np.percentile(vals, (1 + level) / 2 * 100)))


def naive_bootstrap(table, reduce, samples, seed, level):
    table = np.asarray(table, dtype=float)
    n = len(table)
    idx = np.random.default_rng(seed).integers(0, n, size=(samples, n))
    values: dict[str, list[float]] = {}
    for row in idx:
        sums = [sum(table[i][c] for i in row) for c in range(table.shape[1])]
        for k, v in naive_stats(reduce, sums).items():
            values.setdefault(k, []).append(v)
    return {k: percentile_interval(v, level) for k, v in values.items()}


def naive_paired(a, b, reduce, samples, seed, level):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    n, k = a.shape
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(samples, n))
    swaps = rng.integers(0, 2, size=(samples, n))
    col = lambda t, rows: [sum(t[i][c] for i in rows) for c in range(k)]  # noqa: E731
    obs_a, obs_b = naive_stats(reduce, col(a, range(n))), naive_stats(reduce, col(b, range(n)))
    out = {}
    for name in obs_a:
        diff = obs_a[name] - obs_b[name]
        boot = []
        for row in idx:
            boot.append(naive_stats(reduce, col(a, row))[name] - naive_stats(reduce, col(b, row))[name])
        perm = []
        for sw in swaps:
            ta = [b[i] if sw[i] == 0 else a[i] for i in range(n)]
            tb = [a[i] if sw[i] == 0 else b[i] for i in range(n)]
            perm.append(naive_stats(reduce, col(ta, range(n)))[name] - naive_stats(reduce, col(tb, range(n)))[name])
        boot_f = [x for x in boot if not math.isnan(x)]
        perm_f = [x for x in perm if not math.isnan(x)]
        if diff == 0 or math.isnan(diff) or not boot_f:
            p_boot = 1.0
        else:
            other = sum(1 for x in boot_f if (x <= 0 if diff > 0 else x >= 0))
            p_boot = min(1.0, 2 * other / len(boot_f))
        hits = sum(1 for x in perm_f if abs(x) >= abs(diff) - 1e-12)
        out[name] = {"difference": diff, "ci": percentile_interval(boot, level), "p_bootstrap": p_boot,
                     "p_randomization": (hits + 1) / (len(perm_f) + 1)}
    return out


# ------------------------------------------------------------------ tables

def prf_table(rng, n):
    g = rng.integers(0, 12, size=n)
    s = rng.integers(0, 12, size=n)
    m = np.minimum(g, s) - rng.integers(0, 3, size=n).clip(0, None)
    return np.c_[np.clip(m, 0, None), g, s].astype(float)


def mean_table(rng, n):
    return np.c_[rng.random(n), np.ones(n)]


def rp_table(rng, n):
    rd = rng.integers(0, 9, size=n)
    pd = rng.integers(0, 9, size=n)
    return np.c_[rng.integers(0, rd + 1), rd, rng.integers(0, pd + 1), pd].astype(float)


TABLES = [(prf_reduce, prf_table), (mean_reduce, mean_table), (recall_precision_reduce, rp_table)]
IDS = ["prf", "mean", "recall_precision"]


def assert_close_stats(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for k in want:
        for x, y in zip(got[k], want[k]):
            assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, rel=1e-9, abs=1e-12), k


def assert_close_tests(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for k in want:
        g, w = got[k], want[k]
        assert g["difference"] == pytest.approx(w["difference"], rel=1e-9, abs=1e-12), k
        for x, y in zip(g["ci"], w["ci"]):
            assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, rel=1e-9, abs=1e-12), k
        assert g["p_bootstrap"] == pytest.approx(w["p_bootstrap"]), k
        assert g["p_randomization"] == pytest.approx(w["p_randomization"]), k


# ------------------------------------------------------------------ reducers

@pytest.mark.parametrize("reduce, make", TABLES, ids=IDS)
def test_reducers_match_the_direct_formula_row_by_row_and_vectorised(reduce, make):
    table = make(np.random.default_rng(3), 40)
    table[0] = 0  # the empty pair: every convention at once
    got = reduce(table)  # (n, k) -> (n,) arrays
    for i, row in enumerate(table):
        for k, v in naive_stats(reduce, row).items():
            assert (math.isnan(v) and math.isnan(got[k][i])) or got[k][i] == pytest.approx(v), (k, row)
    stacked = reduce(np.stack([table, table]))  # any leading axes
    assert all(stacked[k].shape == (2, len(table)) for k in stacked)


def test_reducer_conventions():
    assert {k: float(v) for k, v in prf_reduce(np.array([0.0, 0, 0])).items()} == {"precision": 1, "recall": 1, "f1": 1}
    assert {k: float(v) for k, v in prf_reduce(np.array([0.0, 4, 0])).items()} == {"precision": 0, "recall": 0, "f1": 0}
    assert {k: float(v) for k, v in recall_precision_reduce(np.zeros(4)).items()} == {"precision": 0, "recall": 0, "f1": 0}
    assert math.isnan(float(mean_reduce(np.array([0.0, 0.0]))["f1"]))


# ------------------------------------------------------------------ bootstrap

@pytest.mark.parametrize("reduce, make", TABLES, ids=IDS)
@pytest.mark.parametrize("n, samples, seed", [(1, 50, 0), (7, 130, 1), (23, 200, 42)])
def test_bootstrap_equals_a_naive_loop(reduce, make, n, samples, seed):
    table = make(np.random.default_rng(seed + 100), n)
    want = naive_bootstrap(table, reduce, samples, seed, 0.9)
    assert_close_stats(bootstrap(table, reduce, samples, seed, 0.9), want)


def test_bootstrap_of_nothing_is_empty():
    assert bootstrap(np.zeros((0, 3)), prf_reduce, 100) == {}
    assert bootstrap(np.ones((4, 3)), prf_reduce, 0) == {}


# ------------------------------------------------------------------ paired test

@pytest.mark.parametrize("reduce, make", TABLES, ids=IDS)
@pytest.mark.parametrize("n, samples, seed", [(1, 40, 0), (9, 150, 5), (30, 130, 11)])
def test_paired_test_equals_a_naive_loop(reduce, make, n, samples, seed):
    rng = np.random.default_rng(seed + 7)
    a, b = make(rng, n), make(rng, n)
    if reduce is mean_reduce:
        b[:, 1] = 1  # the same items on both sides
    want = naive_paired(a, b, reduce, samples, seed, 0.95)
    assert_close_tests(paired_test(a, b, reduce, samples, seed, 0.95), want)


def test_paired_test_without_samples_gives_only_the_differences():
    a = np.array([[3.0, 4, 5], [1, 2, 2]])
    b = np.array([[2.0, 4, 5], [2, 2, 2]])
    out = paired_test(a, b, prf_reduce, 0)
    assert out["f1"]["difference"] == pytest.approx(2 * 4 / 13 - 2 * 4 / 13)
    assert out["precision"]["difference"] == pytest.approx(4 / 7 - 4 / 7)
    assert all(v["p_bootstrap"] is None and v["p_randomization"] is None and all(map(math.isnan, v["ci"]))
               for v in out.values())


def test_paired_test_refuses_tables_of_different_shapes():
    with pytest.raises(ValueError, match="shape"):
        paired_test(np.ones((3, 3)), np.ones((4, 3)), prf_reduce)


# ------------------------------------------------------------------ properties

counts = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=25)


def _prf_rows(rows):
    return np.array([[min(m, g, s), g, s] for m, g, s in rows], dtype=float)


@settings(max_examples=40, deadline=None)
@given(rows=counts, block=st.integers(1, 70), samples=st.integers(1, 150), seed=st.integers(0, 2**32 - 1))
def test_results_do_not_depend_on_the_block_size(rows, block, samples, seed):
    table = _prf_rows(rows)
    other = _prf_rows([(s, g, m) for m, g, s in rows])
    ref_b = bootstrap(table, prf_reduce, samples, seed)
    ref_t = paired_test(table, other, prf_reduce, samples, seed)
    saved = resampling.BLOCK
    resampling.BLOCK = block
    try:
        got_b = bootstrap(table, prf_reduce, samples, seed)
        got_t = paired_test(table, other, prf_reduce, samples, seed)
    finally:
        resampling.BLOCK = saved
    assert got_b == ref_b
    assert got_t == ref_t


def old_paired_difference(xs, ys, samples, seed, level):
    """metaeval's definition before the one resampling module (main before 8887450): mean of
    the item differences, bootstrap of the mean, sign flips drawn by ``rng.choice([-1, 1])``."""
    d = np.asarray(xs, dtype=float) - np.asarray(ys, dtype=float)
    n = len(d)
    observed = float(d.mean())
    rng = np.random.default_rng(seed)
    boot = d[rng.integers(0, n, size=(samples, n))].mean(axis=1)
    flips = rng.choice(np.array([-1.0, 1.0]), size=(samples, n))
    perm = (flips * d).mean(axis=1)
    hits = int((np.abs(perm) >= abs(observed) - 1e-12).sum())
    # a resampled difference that is 0 in exact arithmetic is a tie, whichever side of 0
    # floating point puts it (mean of differences vs difference of means): within 1e-12
    if abs(observed) <= 1e-12:
        p_boot = 1.0
    else:
        other = (boot <= 1e-12).sum() if observed > 0 else (boot >= -1e-12).sum()
        p_boot = min(1.0, 2 * float(other) / samples)
    return {"mean": observed, "ci": percentile_interval(list(boot), level),
            "p_randomization": (hits + 1) / (samples + 1), "p_bootstrap": p_boot}


scores = st.floats(0, 1, allow_nan=False).map(lambda x: round(x, 3))


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(scores, scores), min_size=1, max_size=30),
       samples=st.integers(1, 200), seed=st.integers(0, 2**32 - 1))
@example(pairs=[(0.0, 0.0), (0.0, 0.578), (0.872, 0.108), (0.636, 0.729)], samples=39, seed=0)
def test_mean_reducer_is_metaevals_old_paired_difference(pairs, samples, seed):
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    want = old_paired_difference(xs, ys, samples, seed, 0.95)
    got = paired_difference(xs, ys, samples, seed, 0.95)
    assert got["mean"] == pytest.approx(want["mean"], abs=1e-12)
    assert got["ci"] == pytest.approx(want["ci"], abs=1e-12)
    # ties at 0 count the same in both (once they did not: 2.8e-17 against 0.0 for the
    # same resample of four items, the example below)
    assert got["p_bootstrap"] == pytest.approx(want["p_bootstrap"], abs=1e-12)
    # the randomisation rounds agree up to rounding at the boundary |perm| == |observed|
    assert got["p_randomization"] == pytest.approx(want["p_randomization"], abs=2 / (samples + 1))


def test_mean_reducer_is_metaevals_old_paired_difference_exactly_on_a_fixed_case():
    rng = np.random.default_rng(9)
    xs, ys = rng.random(50), rng.random(50)
    want = old_paired_difference(xs, ys, 1000, 4, 0.95)
    got = paired_difference(xs, ys, 1000, 4, 0.95)
    assert got["p_randomization"] == want["p_randomization"]
    assert got["p_bootstrap"] == want["p_bootstrap"]
    assert got["ci"] == pytest.approx(want["ci"], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(rows=counts, samples=st.integers(1, 120), seed=st.integers(0, 2**32 - 1))
def test_identical_systems_differ_by_zero_with_p_one(rows, samples, seed):
    table = _prf_rows(rows)
    for name, t in paired_test(table, table.copy(), prf_reduce, samples, seed).items():
        assert t["difference"] == 0, name
        assert t["p_bootstrap"] == 1.0 and t["p_randomization"] == 1.0, name
        assert t["ci"] == (0.0, 0.0), name
