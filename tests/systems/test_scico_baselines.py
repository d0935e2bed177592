"""SciCo's baselines without a trained model: hand-made topics worked out by hand, SciCo's
own lexical baseline as oracle, and the greedy insertion's invariants."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from conftest import run_mrkit, shared_path
from mrkit.codecs.scico import Topic, find_cycle
from mrkit.systems.agglomerative import agglomerative
from mrkit.systems.hierarchy import cluster_scores, greedy_relations
from mrkit.systems.levenshtein import cluster_topic, levenshtein, similarity
from mrkit.systems.two_stage import predict_topic

LEX = {"id": "lex", "tokens": [["neural", "network", "neural", "networks", "graph", "theory", "graph", "theories",
                                "x"], ["neural", "net", "deep", "learning", "deep", "learners"]],
       "mentions": [[0, 0, 1, 0], [0, 2, 3, 0], [0, 4, 5, 1], [0, 6, 7, 1], [0, 8, 8, 2], [1, 0, 1, 0],
                    [1, 2, 3, 3], [1, 4, 5, 3]], "relations": []}
# SciCo's lexical_baseline.get_topic_cluster on LEX (sklearn >= 1.4 spelling of its
# 'affinity' argument; driver oracle_lexical.py in the scratch folder):
#   python oracle_lexical.py lex_topics.jsonl
LEX_SCICO = [2, 2, 1, 1, 3, 4, 0, 0]


def _partition(labels):
    groups: dict = {}
    for i, c in enumerate(labels):
        groups.setdefault(c, []).append(i)
    return sorted(groups.values())


def _topic(record) -> Topic:
    t = Topic(str(record["id"]), {}, [tuple(r) for r in record["relations"]], None, None, [], record["tokens"])
    for p, s, e, c in record["mentions"]:
        t.clusters.setdefault(c, []).append((p, s, e))
        t.mentions.append(((p, s, e), c))
    return t


def test_levenshtein_by_hand():
    assert levenshtein("kitten", "sitting") == 3
    assert similarity("graph theory", "graph theories") == pytest.approx(1 - 3 / 14)
    assert similarity("", "") == 1.0


def test_levenshtein_baseline_by_hand_and_equal_to_scico():
    # "neural network(s)" 1/15 apart; "graph theory/theories" 3/14; "deep learning/learners"
    # 3/13: merged (< 0.3).  "neural net" is 4/14 from "neural network" but 5/15 from
    # "neural networks": average 0.31 >= 0.3, not merged.  "x" alone.
    out = cluster_topic(_topic(LEX))
    labels = [c for _, c in out.mentions]
    assert _partition(labels) == [[0, 1], [2, 3], [4], [5], [6, 7]]
    assert _partition(labels) == _partition(LEX_SCICO)
    assert out.relations == []


def test_levenshtein_baseline_on_handmade_equals_scico():
    # SciCo's lexical baseline on scico-handmade/gold.jsonl: every mention alone (texts
    # like "a0" and "a2 a3" are at least 0.5 apart)
    folder = shared_path("coref", "scico-handmade")
    r = run_mrkit("scico", "baseline", "levenshtein", str(folder / "gold.jsonl"))
    assert r.returncode == 0, r.stderr
    for line in r.stdout.splitlines():
        t = json.loads(line)
        clusters = [m[3] for m in t["mentions"]]
        assert len(set(clusters)) == len(clusters)


def test_agglomerative_average_linkage_by_hand():
    # a-b 0.1, c 0.25 from a and 0.45 from b: {a,b} at 0.1, then c at mean(0.25, 0.45) = 0.35
    d = [[0, 0.1, 0.25], [0.1, 0, 0.45], [0.25, 0.45, 0]]
    assert agglomerative(d, 0.3) == [0, 0, 1]
    assert agglomerative(d, 0.36) == [0, 0, 0]
    assert agglomerative(d, 0.35) == [0, 0, 1]  # a merge at the threshold is not made
    assert agglomerative(d, 0.1) == [0, 1, 2]
    assert agglomerative([[0]], 0.3) == [0]


def test_greedy_by_hand():
    cands = [("a", "b", 0.9), ("b", "a", 0.8), ("c", "b", 0.7), ("b", "c", 0.6), ("c", "a", 0.3)]
    # a->b (0.9); b->a would close a cycle; c->b: b has a parent; b->c; c->a below 0.4
    assert greedy_relations(cands, 0.4) == [("a", "b"), ("b", "c")]
    assert greedy_relations(cands, 0.0) == [("a", "b"), ("b", "c")]  # c->a: cycle a->b->c->a


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.floats(0, 1)), max_size=60),
       st.floats(0, 1))
def test_greedy_never_creates_a_cycle(cands, threshold):
    rel = greedy_relations(cands, threshold)
    assert find_cycle(rel) is None
    children = [c for _, c in rel]
    assert len(children) == len(set(children))  # one parent each
    assert all(p != c for p, c in rel)
    kept = {(p, c) for p, c, s in cands if s >= threshold}
    assert set(rel) <= kept


def test_cluster_scores_mean_over_mention_pairs():
    labels = ["A", "A", "B"]
    s = {(0, 2): 0.8, (1, 2): 0.4, (2, 0): 0.1}
    out = cluster_scores(labels, lambda i, j: s[(i, j)], s)
    assert out == {("A", "B"): pytest.approx(0.6), ("B", "A"): pytest.approx(0.1)}


def test_two_stage_by_hand():
    # 4 mentions: 0,1 corefer (0.9); 2,3 corefer (0.8); across 0.1.  0 and 1 are children
    # of 2 and 3 (p_child 0.7, 0.6, 0.5, 0.4 -> mean 0.55 >= 0.4); the other way 0.1.
    t = _topic({"id": 1, "tokens": [["w"] * 4], "mentions": [[0, i, i, 0] for i in range(4)], "relations": []})
    scores = {}
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            same = (i < 2) == (j < 2)
            scores[(i, j)] = {"coref": (0.9 if i < 2 else 0.8) if same else 0.1, "child": 0.1}
    for (i, j), p in {(0, 2): 0.7, (0, 3): 0.6, (1, 2): 0.5, (1, 3): 0.4}.items():
        scores[(i, j)]["child"] = p
    out = predict_topic(t, scores)
    labels = [c for _, c in out.mentions]
    assert _partition(labels) == [[0, 1], [2, 3]]
    assert out.relations == [(labels[2], labels[0])]
    # stop threshold above 0.55: no relation
    assert predict_topic(t, scores, hierarchy_threshold=0.6).relations == []


def test_pairs_baseline_cli_and_scored(tmp_path):
    folder = shared_path("coref", "scico-handmade")
    gold = folder / "gold.jsonl"
    rows = ["topic\ti\tj\tcoref\tchild"]
    for line in gold.read_text().splitlines():  # scores from gold itself: the pipeline recovers topic 3
        t = json.loads(line)
        if t["id"] != 3:
            continue
        cl = [m[3] for m in t["mentions"]]
        for i in range(len(cl)):
            for j in range(len(cl)):
                if i != j:
                    child = 1.0 if (cl[j], cl[i]) in {(7, 8), (8, 9)} else 0.0
                    rows.append(f"3\t{i}\t{j}\t{float(cl[i] == cl[j])}\t{child}")
    scores = tmp_path / "s.tsv"
    scores.write_text("\n".join(rows) + "\n")
    out = tmp_path / "out.jsonl"
    r = run_mrkit("scico", "baseline", "pairs", str(gold), "--scores", str(scores), "-o", str(out))
    assert r.returncode == 0, r.stderr
    t3 = [json.loads(l) for l in out.read_text().splitlines()][2]
    labels = [m[3] for m in t3["mentions"]]
    assert _partition(labels) == [[0, 1, 2, 3], [4, 5], [6]]
    assert sorted(map(tuple, t3["relations"])) == sorted([(labels[0], labels[4]), (labels[4], labels[6])])


def test_pairs_baseline_bad_scores_is_one_line(tmp_path):
    gold = shared_path("coref", "scico-handmade") / "gold.jsonl"
    bad = tmp_path / "bad.tsv"
    bad.write_text("topic\ti\tj\tcoref\n1\t0\tx\t0.5\n")
    out = tmp_path / "out.jsonl"
    r = run_mrkit("scico", "baseline", "pairs", str(gold), "--scores", str(bad), "-o", str(out))
    assert r.returncode == 2 and "bad.tsv:2" in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


def test_agglomerative_of_no_item_and_one_item():
    # nothing to cluster: no label; one item: its own cluster (scipy's linkage needs two)
    assert agglomerative([], 0.3) == []
    assert agglomerative([[0.0]], 0.3) == [0]
    with pytest.raises(ValueError, match="square"):
        agglomerative([[]], 0.3)


@pytest.mark.parametrize("mentions,expected", [
    ([], []),  # a topic without mentions: an output topic without mentions, clusters or relations
    ([[0, 1, 1, 7]], [[0, 1, 1, 0]]),  # one mention: one cluster, numbered 0 as the baselines number
])
@pytest.mark.parametrize("baseline", ["levenshtein", "pairs"])
def test_baselines_on_a_topic_with_no_or_one_mention(tmp_path, mentions, expected, baseline):
    topics = tmp_path / "t.jsonl"
    topics.write_text(json.dumps({"id": 1, "tokens": [["a0", "a1"]], "mentions": mentions, "relations": []}) + "\n")
    out = tmp_path / "out.jsonl"
    extra = []
    if baseline == "pairs":
        scores = tmp_path / "s.tsv"
        scores.write_text("topic\ti\tj\tcoref\tchild\tparent\n")  # no pair to score
        extra = ["--scores", str(scores)]
    r = run_mrkit("scico", "baseline", baseline, str(topics), *extra, "-o", str(out))
    assert (r.returncode, r.stderr) == (0, "")
    assert [json.loads(line) for line in out.read_text().splitlines()] == [
        {"id": 1, "tokens": [["a0", "a1"]], "mentions": expected, "relations": []}]
