"""aggregate/_reduce.c, the compiled per-pair columns and means, against their Python
references: every value of a compiled column is the Python's (NaN where it is NaN, zeros
of the same sign), the means have the bits (``float.hex``) of ``pairwise_sum(...) / n``,
of ``np.mean`` and of the builtin ``sum``; the compiled code refuses (None) exactly where
the Python's ints are not all exact doubles; whole commands print the same bytes with the
extension and with ``MRKIT_PURE_REDUCE=1``."""

from __future__ import annotations

import math
import os
import sys
from array import array
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_mrkit, shared_path
from mrkit.aggregate import corpus, reducers
from mrkit.aggregate import reducers as compiled  # the loader and the compiled twins
from mrkit.metrics.result import MetricScores

_reduce = pytest.importorskip("mrkit.aggregate._reduce")

LIMIT = 2 ** 53


@contextmanager
def pure():
    """The Python reference path (as MRKIT_PURE_REDUCE gives it)."""
    saved = list(compiled._COMPILED)
    compiled._COMPILED[:] = [None]
    try:
        yield
    finally:
        compiled._COMPILED[:] = saved


@contextmanager
def fast():
    saved = list(compiled._COMPILED)
    compiled._COMPILED[:] = [_reduce]
    try:
        yield
    finally:
        compiled._COMPILED[:] = saved


def same(a: float, b: float) -> bool:
    """The same float: both NaN, or equal with the same sign (of a zero)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def same_column(got, want) -> bool:
    return len(got) == len(want) and all(same(float(a), float(b)) for a, b in zip(got, want))


# ------------------------------------------------------------------ strategies

EDGES = [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129, 135, 136, 255, 256, 257, 263, 264, 511, 1000]
lengths = st.integers(0, 1000) | st.sampled_from(EDGES)

small_ints = st.integers(0, 60)
exact_ints = st.integers(-LIMIT, LIMIT) | st.sampled_from([0, 1, LIMIT - 1, LIMIT, -LIMIT, 2 ** 52, 2 ** 52 + 1])
big_ints = st.integers(-2 ** 63, 2 ** 63 - 1) | st.sampled_from([LIMIT + 1, LIMIT + 2, 2 ** 62, 2 ** 63 - 1, -2 ** 63])
SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
           math.inf, -math.inf, math.nan, 1.0, 0.5, 2.0 ** 53, 2.0 ** 53 + 2]
floats = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True) | st.sampled_from(SPECIAL)
unit_floats = st.floats(0.0, 1.0) | st.sampled_from([0.0, -0.0, 5e-324, 1.0, 0.5, 1 / 3])


@st.composite
def column_of(draw, n: int):
    """One column as the summary may hold it: array('q') (Python ints to the reference),
    array('d'), or int64 storage the reference reads as floats (array('l'), a memoryview)."""
    kind = draw(st.sampled_from(["q", "d", "l", "mq", "md"]))
    if kind in ("q", "l", "mq"):
        ints = draw(st.sampled_from([small_ints, exact_ints, big_ints]))
        values = draw(st.lists(ints, min_size=n, max_size=n))
        a = array("q" if kind != "l" else "l", values)
        return memoryview(a) if kind == "mq" else a
    values = draw(st.lists(st.one_of(floats, small_ints.map(float)), min_size=n, max_size=n))
    a = array("d", values)
    return memoryview(a) if kind == "md" else a


@st.composite
def prf_tables(draw):
    n = draw(st.integers(0, 40) | st.sampled_from([0, 7, 8, 9, 128, 129, 300]))
    return [draw(column_of(n)) for _ in range(3)]


def python_prf(columns) -> dict:
    with pure():
        got = reducers._prf_columns(columns)
        return {k: list(got[k]) for k in got}


# ------------------------------------------------------------------ columns

@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cols=prf_tables())
def test_prf_columns_equal_the_python(cols):
    want = python_prf(cols)
    ints = compiled.int_flags(cols)
    with fast():
        got = reducers._prf_columns(cols)
        for k in ("precision", "recall", "f1"):
            assert same_column(got[k], want[k]), k
    refused = _reduce.prf_column(2, *cols, ints) is None
    beyond = any(memoryview(c).format in ("q", "l") and any(abs(x) > LIMIT for x in c) for c in cols)
    two_int_sums = ints & 6 == 6 and any(abs(g + s) > LIMIT and float(g + s) != g + s
                                         for g, s in zip(cols[1], cols[2]))
    assert refused == (beyond or two_int_sums)
    if not refused:
        for k, which in (("precision", 0), ("recall", 1), ("f1", 2)):
            out = array("d")
            out.frombytes(_reduce.prf_column(which, *cols, ints))
            assert same_column(out, want[k]), k


@settings(max_examples=200, deadline=None)
@given(n=lengths, data=st.data())
def test_prf_columns_of_counts_at_every_length(n, data):
    """Counts as the kernels give them (int64, a float matched column), lengths around the
    8 and 128 blocks; the F1 mean through the result's summary."""
    m = data.draw(st.sampled_from(["q", "d"]))
    rows = data.draw(st.lists(st.tuples(small_ints, small_ints, small_ints), min_size=n, max_size=n))
    cols = [array(m, [r[0] for r in rows]), array("q", [r[1] for r in rows]), array("q", [r[2] for r in rows])]
    want = python_prf(cols)
    with fast():
        got = reducers._prf_columns(cols)
        assert all(isinstance(got[k], array) and got[k].typecode == "d" for k in got)
        for k in want:
            assert same_column(got[k], want[k])
        if n:
            mean = corpus.CorpusResult._mean(got["f1"])
            assert mean.hex() == (corpus.pairwise_sum(want["f1"]) / n).hex()
            assert mean.hex() == float(np.mean(np.asarray(want["f1"]))).hex()


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_ratio_column_equals_the_python(data):
    n = data.draw(st.integers(0, 40) | st.sampled_from([0, 8, 129]))
    cols = [data.draw(column_of(n)), data.draw(column_of(n))]
    with pure():
        want = reducers._mean_columns(cols)["f1"]
    with fast():
        got = reducers._mean_columns(cols)["f1"]
    assert same_column(got, want)
    beyond = any(memoryview(c).format in ("q", "l") and any(abs(x) > LIMIT for x in c) for c in cols)
    assert (_reduce.ratio_column(*cols) is None) == beyond


