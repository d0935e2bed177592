"""SciCo's further evaluation against SciCo's own code on ../shared/data/coref/scico-handmade.

Oracle: ariecattan/SciCo, the evaluation code it removed in commit ee169b6, restored into
a copy of e1055b74 (eval/stat_metrics.py from 6fa4dc2: AUC; eval/ancestor.py from
0360781: CommonAncestor; utils/conll.py write_connected_components + evaluate.eval_coref
as evaluate.py called them before ee169b6), run with scikit-learn 1.8, networkx 3.6.1,
python 3.11 by a driver in the scratch folder:

    cd scico_copy && python oracle_extra.py gold.jsonl system.jsonl

* AUC: SciCo's class raises on this corpus (its per-topic line calls roc_auc_score on
  topics 2 and 3, which lack a class); the pooled value below is its own
  get_multiclass_prediction / get_one_hot_vector / roc_auc_score(multi_class="ovo",
  average="macro") over the three topics, without the per-topic line.
* CommonAncestor raises as written (NetworkXError: node 10 is not in the digraph: it passes
  cluster ids where mention indices belong); the values below are its code with the two
  slips fixed (delta(graph, x, y) on mention indices; A(x) | A(y) without aliasing).
* Components: SciCo's CoNLL writer loses mention e2..e4 of topic 2 (see
  test_coref_hierarchy.py); reproduced here before scoring.
"""

from __future__ import annotations

import pytest

from conftest import shared_path
from mrkit.codecs.scico import read_scico
from mrkit.metrics.coref.ancestor import common_ancestor, topic_score
from mrkit.metrics.coref.auroc import binary_auc, ovo_auroc, structure_auroc, scores_auroc
from mrkit.metrics.coref.components import component_topic
from mrkit.metrics.coref.pairs import CHILD, COREF, NONE, PARENT, pair_classes
from mrkit.metrics.coref.score import score_documents
from mrkit.codecs.scico import Topic

AUROC = 0.6008061761289881
AUROC_TOPIC_1 = 0.7157287157287157
AUROC_PAIRS = 123
ANCESTOR = 0.7514285714285714
ANCESTOR_TOPICS = [0.7198412698412698, 0.6566666666666666, 0.8777777777777778]
COMPONENTS = {  # coval through SciCo's evaluate.eval_coref on the *_connected.conll files
    "mentions": (0.8235294117647058, 0.9333333333333333, 0.8749999999999999),
    "muc": (0.7142857142857143, 0.9090909090909091, 0.8),
    "bcub": (0.5476190476190477, 0.8777777777777779, 0.6744617668893839),
    "ceafe": (0.7777777777777778, 0.5833333333333334, 0.6666666666666666),
    "lea": (0.4901960784313726, 0.8666666666666667, 0.626204238921002),
}
COMPONENTS_CONLL_SUM = 2.1411284335560503


@pytest.fixture(scope="module")
def topics():
    folder = shared_path("coref", "scico-handmade")
    with pytest.warns(UserWarning):
        system = read_scico(folder / "system.jsonl")
    return read_scico(folder / "gold.jsonl"), system


def test_auroc_equals_scico(topics):
    gold, system = topics
    r = structure_auroc(list(zip(gold, system)))
    assert r.score == pytest.approx(AUROC, abs=1e-12)
    assert r.pairs == AUROC_PAIRS
    assert r.per_topic["1"] == pytest.approx(AUROC_TOPIC_1, abs=1e-12)
    assert r.per_topic["2"] is None and r.per_topic["3"] is None  # sklearn raises there


def test_common_ancestor_equals_scico_fixed(topics):
    gold, system = topics
    r = common_ancestor(list(zip(gold, system)))
    assert r.score == pytest.approx(ANCESTOR, abs=1e-12)
    assert list(r.per_topic.values()) == pytest.approx(ANCESTOR_TOPICS, abs=1e-12)


def _lose(topic):
    doc = component_topic(topic).document()
    if topic.id == "2":
        doc.clusters = [[m for m in c if m != (1, 2, 4)] for c in doc.clusters]
    return doc


