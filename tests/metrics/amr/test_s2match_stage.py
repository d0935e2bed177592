"""S2match's compiled stage (:func:`mrkit.align.graded.graded_stage`) against the Python
engine, the reference path (``_score_python``, also ``MRKIT_NO_FAST_S2MATCH=1``): on every
shared pair S2match scores, the robustness files and budget-cut problems, every pair has
the same score, bound, certificate, method and mapping to the bit, and the stage hands
over (``None``) instead of guessing."""

from __future__ import annotations

import struct

import pytest

from conftest import shared_path
from penman_graphs import AMR_PAIRS, robustness_pairs

from mrkit.align import AlignConfig
from mrkit.align.graded import graded_stage
from mrkit.codecs.vectors import DictEmbeddings, NoEmbeddings
from mrkit.errors import InputError
from mrkit.features.triples import triples
from mrkit.metrics.amr import s2match as s2m
from mrkit.pipeline.amr import iter_amr_pairs
from mrkit.pipeline.amr_metrics import read_triple_pairs


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def triple_pairs(gold, system, limit: int | None = None):
    """(gold triples, system triples) of two files, or [] when they cannot be read."""
    try:
        read = read_triple_pairs(str(gold), str(system))
        if read is not None:
            _, g, s = read
            return list(zip(g, s))[:limit]
        return [(triples(a), triples(b)) for a, b in iter_amr_pairs(str(gold), str(system))][:limit]
    except InputError:
        return []


def compare(pairs, emb, config: AlignConfig = AlignConfig(), cutoff: float = 0.5) -> tuple[int, int]:
    """Assert both paths agree on every pair: (pairs, pairs the stage certified)."""
    sim = s2m._SimCache(emb, cutoff, 0.5)
    mats = sim.matrices([(s2m._concepts(a), s2m._concepts(b)) for a, b in pairs])
    certified = 0
    for k, ((ta, tb), S) in enumerate(zip(pairs, mats)):
        slow = s2m._score_python(k, None, ta, tb, S, config)
        fast = s2m._score(k, None, ta, tb, S, config, compiled=True)
        assert fast == slow, (k, fast, slow)
        assert bits(fast.matched) == bits(slow.matched) and bits(fast.bound) == bits(slow.bound)
        r = graded_stage(S, len(ta.variables), len(tb.variables), ta.attributes, tb.attributes,
                         ta.relations, tb.relations, ta.tops, tb.tops, config)
        if r is not None:
            certified += 1
            assert slow.certified and slow.method in ("bound", "branch")
    return len(pairs), certified


def glove_or_none():
    """The packaged GloVe vectors when installed (the default of `mrkit score`), else a
    small dict of related words (graded similarities around the cutoff)."""
    try:
        from mrkit.codecs.vectors import default_embeddings

        return default_embeddings()
    except Exception:
        return DictEmbeddings({"boy": [1.0, 0.2, 0.0], "girl": [0.9, 0.5, 0.1], "dog": [0.1, 1.0, 0.3],
                               "cat": [0.2, 0.9, 0.4], "want": [0.5, 0.5, 0.5], "see": [0.4, 0.6, 0.5]})


@pytest.mark.parametrize("gold,system", AMR_PAIRS, ids=[p[1].split("/")[-1] for p in AMR_PAIRS])
def test_shared_pairs_identical(gold, system):
    base = shared_path("amr")
    n, certified = compare(triple_pairs(base / gold, base / system), glove_or_none())
    assert n > 0 and certified > 0.9 * n  # not vacuous: the stage certifies most pairs


@pytest.mark.parametrize("name", ["bio/amr-release-test-bio.txt", "qald9/qald-9-amr-test.txt"])
def test_shared_files_against_themselves_identical(name):
    path = shared_path("amr") / name
    n, certified = compare(triple_pairs(path, path, limit=300), glove_or_none())
    assert certified == n  # a graph against itself: the bound is reached


def test_without_vectors_identical():
    base = shared_path("amr")
    gold, system = AMR_PAIRS[2]
    compare(triple_pairs(base / gold, base / system), NoEmbeddings())
    compare(triple_pairs(base / gold, base / system), glove_or_none(), cutoff=0.7)


def test_robustness_files_identical():
    pairs = [p for gold, system in robustness_pairs() for p in triple_pairs(gold, system)]
    n, _ = compare(pairs, glove_or_none())
    assert n > 0


@pytest.mark.parametrize("time_limit", [0.0, 1e-7, 1e-6, 3e-6, 1e-5, 3e-5, 1e-4])
def test_budget_cut_pairs_hand_over(time_limit):
    """Under a tiny work budget the Python engine stops pairs early (greedy start, no
    directed bound, a cut climb or branch-and-bound); the stage certifies only what the
    engine certifies, with the same values, and hands the rest over."""
    base = shared_path("amr")
    pairs = (triple_pairs(base / AMR_PAIRS[0][0], base / AMR_PAIRS[0][1], limit=150)
             + triple_pairs(base / AMR_PAIRS[6][0], base / AMR_PAIRS[6][1], limit=150))
    config = AlignConfig(time_limit=time_limit)
    n, certified = compare(pairs, glove_or_none(), config)
    if time_limit == 0.0:
        assert certified == 0  # nothing is affordable: every pair is handed over
    assert n == 300


def test_exact_never_certifies_exactly_what_the_engine_certifies():
    """Without the LP / ILP (``--no-ilp``) the engine's certificates all come from the
    stages the compiled stage runs: it certifies the very same pairs."""
    base = shared_path("amr")
    pairs = triple_pairs(base / AMR_PAIRS[0][0], base / AMR_PAIRS[0][1])
    config = AlignConfig(exact="never")
    sim = s2m._SimCache(glove_or_none(), 0.5, 0.5)
    mats = sim.matrices([(s2m._concepts(a), s2m._concepts(b)) for a, b in pairs])
    open_pairs = 0
    for k, ((ta, tb), S) in enumerate(zip(pairs, mats)):
        slow = s2m._score_python(k, None, ta, tb, S, config)
        r = graded_stage(S, len(ta.variables), len(tb.variables), ta.attributes, tb.attributes,
                         ta.relations, tb.relations, ta.tops, tb.tops, config)
        assert (r is not None) == slow.certified
        open_pairs += not slow.certified
    assert open_pairs > 0  # not vacuous: some pairs stay open


def test_reference_switch(monkeypatch):
    """MRKIT_NO_FAST_S2MATCH=1 sends every pair through the Python engine; the corpus is
    the same."""
    base = shared_path("amr")
    pairs = triple_pairs(base / AMR_PAIRS[2][0], base / AMR_PAIRS[2][1])
    golds, systems = [a for a, _ in pairs], [b for _, b in pairs]
    ids = [str(k) for k in range(len(pairs))]
    fast = s2m.s2match_triples_corpus(golds, systems, ids, glove_or_none())
    calls = []
    monkeypatch.setattr(s2m, "_score_python", lambda *a: calls.append(1) or _python(*a))
    monkeypatch.setenv("MRKIT_NO_FAST_S2MATCH", "1")
    slow = s2m.s2match_triples_corpus(golds, systems, ids, glove_or_none())
    assert len(calls) == len(pairs)
    assert fast.pairs == slow.pairs


_python = s2m._score_python
