"""The Lagrangian probe before the LP (engine._lagrangian_probe): on integral problems
too big for the full Lagrangian stage (document graphs under the sentence constraint) it
certifies what the LP / ILP certifies, with the same score and bound, and when it proves
nothing it changes nothing (same score, bound, certificate, method and stop reason as
without it, under any budget)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from mrkit.align import AlignConfig, Features, align, build_problem
from mrkit.align import engine


def document_problem(seed: int, sentences: int = 14, size: int = 12):
    """A gold 'document' of ``sentences`` sentence graphs and a system copy with some
    concepts and edges changed and each sentence's nodes shuffled; a node may map only
    to nodes of its own sentence (docsmatch's constraint); a few cross-sentence edges."""
    rng = random.Random(seed)
    unary, edges, sent = [], [], []
    for s in range(sentences):
        base = len(unary)
        n = rng.randint(size - 3, size + 3)
        for k in range(n):
            unary.append(rng.choice("abcdefghijklmnopqrst"))
            sent.append(s)
            if k:
                edges.append((base + rng.randrange(k), rng.choice(("x", "y", "z")), base + k))
        if s and rng.random() < 0.5:
            edges.append((base, "coref", rng.randrange(base)))
    perm = list(range(len(unary)))
    for s in range(sentences):  # shuffle within sentences
        idx = [k for k in perm if sent[k] == s]
        shuffled = idx[:]
        rng.shuffle(shuffled)
        for x, y in zip(idx, shuffled):
            perm[x] = y
    b_unary = [None] * len(unary)
    for k, c in enumerate(unary):
        b_unary[perm[k]] = rng.choice("abcdefghijklmnopqrst") if rng.random() < 0.15 else c
    b_edges = [(perm[x], lab if rng.random() > 0.1 else "x", perm[y]) for x, lab, y in edges if rng.random() > 0.1]
    b_sent = [None] * len(unary)
    for k, s in enumerate(sent):
        b_sent[perm[k]] = s
    a = Features(len(unary), [Counter({c: 1}) for c in unary], edges)
    b = Features(len(unary), [Counter({c: 1}) for c in b_unary], b_edges)
    allowed = np.array([[x == y for y in b_sent] for x in sent])
    return build_problem(a, b, allowed)


def without_probe(monkeypatch, p, config):
    with monkeypatch.context() as m:
        m.setattr(engine, "PROBE_MAX_WORK", 0.0)
        return align(p, config)


@pytest.mark.parametrize("seed", range(6))
def test_the_probe_certifies_what_the_lp_certifies(seed, monkeypatch):
    p = document_problem(seed)
    small, big = sorted((p.n_a, p.n_b))
    assert float(small) * small * big * engine.LAGRANGIAN_ITERATIONS > engine.LAGRANGIAN_MAX_WORK  # probe's case
    new, old = align(p), without_probe(monkeypatch, p, AlignConfig())
    assert old.certified  # the LP or the ILP proves these
    assert (new.score, new.bound, new.certified) == (old.score, old.bound, old.certified)
    assert new.score == p.score(new.mapping)


def test_some_document_problems_are_proven_by_the_probe(monkeypatch):
    """Not vacuous: the probe takes some of them, and then HiGHS is not needed."""
    methods = Counter()
    for seed in range(6):
        p = document_problem(seed)
        res = align(p)
        old = without_probe(monkeypatch, p, AlignConfig())
        methods[(old.method, res.method)] += 1
    assert methods[("lp", "bound")] + methods[("ilp", "bound")] >= 1, methods


@pytest.mark.parametrize("seconds", [1e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0, None])
def test_a_probe_that_proves_nothing_changes_nothing(seconds, monkeypatch):
    """Under budgets that stop the pairs anywhere (and none), with the probe and without
    it: the same result, except that a pair the probe proves is certified with the score
    of the unlimited run (seed 5 needs the ILP: there the probe runs and fails)."""
    for seed in range(6):
        p = document_problem(seed)
        config = AlignConfig(time_limit=seconds)
        new, old = align(p, config), without_probe(monkeypatch, p, config)
        if new.method == "bound" and old.method != "bound":
            assert new.certified and new.score == align(p, AlignConfig(time_limit=None)).score
            continue
        assert (new.score, new.bound, new.certified, new.method) == (old.score, old.bound, old.certified, old.method)
        assert new.details.get("stopped") == old.details.get("stopped")
        np.testing.assert_array_equal(new.mapping, old.mapping)
