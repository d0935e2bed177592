"""SemBLEU as the reference computes it (``reference=True``, ``mrkit score -m sembleu
--reference``) against the reference's own output.

Oracle values: freesunshine0316/sembleu@69ff2d4 (src/eval.py's reading of the graphs and
its corpus_bleu, one pair at a time, auto_reweigh, smoothing method 3), produced with

    python sembleu_head_pairs.py sys.amr gold.amr K [0.34,0.33,0.34]    # per pair
    (cd sembleu/src && python eval.py sys.amr gold.amr)                  # corpus: 0.6794674253120966

where sembleu_head_pairs.py imports eval.read_amr, amr_graph.AMRGraph (revert_of_edges,
extract_ngrams(3, multi_roots=True), length = len(amr.edges)) and
bleu_score.corpus_bleu([[ref]], [hyp], weights, SmoothingFunction().method3,
auto_reweigh=True) for each pair; GOLD and SYS below are gold.amr and sys.amr.
"""

from __future__ import annotations

import pytest

from conftest import run_mrkit
from mrkit.codecs.penman import loads
from mrkit.metrics.amr.sembleu import REFERENCE_WEIGHTS, sembleu_metric, sembleu_pair

GOLD = """(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :destination (c / city :name (n / name :op1 "Paris"))))

(l / lock :consist-of (h / hair) :ARG1-of (t / tremble-01 :ARG1-of (c / cause-01 :ARG0 (w / wind))))

(p / possible-01 :ARG1 (s / see-01 :ARG0 (i / i) :ARG1 (s2 / star :quant 5) :polarity -))

(a / and :op1 (r / run-02 :ARG0 (d / dog :mod (b / big))) :op2 (b2 / bark-01 :ARG0 d))
"""
SYS = """(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :destination (c / city :name (n / name :op1 "London"))))

(h / hair :consist-of (l / lock :ARG0-of (t / tremble-01 :ARG1-of (c / cause-01 :ARG0 (w / wind)))))

(p / possible-01 :ARG1 (s / see-01 :ARG0 (i / i) :ARG1 (s2 / star :quant 4)))

(a / and :op1 (r / run-02 :ARG0 (d / dog)) :op2 (b2 / bark-01 :ARG0 d :manner (l / loud)))
"""
# per pair, weights 1/k (the study's eval2.py), and k = 3 with the reference's weights
REFERENCE = {
    1: [0.8333333333333334, 1.0, 0.6405899223334464, 0.8],
    2: [0.8333333333333334, 0.7071067811865476, 0.6202485252364351, 0.8],
    3: [0.8045744871713582, 0.5, 0.5899883628970038, 0.7528288231048228],
}
REFERENCE_K3_WEIGHTS = [0.8025450024864343, 0.49654624771851796, 0.5880847255836887, 0.7502383551032774]
REFERENCE_CORPUS = 0.6794674253120966


@pytest.fixture(scope="module")
def graphs():
    return loads(GOLD), loads(SYS)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_pairs_equal_the_reference(graphs, k):
    golds, systems = graphs
    got = [sembleu_pair(g, s, k=k, weights=(1 / k,) * k, reference=True) for g, s in zip(golds, systems)]
    assert got == pytest.approx(REFERENCE[k], abs=1e-12)


def test_reference_weights_and_corpus(graphs):
    golds, systems = graphs
    res = sembleu_metric(golds, systems, reference=True)
    assert res.details["weights"] == list(REFERENCE_WEIGHTS)
    assert res.pair_scores == pytest.approx(REFERENCE_K3_WEIGHTS, abs=1e-12)
    assert res.corpus == pytest.approx(REFERENCE_CORPUS, abs=1e-12)


def test_default_differs_only_where_the_reference_deletes_of(graphs):
    # :consist-of is a role of its own (not an inverted :consist): pair 2 differs, the others not
    golds, systems = graphs
    default = sembleu_metric(golds, systems, k=3).pair_scores
    assert default[0] == pytest.approx(REFERENCE[3][0]) and default[2:] == pytest.approx(REFERENCE[3][2:])
    assert default[1] != pytest.approx(REFERENCE[3][1])


def test_cli_reference_flag(tmp_path):
    g, s = tmp_path / "g.amr", tmp_path / "s.amr"
    g.write_text(GOLD)
    s.write_text(SYS)
    r = run_mrkit("score", "-m", "sembleu", "--reference", str(g), str(s), "--json")
    assert r.returncode == 0, r.stderr
    import json

    assert json.loads(r.stdout)["summary"]["f1"] == pytest.approx(REFERENCE_CORPUS, abs=1e-12)
    r = run_mrkit("score", "-m", "sema", "--reference", str(g), str(s))
    assert r.returncode == 2 and "--reference" in r.stderr