def test_not_a_buffer_of_int64_or_float64_is_left_to_python():
    assert _reduce.prf_column(0, [1], [1], [1], 0) is None
    assert _reduce.prf_column(0, array("i", [1]), array("q", [1]), array("q", [1]), 0) is None
    assert _reduce.prf_column(0, array("d", [1.0]), array("q", [1]), array("q", [1]), 1) is None  # int flag on floats
    assert _reduce.ratio_column(array("f", [1.0]), array("d", [1.0])) is None
    assert _reduce.mean(array("q", [1, 2])) is None and _reduce.mean((1.0, 2.0)) is None
    assert _reduce.builtin_sum(array("q", [1, 2])) is None and _reduce.builtin_sum([1.0]) is None
    with pytest.raises(ValueError):
        _reduce.prf_column(0, array("q", [1, 2]), array("q", [1]), array("q", [1]), 7)
    with pytest.raises(ValueError):
        _reduce.prf_column(3, array("q"), array("q"), array("q"), 0)
    with pytest.raises(ValueError):
        _reduce.ratio_column(array("d", [1.0]), array("d", []))
    with fast():  # tuples (a RowTable's columns) go the Python way, as before
        assert reducers._prf_columns([(1, 2), (2, 2), (2, 4)])["f1"] == [2 * 1 / 4, 2 * 2 / 6]


def test_ints_beyond_2_53_stay_exact_through_python():
    """The Python divides such ints exactly (one rounding); doubles would round twice."""
    g = 2 ** 53 + 1
    cols = [array("q", [1]), array("q", [g]), array("q", [g])]
    assert _reduce.prf_column(0, *cols, 7) is None
    with fast():
        assert reducers._prf_columns(cols)["recall"] == [1 / g]
    cols = [array("q", [2 ** 52 + 1]), array("q", [LIMIT]), array("q", [1])]  # g + s = 2**53 + 1: not a double
    assert _reduce.prf_column(2, *cols, 7) is None
    with fast():
        assert reducers._prf_columns(cols)["f1"] == [2 * (2 ** 52 + 1) / (LIMIT + 1)]
    cols = [array("q", [3]), array("q", [LIMIT]), array("q", [2])]  # g + s = 2**53 + 2: a double
    assert _reduce.prf_column(2, *cols, 7) is not None


# ------------------------------------------------------------------ means

float_lists = st.lists(floats, max_size=1000) | lengths.flatmap(lambda n: st.lists(unit_floats, min_size=n, max_size=n))


@settings(max_examples=400, deadline=None)
@given(xs=float_lists)
def test_mean_has_the_bits_of_pairwise_sum_and_np_mean(xs):
    got = _reduce.mean(array("d", xs))
    if not xs:
        assert math.isnan(got)
        return
    want = corpus.pairwise_sum(xs) / len(xs)
    assert same(got, want)
    if not math.isnan(want):
        assert got.hex() == want.hex()
    with np.errstate(all="ignore"):  # numpy adds the sum to its identity 0.0 first (see below)
        assert same((0.0 + corpus.pairwise_sum(xs)) / len(xs), float(np.mean(np.asarray(xs, dtype=np.float64))))
    with fast():
        assert same(corpus.CorpusResult._mean(array("d", xs)), want)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 128, 129, 300])
