"""The exact solver's certificate is a proof: a mapping reported optimal by the ILP stage
reaches the optimum, whatever start the climber hands HiGHS.

highspy 1.16, given a start solution, can report "optimal" with a better objective and
return the start unchanged; the mapping read back was then certified (Bio test vs dev,
pair 56: 15 matched triples certified, smatchpp's exact ILP finds 17)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from brute_force import optimum
from conftest import run_mrkit, shared_path
from mrkit.align import Features, build_problem
from mrkit.align.ilp import _Model, solve_ilp

LABELS = ("a", "b")


@st.composite
def problems(draw):
    def side(n):
        unary = [Counter({draw(st.sampled_from(LABELS)): 1}) for _ in range(n)]
        edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(("r", "s")),
                                        st.integers(0, n - 1)), max_size=6))
        return Features(n, unary, edges)

    na, nb = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return build_problem(side(na), side(nb)), draw(st.lists(st.integers(-1, nb - 1), min_size=na, max_size=na))


@settings(max_examples=80, deadline=None)
@given(problems())
def test_a_certified_ilp_mapping_is_the_optimum_from_any_start(case):
    p, start = case
    start = np.array(start, dtype=np.int32)
    used = start[start >= 0]
    if len(set(used.tolist())) != len(used):  # a start is one-to-one
        start = np.full(p.n_a, -1, dtype=np.int32)
    res = solve_ilp(p, start=start, time_limit=None)
    best = optimum(p)
    assert res.score <= best + 1e-9 and res.bound >= best - 1e-9
    if res.optimal:
        assert res.score == pytest.approx(best, abs=1e-9)


def test_a_mapping_short_of_highs_objective_is_solved_again(monkeypatch):
    """The guard itself: a run that says optimal but returns a mapping below its objective
    is solved again without the start; if that fell short too, it would not be optimal."""
    a = Features(3, [Counter({"x": 1})] * 3, [(0, "r", 1), (1, "r", 2)])
    b = Features(3, [Counter({"x": 1})] * 3, [(0, "r", 1), (1, "r", 2)])
    p = build_problem(a, b)
    poor = np.array([2, 1, 0], dtype=np.int32)  # the concepts only: no edge matched
    model = _Model(p)
    real = model._solved
    calls = []

    def short_first(start, time_limit, max_nodes):
        calls.append(start is not None)
        mapping, score, bound, optimal, reason = real(start, time_limit, max_nodes)
        if start is not None:  # what HiGHS 1.16 did: the start back, "optimal", a better objective
            return np.array(start, dtype=np.int32), p.score(start), bound + 2, False, "short"
        return mapping, score, bound, optimal, reason

    monkeypatch.setattr(model, "_solved", short_first)
    res = model.solve(poor, None)
    assert calls == [True, False]
    assert res.optimal and res.score == optimum(p) == p.score(np.array([0, 1, 2]))


def test_the_bio_pair_highs_returned_unchanged_is_solved_to_its_optimum(tmp_path):
    """Bio test vs dev, the 56th pair: 17 triples matched (smatchpp 1.8's exact ILP, and
    an optimal mapping counted on mrkit's own triples); mrkit certified 15 before."""
    base = shared_path("amr", "bio")

    def block(path, k):
        from mrkit.codecs.penman import iter_block_lists

        blocks = [b for chunk in iter_block_lists(str(path), content_only=True) for b in chunk]
        return blocks[k][1]

    (tmp_path / "g.amr").write_text(block(base / "amr-release-test-bio.txt", 55) + "\n", encoding="utf-8")
    (tmp_path / "s.amr").write_text(block(base / "amr-release-dev-bio.txt", 55) + "\n", encoding="utf-8")
    import json

    r = run_mrkit("smatch", str(tmp_path / "g.amr"), str(tmp_path / "s.amr"), "--json", "--per-pair", timeout=300)
    assert r.returncode == 0, r.stderr
    pair = json.loads(r.stdout)["per_pair"][0]
    assert (pair["matched"], pair["gold"], pair["system"]) == (17, 60, 67)
    assert pair["certified"]
