"""The branch-and-bound of the compiled Smatch stage (``_kernel.smatch_stage``) is
engine.py's ``_branch_and_bound`` step for step: on integer-coded problems it certifies
exactly the pairs ``align()`` certifies by a bound or by branching, with the same score,
under every work budget; and a certified score is the optimum (checked by enumerating
every one-to-one mapping of small graphs: the bounds are proofs, not estimates)."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brute_force import optimum
from mrkit.align import AlignConfig, _kernel
from mrkit.align.config import WORK_PER_SECOND
from mrkit.align.engine import align
from mrkit.align.problem import _problem


@st.composite
def coded(draw, max_nodes: int = 6):
    """Two small graphs with few concept and edge labels (symmetric, so that the first
    bounds leave gaps and the search has to branch)."""
    def graph():
        n = draw(st.integers(1, max_nodes))
        feats = [sorted(set(draw(st.lists(st.integers(0, 3), min_size=0, max_size=2)))) for _ in range(n)]
        edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(10, 11)),
                              max_size=2 * n))
        return n, feats, list(dict.fromkeys(edges))

    return graph(), graph()


def codes_of(a, b) -> bytes:
    (na, fa, ea), (nb, fb, eb) = a, b
    words = [na, nb, len(ea), len(eb), sum(map(len, fa)), sum(map(len, fb))]
    for feats in (fa, fb):
        ptr = [0]
        for f in feats:
            ptr.append(ptr[-1] + len(f))
        words += ptr + [x for f in feats for x in f]
    words += [x for e in ea for x in e] + [x for e in eb for x in e]
    return np.array(words, dtype=np.int64).tobytes()


def problem_of(a, b):
    """The engine's Problem of the same pair, with the label ids the kernel uses (dense
    ranks of the label codes)."""
    (na, fa, ea), (nb, fb, eb) = a, b
    U = np.array([[float(len(set(x) & set(y))) for y in fb] for x in fa])
    labels = sorted({e[2] for e in ea} | {e[2] for e in eb})
    rank = {lab: k for k, lab in enumerate(labels)}

    def arr(edges):
        out = np.empty((len(edges), 3), dtype=np.int32)
        for k, (s, t, lab) in enumerate(edges):
            out[k] = (s, t, rank[lab])
        return out

    return _problem(U, np.ones((na, nb), dtype=np.uint8), arr(ea), arr(eb), True, len(labels))


def stage(codes: bytes, config: AlignConfig):
    work = -1.0 if config.exact == "always" or config.time_limit is None else config.time_limit * WORK_PER_SECOND
    return _kernel.smatch_stage(codes, work, config.restarts, config.seed & 0xFFFFFFFFFFFFFFFF)


def check(a, b, config: AlignConfig) -> str:
    p = problem_of(a, b)
    got = stage(codes_of(a, b), config)
    res = align(p, AlignConfig(restarts=config.restarts, seed=config.seed, exact="never",
                               time_limit=config.time_limit))
    if res.certified:
        assert res.method in ("bound", "branch")
        assert got == res.score
    else:
        assert got is None
    if got is not None:
        assert got == int(got)  # integral counts, never a float near one
    return res.method


@settings(max_examples=300, deadline=None)
@given(coded())
def test_the_stage_certifies_what_the_engine_certifies_without_lp(pair):
    check(*pair, AlignConfig())
    check(*pair, AlignConfig(restarts=0, seed=3))


@settings(max_examples=150, deadline=None)
@given(coded(max_nodes=5))
def test_a_certified_score_is_the_optimum(pair):
    got = stage(codes_of(*pair), AlignConfig(time_limit=None))
    p = problem_of(*pair)
    if got is not None:
        assert got == optimum(p)


def test_generated_problems_reach_the_branch_and_bound():
    """Not vacuous: some generated problems are certified only by branching."""
    import random

    rng = random.Random(5)
    methods = {}
    for _ in range(400):
        def graph():
            n = rng.randint(3, 7)
            feats = [sorted({rng.randint(0, 2)}) for _ in range(n)]
            edges = list(dict.fromkeys((rng.randrange(n), rng.randrange(n), rng.choice((10, 11)))
                                       for _ in range(2 * n)))
            return n, feats, edges
        a, b = graph(), graph()
        m = check(a, b, AlignConfig())
        methods[m] = methods.get(m, 0) + 1
    assert methods.get("branch", 0) >= 5, methods


@pytest.mark.parametrize("seconds", [0.0, 1e-6, 1e-5, 1e-4, 2e-4, 3e-4, 5e-4, 7e-4, 1e-3, 2e-3, 5e-3])
def test_budgets_cut_the_branching_where_the_engine_cuts_it(seconds):
    """Under small work budgets the stage stops (or certifies) exactly where align() does
    (from 2e-4 s on, some of these pairs are cut inside the branching, some closed by it)."""
    import random

    rng = random.Random(int(seconds * 1e7) + 1)
    for _ in range(60):
        def graph():
            n = rng.randint(4, 8)
            feats = [sorted({rng.randint(0, 2)}) for _ in range(n)]
            edges = list(dict.fromkeys((rng.randrange(n), rng.randrange(n), rng.choice((10, 11)))
                                       for _ in range(2 * n)))
            return n, feats, edges
        check(graph(), graph(), AlignConfig(time_limit=seconds))