def test_components_coreference_equals_scico(topics):
    gold, system = topics
    r = score_documents([_lose(t) for t in gold], [_lose(t) for t in system], keep_singletons=False)
    for m, v in COMPONENTS.items():
        assert r.prf(m) == pytest.approx(v, abs=1e-12), m
    assert 3 * r.conll_f1 == pytest.approx(COMPONENTS_CONLL_SUM, abs=1e-12)


def _topic(mentions, relations=()):
    t = Topic("t", {}, list(relations), None, None, [], [["w"] * 20])
    for i, c in enumerate(mentions):
        m = (0, i, i)
        t.clusters.setdefault(c, []).append(m)
        t.mentions.append((m, c))
    return t


def test_pair_classes_by_hand():
    # a -> b -> c ; d unrelated; x -> ghost (no mentions) links nothing
    t = _topic(["a", "a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("d", "ghost")])
    k = pair_classes(t)
    n = 5
    assert k[0 * n + 1] == COREF and k[0] == COREF
    assert k[0 * n + 2] == PARENT and k[2 * n + 0] == CHILD
    assert k[0 * n + 3] == PARENT  # transitive
    assert k[3 * n + 4] == NONE


def test_ancestor_by_hand():
    # gold a -> b (one mention each): A(x)={x}, A(y)={x,y}: delta 1/2; system: unrelated: 0
    g = _topic(["a", "b"], [("a", "b")])
    s = _topic(["a", "b"])
    assert topic_score(g, s) == pytest.approx(0.5)
    assert topic_score(g, g) == 1.0
    # two coreferent mentions without ancestors: {x} vs {y}: 0 on both sides
    assert topic_score(_topic(["a", "a"]), _topic(["a", "b"])) == 1.0
    assert topic_score(_topic(["a"]), _topic(["a"])) is None


def test_binary_auc_by_hand():
    assert binary_auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert binary_auc([0.5], [0.5]) == 0.5
    assert binary_auc([0.9, 0.1], [0.5]) == 0.5
    assert ovo_auroc([0, 1], [[1, 0, 0, 0], [0, 1, 0, 0]]) is None  # classes 2, 3 absent


def test_scores_auroc_perfect_and_reversed():
    g = _topic(["a", "a", "b", "c"], [("a", "b")])
    classes = pair_classes(g)
    n = 4
    perfect = {"t": {(i, j): {c: float(classes[i * n + j] == k) for k, c in enumerate(("none", "coref", "parent",
                                                                                        "child"))}
                     for i in range(n) for j in range(n)}}
    assert scores_auroc([(g, g)], perfect).score == 1.0
    flipped = {"t": {p: {c: 1 - v for c, v in row.items()} for p, row in perfect["t"].items()}}
    assert scores_auroc([(g, g)], flipped).score == 0.0


def test_within_document_split_by_hand():
    from mrkit.metrics.coref.components import split_by_document
    from mrkit.pipeline.coref import extra_scores

    def topic(clusters):
        t = Topic("t", {}, [], None, None, [], [["w"] * 3] * 3, {"doc_ids": ["A", "A", "B"]})
        for m, c in zip([(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 1), (2, 1, 1)], clusters):
            t.clusters.setdefault(c, []).append(m)
            t.mentions.append((m, c))
        return t

    g, s = topic("xxxyy"), topic("xzxyy")
    pairs = split_by_document(g, s)
    assert [k.id for k, _ in pairs] == ["t/A", "t/B"]
    assert sorted(map(sorted, pairs[0][0].clusters)) == [[(0, 0, 0), (1, 0, 0)], [(0, 1, 1)]]
    out = extra_scores([(g, s)], ("within_document",), keep_singletons=False)["within_document"]
    # document A: gold x has one link, the system none (singletons removed); B: singletons only
    assert out["documents"] == 2
    assert out["muc"]["counts"] == {"r_num": 0.0, "r_den": 1.0, "p_num": 0.0, "p_den": 0.0}
