"""The compiled stage for graded unary scores (``_kernel.graded_stage``, reached through
:func:`mrkit.align.graded.graded_stage`) is ``align()``'s stages before the LP step for
step: on generated problems with graded tables (ties, values around S2match's cutoff,
thirds that do not add up exactly in floating point) a result it returns is ``align()``'s
to the bit (score, bound, method, mapping); without the LP (``exact="never"``) it certifies
exactly the problems ``align()`` certifies; under cut budgets it hands over; and a
certified score is the optimum (checked by enumerating every one-to-one mapping)."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from brute_force import optimum
from mrkit.align import AlignConfig
from mrkit.align.engine import align
from mrkit.align.graded import graded_stage
from mrkit.align.problem import Features, build_problem

# similarity values: ties, the cutoff and its neighbours, S2match's diffsense 0.5 and
# halved cosines, thirds and sums that are not exact in binary
VALUES = [0.0, 0.0, 0.0, 1.0, 0.5, 0.25, 0.5 + 1e-12, 0.5 - 1e-12, np.nextafter(0.5, 1.0), 1 / 3, 2 / 3,
          0.1, 0.2, 0.30000000000000004, 0.7071067811865476, 0.26, 0.999999999999]
ROLES = ["arg0", "arg1", "mod"]


@st.composite
def graph(draw, max_nodes: int = 6):
    n = draw(st.integers(1, max_nodes))
    attrs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(["polarity", "op1", "quant"]),
                                    st.sampled_from(["-", "1", "x"])), max_size=n))
    rels = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(ROLES), st.integers(0, n - 1)),
                         max_size=2 * n))
    tops = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    return n, attrs, rels, tops


@st.composite
def problems(draw, max_nodes: int = 6):
    a, b = draw(graph(max_nodes)), draw(graph(max_nodes))
    cell = st.one_of(st.sampled_from(VALUES), st.floats(0.0, 1.0))
    S = np.array([[draw(cell) for _ in range(b[0])] for _ in range(a[0])], dtype=np.float64).reshape(a[0], b[0])
    return a, b, S


def engine_problem(a, b, S):
    """The Problem S2match hands align() (metrics/amr/s2match.py _score_python)."""
    (na, attrs_a, rels_a, tops_a), (nb, attrs_b, rels_b, tops_b) = a, b

    def features(n, attrs, rels):
        f = Features(n)
        for i, role, value in attrs:
            f.unary[i][("attr", role, value)] += 1
        f.edges = list(rels)
        return f

    fa, fb = features(na, attrs_a, rels_a), features(nb, attrs_b, rels_b)
    from mrkit.align.problem import unary_matrix

    U = unary_matrix(fa.unary, fb.unary)
    U += S
    for i in tops_a:
        for j in tops_b:
            U[i, j] += S[i, j]
    return build_problem(fa, fb, unary=U)


def stage(a, b, S, config):
    return graded_stage(np.ascontiguousarray(S), a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], config)


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def assert_same(r, res):
    score, bound, method, mapping = r
    assert res.certified
    assert (bits(score), bits(bound), method) == (bits(res.score), bits(res.bound), res.method)
    assert mapping == [int(j) for j in res.mapping]


@settings(max_examples=300, deadline=None)
@given(problems())
def test_certified_results_are_the_engines(prob):
    a, b, S = prob
    config = AlignConfig()
    r = stage(a, b, S, config)
    res = align(engine_problem(a, b, S), config)
    if r is not None:
        assert_same(r, res)


@settings(max_examples=300, deadline=None)
@given(problems(), st.integers(0, 3), st.integers(0, 5))
def test_without_lp_the_same_problems_are_certified(prob, restarts, seed):
    a, b, S = prob
    config = AlignConfig(exact="never", restarts=restarts, seed=seed)
    r = stage(a, b, S, config)
    res = align(engine_problem(a, b, S), config)
    assert (r is not None) == res.certified
    if r is not None:
        assert_same(r, res)


@settings(max_examples=200, deadline=None)
@given(problems(max_nodes=8), st.sampled_from([0.0, 1e-8, 3e-8, 1e-7, 3e-7, 1e-6, 3e-6, 1e-5]))
def test_cut_budgets_hand_over(prob, time_limit):
    a, b, S = prob
    config = AlignConfig(exact="never", time_limit=time_limit)
    r = stage(a, b, S, config)
    res = align(engine_problem(a, b, S), config)
    if r is not None:  # (a pair whose assignment is unaffordable is handed over, even when
        assert_same(r, res)  # align() certifies its greedy start)
    elif res.certified:
        small, big = sorted((a[0], b[0]))
        assert 0.1 * small * small * big + a[0] * b[0] > time_limit * 3e7 - a[0] * b[0] - len(a[2]) - len(b[2])


@settings(max_examples=150, deadline=None)
@given(problems(max_nodes=4))
def test_certified_score_is_the_optimum(prob):
    a, b, S = prob
    r = stage(a, b, S, AlignConfig(exact="never"))
    if r is None:
        return
    p = engine_problem(a, b, S)
    best = optimum(p)
    assert abs(r[0] - best) <= 1e-9
    assert abs(p.score(np.array(r[3])) - r[0]) <= 1e-9


def test_trivial_bound_summed_as_numpy_sums():
    """Wide problems whose bound is the trivial one (numpy's pairwise sum of the row and
    column maxima, from 8 and from 128 values on): the same bits as bounds.trivial_bound."""
    rng = np.random.default_rng(7)
    seen = 0
    for n in (9, 17, 40, 130, 300):
        for _ in range(3):
            S = rng.choice(np.array([0.0, 1 / 3, 0.1, 0.7, 2 / 3]), size=(n, n))
            a = (n, [], [(i, "arg0", i + 1) for i in range(0, n - 1, 2)], [0])
            b = (n, [], [(i, "arg0", i + 1) for i in range(0, n - 1, 2)], [0])
            r = stage(a, b, S, AlignConfig())
            res = align(engine_problem(a, b, S), AlignConfig())
            if r is not None:
                seen += 1
                assert_same(r, res)
    assert seen


def test_empty_sides():
    for na, nb in ((0, 3), (2, 0), (0, 0)):
        S = np.zeros((na, nb))
        r = stage((na, [], [], []), (nb, [], [], []), S, AlignConfig())
        assert r == (0.0, 0.0, "bound", [-1] * na)


def test_duplicate_features_and_relations():
    """A feature given twice counts as a multiset; a relation given twice once (as
    build_problem de-duplicates the edges)."""
    a = (2, [(0, "op1", "x"), (0, "op1", "x")], [(0, "arg0", 1), (0, "arg0", 1)], [0])
    b = (2, [(1, "op1", "x"), (1, "op1", "x"), (1, "op1", "x")], [(1, "arg0", 0)], [1])
    S = np.array([[0.0, 0.6], [0.6, 0.0]])
    r = stage(a, b, S, AlignConfig())
    assert_same(r, align(engine_problem(a, b, S), AlignConfig()))


def test_bad_input_raises():
    import pytest

    S = np.zeros((2, 2))
    with pytest.raises(ValueError):
        graded_stage(S, 2, 2, [(5, "r", "v")], [], [], [], [], [])
    with pytest.raises(ValueError):
        graded_stage(S, 2, 2, [], [], [(0, "r", 9)], [], [], [])
    with pytest.raises(ValueError):
        graded_stage(S, 2, 3, [], [], [], [], [], [])
    with pytest.raises(ValueError):
        graded_stage(S, 2, 2, [], [], [], [], [7], [0])


def test_index_like_node_numbers():
    """Node numbers may be any integer-like objects (numpy's too), as in the Python path."""
    a = (2, [(np.int64(0), "op1", "x")], [(np.int32(0), "arg0", np.int64(1))], [np.int64(0)])
    b = (2, [(0, "op1", "x")], [(0, "arg0", 1)], [0])
    S = np.array([[0.75, 0.0], [0.0, 1 / 3]])
    r = stage(a, b, S, AlignConfig())
    assert_same(r, align(engine_problem(a, b, S), AlignConfig()))
