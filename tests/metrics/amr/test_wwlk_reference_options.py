"""WWLK with the reference's options: communication direction, a user vector file of any
dimension, learned edge weights from a file; against the reference's output.

Oracle values: flipz357/weisfeiler-leman-amr-metrics@51624e2, ``main_wlk_wasser.py -a a.amr
-b b.amr -k 2 -random_init_relation ones -round_decimals 12 -communication_direction DIR``
with gensim's downloader replaced by ``KeyedVectors.load_word2vec_format(VEC, no_header=True)``
on the 5-dimensional vector file VEC below (every label has a vector and every edge weight
is 1: nothing is random, one draw).  A, B and VEC are a.amr, b.amr and vec.txt.
"""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit
from mrkit.codecs.penman import loads
from mrkit.codecs.vectors import read_edge_weights
from mrkit.errors import InputError
from mrkit.metrics.registry import score

VEC = """want 0.1 0.3 -0.2 0.5 0.0
boy 0.7 -0.1 0.2 0.1 0.3
go 0.2 0.2 0.9 -0.3 0.1
girl 0.6 0.0 0.3 0.2 -0.4
city -0.5 0.4 0.1 0.0 0.2
see 0.3 -0.6 0.2 0.4 0.1
cat 0.0 0.1 -0.7 0.3 0.5
dog 0.1 0.2 -0.6 0.2 0.6
big -0.2 -0.3 0.4 0.6 0.1
"""
A = """(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :ARG4 (c / city)))

(s / see-01 :ARG0 (g / girl) :ARG1 (c / cat :mod (b / big)))

(w / want-01 :ARG0 (d / dog) :ARG1 (g / go-02 :ARG0 d))
"""
B = """(w / want-01 :ARG0 (g2 / girl) :ARG1 (g / go-02 :ARG0 g2 :ARG4 (c / city :mod (b / big))))

(s / see-01 :ARG0 (g / girl) :ARG1 (d / dog))

(w / want-01 :ARG0 (c / cat) :ARG1 (g / go-02 :ARG0 (d / dog)))
"""
REFERENCE = {
    "both": [0.39753609765, 0.61424098623, 0.552889799664],
    "fromout": [0.187601946826, 0.374245508975, 0.758449311829],
    "fromin": [0.652459128584, 0.714641726827, 0.633810443252],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("wwlk")
    (d / "vec.txt").write_text(VEC)
    (d / "a.amr").write_text(A)
    (d / "b.amr").write_text(B)
    (d / "ones.tsv").write_text("# learned weights\n:ARG0 1\n:ARG1\t1.0\nARG4 1\n:mod 1\n")
    return d


@pytest.mark.parametrize("direction", ["both", "fromout", "fromin"])
def test_direction_equals_the_reference(files, direction):
    res = score("wwlk", loads(A), loads(B), vectors=str(files / "vec.txt"), edge_weight=1.0,
                direction=direction)
    # the reference solves the transport with pyemd: equal to about 1e-8
    assert res.pair_scores == pytest.approx(REFERENCE[direction], abs=1e-6)


def test_edge_weights_file_is_the_fixed_weights(files):
    kw = {"vectors": str(files / "vec.txt"), "direction": "fromin"}
    from_file = score("wwlk", loads(A), loads(B), edge_weights=str(files / "ones.tsv"), **kw).pair_scores
    assert from_file == pytest.approx(REFERENCE["fromin"], abs=1e-6)
    # other weights move the scores; a role not in the file keeps its drawn weights
    half = score("wwlk", loads(A), loads(B), edge_weights={":ARG0": 0.5, "arg1": 0.5, "arg4": 0.5, "mod": 0.5},
                 **kw).pair_scores
    assert half == pytest.approx(score("wwlk", loads(A), loads(B), edge_weight=0.5, **kw).pair_scores, abs=1e-12)
    assert half != pytest.approx(from_file)
    partial = score("wwlk", loads(A), loads(B), edge_weights={"arg0": 1.0}, **kw).pair_scores
    drawn = score("wwlk", loads(A), loads(B), **kw).pair_scores
    assert partial != pytest.approx(drawn) and partial != pytest.approx(from_file)


def test_edge_weights_json_and_errors(tmp_path):
    p = tmp_path / "w.json"
    p.write_text('{":ARG0": 0.3, "mod": 2}')
    assert read_edge_weights(p) == {"arg0": 0.3, "mod": 2.0}
    bad = tmp_path / "bad.tsv"
    bad.write_text(":ARG0 0.3\n:ARG1 heavy\n")
    with pytest.raises(InputError) as e:
        read_edge_weights(bad)
    assert e.value.line == 2
    with pytest.raises(InputError):
        read_edge_weights(tmp_path / "missing.tsv")


def test_cli_options(files):
    args = ["score", "-m", "wwlk", str(files / "a.amr"), str(files / "b.amr"), "--vectors",
            str(files / "vec.txt"), "--edge-weights", str(files / "ones.tsv"), "--direction", "fromout",
            "--per-pair", "--json"]
    r = run_mrkit(*args)
    assert r.returncode == 0, r.stderr
    per = [p["f1"] for p in json.loads(r.stdout)["per_pair"]]
    assert per == pytest.approx(REFERENCE["fromout"], abs=1e-6)
    bad = files / "bad.tsv"
    bad.write_text("ARG0\n")
    r = run_mrkit(*args[:7], "--edge-weights", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "bad.tsv:1" in r.stderr
    r = run_mrkit("score", "-m", "sema", str(files / "a.amr"), str(files / "b.amr"), "--direction", "fromin")
    assert r.returncode == 2 and "--direction" in r.stderr