def test_the_mean_of_negative_zeros(n):
    """The one place where pairwise_sum's bits and np.mean's differ: a sum of negative zeros
    of 8 values or more is -0.0 (the 8 partial sums start from the values), and numpy adds
    it to its identity 0.0 (+0.0).  The compiled mean keeps pairwise_sum's (today's) bits."""
    xs = [-0.0] * n
    got = _reduce.mean(array("d", xs))
    assert same(got, corpus.pairwise_sum(xs) / n)
    assert same(got, 0.0 if n < 8 else -0.0)
    assert same(float(np.mean(np.asarray(xs))), 0.0)


@settings(max_examples=200, deadline=None)
@given(n=lengths, data=st.data())
def test_mean_of_scores_at_every_length(n, data):
    xs = data.draw(st.lists(unit_floats, min_size=n, max_size=n))
    if n:
        got = _reduce.mean(array("d", xs))
        assert got.hex() == (corpus.pairwise_sum(xs) / n).hex() == float(np.mean(np.asarray(xs))).hex()


@settings(max_examples=400, deadline=None)
@given(xs=float_lists)
def test_builtin_sum_is_this_pythons_sum(xs):
    got = _reduce.builtin_sum(array("d", xs))
    want = float(sum(xs))  # the int 0 for no values
    assert same(got, want)
    if xs and not math.isnan(want):
        assert got.hex() == want.hex()


def test_builtin_sum_compensates_from_python_3_12():
    """Python 3.12's sum of floats is Neumaier's compensated sum, earlier ones add in order."""
    xs = [1.0, 1e100, 1.0, -1e100]
    assert _reduce.builtin_sum(array("d", xs)) == sum(xs) == (2.0 if sys.version_info >= (3, 12) else 0.0)


def _scores(per) -> MetricScores:
    from mrkit.aggregate.columns import ColumnTable

    cols = [array("d", per), array("d", [1.0]) * len(per)]
    return MetricScores("m", ColumnTable(cols), reducers.mean_reduce, [None] * len(per), columns=("score", "weight"))


@settings(max_examples=200, deadline=None)
@given(per=float_lists)
def test_macro_is_the_builtin_mean_of_the_pair_scores(per):
    with pure():
        want = _scores(per).macro
    with fast():
        res = _scores(per)
        got = res.macro
    assert same(got, want)
    assert not per or same(want, sum(res.pair_scores) / len(per))
    assert per or got == 1.0


# ------------------------------------------------------------------ whole commands

SICK = ("amr", "bamboo", "sick")
LP = ("amr", "parseeval-little-prince")


def _both(args: list[str]) -> tuple:
    env = {k: v for k, v in os.environ.items() if k != "MRKIT_PURE_REDUCE"}
    return _run(args, env), _run(args, dict(env, MRKIT_PURE_REDUCE="1"))


def _run(args, env):
    """``python -m mrkit ARGS`` as :func:`conftest.run_mrkit` runs it, in the environment ``env``."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        return run_mrkit(*args)
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.mark.parametrize("pair", [(SICK, "main_src.test.amr", "main_tgt.test.amr"), (LP, "gold.amr", "t5.amr"),
                                  (LP, "gold.amr", "bart.amr")], ids=["sick", "lp-t5", "lp-bart"])
@pytest.mark.parametrize("command", [["score", "-m", "sema"], ["score", "-m", "sembleu"], ["score", "-m", "wlk"],
                                     ["score", "-m", "simple"], ["smatch", "-j", "1"], ["smatch", "-j", "2"]],
                         ids=["sema", "sembleu", "wlk", "simple", "smatch-j1", "smatch-j2"])
def test_commands_print_the_same_bytes_without_the_extension(pair, command):
    folder, gold, system = pair
    g, s = str(shared_path(*folder, gold)), str(shared_path(*folder, system))
    for extra in (["--per-pair", "--json"], ["--json"], []):
        a, b = _both([*command, g, s, *extra])
        assert a.returncode == b.returncode == 0, (a.stderr, b.stderr)
        assert a.stdout == b.stdout and a.stdout


def test_the_environment_switch_selects_the_python(monkeypatch):
    monkeypatch.setattr(compiled, "_COMPILED", [])
    monkeypatch.setenv("MRKIT_PURE_REDUCE", "1")
    assert compiled.reduce_module() is None and compiled.mean(array("d", [1.0])) is None
    monkeypatch.setattr(compiled, "_COMPILED", [])
    monkeypatch.delenv("MRKIT_PURE_REDUCE")
    assert compiled.reduce_module() is _reduce and compiled.mean(array("d", [1.0, 2.0])) == 1.5
