"""WWLK never turns numbers that went wrong into a score (finding F11: huge or nan word
vectors and huge edge weights gave 1.0 for unrelated graphs, exit 0), and its streamed
scoring gives every pair the score it has alone."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import run_mrkit
from mrkit.codecs.penman import loads
from mrkit.codecs.vectors import DictEmbeddings, NoEmbeddings
from mrkit.errors import InputError
from mrkit.metrics.amr import wwlk
from mrkit.metrics.registry import score

G = "(d / dog :ARG0-of (b / bark-01))\n"
S = "(c / cat :ARG0-of (s / sleep-01 :ARG1 (m / mat)))\n"


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "g.amr").write_text(G)
    (tmp_path / "s.amr").write_text(S)
    return tmp_path


@pytest.mark.parametrize("metric", ["wwlk", "wwlk-k3e2n"])
@pytest.mark.parametrize("dog", ["1e200 1e200 0", "nan 0 0", "1e400 0 0"])
def test_vectors_not_finite_or_huge_are_an_input_error(files, metric, dog):
    (files / "vec.txt").write_text(f"cat 0 1 0\ndog {dog}\nbark 0 0 1\n")
    r = run_mrkit("score", "-m", metric, "--vectors", str(files / "vec.txt"), str(files / "g.amr"),
                  str(files / "s.amr"))
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert r.stderr.count("\n") == 1 and "vec.txt:2:" in r.stderr and "'dog'" in r.stderr, r.stderr


def test_edge_weights_that_overflow_the_node_vectors_are_an_input_error(files):
    (files / "w.tsv").write_text("ARG0 1e308\nARG1 1e308\n")
    r = run_mrkit("score", "-m", "wwlk", "--vectors", "none", "--edge-weights", str(files / "w.tsv"),
                  str(files / "g.amr"), str(files / "s.amr"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "g.amr:1, graph 1" in r.stderr and "overflow" in r.stderr, r.stderr
    with pytest.raises(InputError, match="overflow"):
        score("wwlk", loads(G), loads(S), vectors="none", edge_weights={"ARG0": 1e308, "ARG1": 1e308})


def test_the_overflowing_graph_is_named():
    # only the system graph has an edge: its node vectors overflow, the gold's do not
    with pytest.raises(InputError) as e:
        score("wwlk", loads("# ::id a\n(d / dog)\n"), loads("# ::id b\n(c / cat :mod (b / big))\n"),
              vectors="none", edge_weights={"mod": 1e308})
    assert e.value.graph == "b"


def test_a_distance_that_is_not_a_number_is_no_score():
    # POT reports such a problem as unbounded and returns cost 0: similarity 1
    with pytest.raises(ValueError):
        wwlk.wasserstein_similarity(np.array([[np.nan, 0.0]]), np.array([[1.0, 0.0]]))
    with pytest.raises(ValueError):
        wwlk.wasserstein_similarity(np.array([[np.inf, 0.0]]), np.array([[1.0, 0.0]]))


def test_large_finite_vectors_give_the_hand_computed_score():
    """Two one-node graphs, no edges: every round repeats the label's vector, so the score
    is 1 - |u - v| for the unit vectors u, v of the labels: dog (a, a, 0) and cat (a, 0, 0)
    give 1 - sqrt((1 - 1/sqrt 2)^2 + 1/2) = 1 - sqrt(2 - sqrt 2) at any scale a up to the
    readers' bound (1e100: the squares, 1e200, stay far from overflow)."""
    expected = 1 - math.sqrt(2 - math.sqrt(2))
    for a in (1.0, 1e100):
        emb = DictEmbeddings({"dog": [a, a, 0.0], "cat": [a, 0.0, 0.0]})
        assert wwlk.wwlk_scores(loads("(d / dog)"), loads("(c / cat)"), emb) == pytest.approx([expected], abs=1e-12)


def test_streaming_gives_each_pair_its_score_alone():
    """Pairs in any batch (more than one batch, equal pairs in between) score as alone."""
    concepts = ["dog", "cat", "zzqx-01", "run-02", "big", "mat", "sleep-01"]
    rng = np.random.default_rng(3)
    texts = []
    for k in range(2 * wwlk.BATCH + 37):
        a, b, c = (concepts[int(i)] for i in rng.integers(0, len(concepts), 3))
        role = ["ARG0", "ARG1", "mod"][k % 3]
        texts.append(f"(x / {a} :{role} (y / {b} :ARG1 (z / {c})))")
    golds = [loads(t)[0] for t in texts]
    systems = [loads(texts[k] if k % 5 == 0 else texts[(k * 7 + 1) % len(texts)])[0] for k in range(len(texts))]
    emb = DictEmbeddings({"dog": [1.0, 0.2, 0.0], "cat": [0.9, 0.1, 0.3], "big": [0.0, 1.0, 0.5]})
    together = wwlk.wwlk_scores(golds, systems, emb)
    alone = [wwlk.wwlk_scores([g], [s], emb)[0] for g, s in zip(golds, systems)]
    assert together == alone
    assert all(together[k] == 1.0 for k in range(0, len(texts), 5))
    views = [(wwlk.labelled_graph(g), wwlk.labelled_graph(s)) for g, s in zip(golds, systems)]
    assert list(wwlk.wwlk_stream(iter(views), emb)) == together
    assert list(wwlk.wwlk_stream(iter(views), NoEmbeddings(), 3, True)) == \
        wwlk.wwlk_scores(golds, systems, NoEmbeddings(), 3, True)
