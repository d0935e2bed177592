"""The hierarchy scores without enumerating pairs: equal to a brute-force reading of
SciCo's definitions (closure pairs and mention pairs enumerated one by one, as SciCo's
eval/hypernym.py, hypernym_50.py and shortest_path.py do), and fast on a long chain."""

from __future__ import annotations

import json
import time
from collections import Counter, deque

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import run_mrkit, shared_path
from mrkit.metrics.coref.hierarchy import (closure, hierarchy50_counts, hierarchy_counts, path_ratio_counts,
                                   score_topics)
from mrkit.codecs.scico import Topic, read_scico
from mrkit.errors import InputError

# ---- brute force, straight from the definitions -------------------------------------------


def _brute_closure(rel):
    out = set(rel)
    changed = True
    while changed:
        changed = False
        for a, b in list(out):
            for c, d in list(out):
                if b == c and a != d and (a, d) not in out:
                    out.add((a, d))
                    changed = True
    return out


def _brute_hierarchy(gold, system, half):
    def holders(mentions, where, clusters):
        if half:
            if not mentions:
                return set(clusters)
            n = Counter(where[m] for m in mentions if m in where)
            return {c for c, k in n.items() if 2 * k >= len(mentions)}
        return {where[m] for m in mentions if m in where}

    def found(rel, clusters, other):
        where = {m: c for c, ms in other.clusters.items() for m in ms}
        orel = _brute_closure(other.relations)
        k = 0
        for x, y in rel:
            xs = holders(clusters.get(x, []), where, other.clusters)
            ys = holders(clusters.get(y, []), where, other.clusters)
            k += any((a, b) in orel for a in xs for b in ys)
        return k

    g, s = _brute_closure(gold.relations), _brute_closure(system.relations)
    return found(g, gold.clusters, system), len(g), found(s, system.clusters, gold), len(s)


def _brute_distance(topic, a, b):
    if a is None or b is None:
        return 0
    if a == b:
        return 1
    # SciCo's shortest_path.py builds its graph from the relations (networkx
    # add_edges_from): a cluster without mentions is a node that paths run through
    seen, queue = {a: 0}, deque([a])
    while queue:
        x = queue.popleft()
        for p, c in topic.relations:
            if p == x and c not in seen:
                seen[c] = seen[x] + 1
                queue.append(c)
    return seen[b] + 1 if b in seen else 0


def _brute_path(gold, system, with_tn):
    gw = {m: c for c, ms in gold.clusters.items() for m in ms}
    sw = {m: c for c, ms in system.clusters.items() for m in ms}
    mentions = sorted(set(gw) | set(sw))
    num = den = 0
    for m1 in mentions:
        for m2 in mentions:
            a = _brute_distance(gold, gw.get(m1), gw.get(m2))
            b = _brute_distance(system, sw.get(m1), sw.get(m2))
            if a == 0 and b == 0:
                if with_tn:
                    num += 1
                    den += 1
                continue
            num += min(a, b) / max(a, b)
            den += 1
    return num, den


def _topic(assignment, rel, extra):
    clusters: dict = {}
    for i, c in enumerate(assignment):
        clusters.setdefault(c, []).append((0, i + extra, i + extra))
    return Topic("t", clusters, rel)


dag = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)).filter(lambda r: r[0] < r[1]), max_size=12)


# the relation strategy drops every (i, j) with i >= j; on some random seeds that is most draws
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(dag, dag, st.lists(st.integers(0, 6), min_size=1, max_size=9),
       st.lists(st.integers(0, 6), min_size=1, max_size=9), st.integers(0, 3))
def test_scores_equal_the_brute_force_definitions(grel, srel, gassign, sassign, shift):
    """Different mentions on the two sides (shifted spans), relations to clusters
    without mentions (ids 7), several parents, repeated relations."""
    gold, system = _topic(gassign, grel, 0), _topic(sassign, srel, shift)
    h = hierarchy_counts(gold, system)
    assert (h.r_num, h.r_den, h.p_num, h.p_den) == _brute_hierarchy(gold, system, half=False)
    h50 = hierarchy50_counts(gold, system)
    assert (h50.r_num, h50.r_den, h50.p_num, h50.p_den) == _brute_hierarchy(gold, system, half=True)
    assert h.r_den == len(closure(grel)) and h.p_den == len(closure(srel))
    for tn in (False, True):
        num, den = path_ratio_counts(gold, system, tn)
        bnum, bden = _brute_path(gold, system, tn)
        assert den == bden
        assert num == pytest.approx(bnum, rel=1e-12, abs=1e-12)


def test_hand_computed_chain_scores():
    """Gold chain 0 -> 1 -> 2 (one mention each); system chain 0 -> 2 with mention 1 in
    cluster 0.  By hand: gold closure {01, 02, 12}; system closure {02}.  Recall: 01 ->
    S(0)={0}, S(1)={0}: (0,0) no; 02 -> (0,2) yes; 12 -> (0,2) yes: 2/3.  Precision: 02
    -> G(0)={0,1}, G(2)={2}: (0,2) yes: 1/1.  Path ratio over the 9 ordered pairs: gold
    d(0,1)=2, d(0,2)=3, d(1,2)=2, selves 1; system: m0,m1 same cluster (1 both ways),
    d(m0,m2)=d(m1,m2)=2, selves 1.  Pairs: 3 selves 1 each; (m0,m1) 1/2; (m1,m0) g 0 s 1
    -> 0; (m0,m2) 2/3; (m1,m2) 2/2; the rest 0 on both sides: num = 3 + 1/2 + 2/3 + 1,
    den 7."""
    gold = Topic("t", {0: [(0, 0, 0)], 1: [(0, 1, 1)], 2: [(0, 2, 2)]}, [(0, 1), (1, 2)])
    system = Topic("t", {0: [(0, 0, 0), (0, 1, 1)], 2: [(0, 2, 2)]}, [(0, 2)])
    h = hierarchy_counts(gold, system)
    assert (h.r_num, h.r_den, h.p_num, h.p_den) == (2, 3, 1, 1)
    num, den = path_ratio_counts(gold, system)
    assert den == 7 and num == pytest.approx(3 + 1 / 2 + 2 / 3 + 1)
    num, den = path_ratio_counts(gold, system, with_tn=True)
    assert den == 9 and num == pytest.approx(3 + 1 / 2 + 2 / 3 + 1 + 2)


def test_3000_cluster_chain_in_seconds():
    """robustness/scico-3000-cluster-chain.jsonl: a chain of 3,000 one-mention clusters
    against itself (quadratic closure before).  By hand: 3000 * 2999 / 2 = 4,498,500
    closure relations on each side, all found; 4,498,500 + 3,000 connected ordered
    mention pairs at equal distances."""
    path = shared_path("robustness", "scico-3000-cluster-chain.jsonl")
    topics = read_scico(path)
    start = time.process_time()
    result = score_topics(topics, topics)
    assert time.process_time() - start < 10
    t = result.topics[0]
    assert (t.hierarchy.r_num, t.hierarchy.r_den, t.hierarchy.p_num, t.hierarchy.p_den) == (4498500,) * 4
    assert (t.hierarchy50.r_num, t.hierarchy50.r_den) == (4498500,) * 2
    assert t.path == (4501500.0, 4501500)
    assert t.path_tn == (9_000_000.0, 9_000_000)


# ---- the SciCo reader's errors and warnings -----------------------------------------------


@pytest.mark.parametrize("name,message", [
    ("sc-rel-cycle.jsonl", "topic 1: the relations form a cycle: 10 -> 20 -> 10"),
    ("sc-float-offset.jsonl", "topic 1: a mention must be [paragraph, start, end, cluster] with integer offsets"),
    ("sc-para-oob.jsonl", "topic 1: mention [7, 0, 0, 30]: paragraph 7 is out of range"),
])
def test_bad_scico_files_are_one_line_errors(name, message):
    path = shared_path("robustness", name)
    with pytest.raises(InputError) as err:
        read_scico(path)
    assert f"{path}:1, {message}" in str(err.value)
    run = run_mrkit("hierarchy", str(path), str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"mrkit: {path}:1, topic 1: ")


def test_relation_to_a_cluster_without_mentions_warns_and_keeps_scicos_value():
    """SciCo's own code counts [10, 99] (cluster 99 has no mentions) as a relation that
    can never be found: self-score 1/2 on the hierarchy (by hand: closure {10->20,
    10->99}; 10->20 found, 10->99 not), with a warning naming the relation."""
    path = shared_path("robustness", "scico-relation-to-missing-cluster.jsonl")
    with pytest.warns(UserWarning, match=r":1, topic 1: relation \[10, 99\] names cluster 99"):
        topics = read_scico(path)
    result = score_topics(topics, topics)
    assert result.prf("hierarchy") == (0.5, 0.5, 0.5)
    run = run_mrkit("hierarchy", str(path), str(path), "--json")
    assert run.returncode == 0 and json.loads(run.stdout)["hierarchy"]["f1"] == 0.5
    lines = run.stderr.splitlines()
    assert lines == [f"mrkit: warning: {path}:1, topic 1: relation [10, 99] names cluster 99, which has no "
                     "mentions (counted, as SciCo does)"]


@pytest.mark.parametrize("obj,message", [
    ({"id": 1, "mentions": []}, "no 'tokens' list"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 1, 1]], "relations": []}, "tokens 0..1 are not inside paragraph 0"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, -1, 0, 1]], "relations": []}, "are not inside paragraph 0"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 10 ** 18, 1]], "relations": []}, "are not inside paragraph 0"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, True, 0, 1]], "relations": []}, "integer offsets"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, [1]]], "relations": []}, "integer offsets"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 1]], "relations": [[1]]}, "[parent, child]"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 1]], "relations": [[1, 1]]}, "cycle: 1 -> 1"),
    ({"id": 1, "tokens": [["a"]], "mentions": {}}, "'mentions' must be a list"),
    ({"id": [1], "tokens": []}, "topic 'id' must be"),
    # SciCo's code reads topic["mentions"] and topic["relations"]: no default for either
    ({"id": 1, "tokens": [["a"]], "relations": []}, "no 'mentions' key"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 1]]}, "no 'relations' key"),
    ({"id": 1, "tokens": [["a"]], "mentions": [], "relatons": []}, 'no .relations. key.*"relatons"'),
])
def test_scico_reader_refuses(tmp_path, obj, message):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_scico(path)


def test_cycle_in_a_topic_built_in_code_is_an_input_error():
    t = Topic("t", {1: [(0, 0, 0)], 2: [(0, 1, 1)]}, [(1, 2), (2, 1)])
    with pytest.raises(InputError, match="cycle"):
        hierarchy_counts(t, t)


def test_undefined_hierarchy_and_coref_scores(tmp_path, capsys):
    """No relations: the hierarchy scores are 0/0 (shown 0, SciCo's value); one-mention
    clusters only, with singletons removed (SciCo's default): every coreference metric is
    0/0.  The path ratio is defined (each mention is connected to itself: 2/2)."""
    from mrkit.cli import main

    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 1], [0, 1, 1, 2]],
                                "relations": []}) + "\n")
    topics = read_scico(path)
    result = score_topics(topics, topics)
    assert result.prf("hierarchy") == (0.0, 0.0, 0.0)
    assert result.topics[0].path == (2.0, 2)
    assert result.undefined == ["hierarchy", "hierarchy50"] + [
        f"coref {m}" for m in ("mentions", "muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "conll")]
    assert main(["hierarchy", str(path), str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["undefined"][:2] == ["hierarchy", "hierarchy50"]
    assert main(["hierarchy", str(path), str(path)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert next(l for l in table if l.startswith("hierarchy ")).split() == ["hierarchy", "0.00*", "0.00*", "0.00*"]
    assert next(l for l in table if l.startswith("path ratio (micro)")).split()[-1] == "100.00"
    assert table[-1].startswith("* undefined (0/0)")


def test_topics_pair_exactly():
    """Like coreference documents: a topic id twice, or a system topic gold lacks, is an
    error (before, the last one silently won / it was silently ignored)."""
    a = Topic("1", {1: [(0, 0, 0)]}, [], "g.jsonl", 1)
    b = Topic("2", {1: [(0, 0, 0)]}, [], "s.jsonl", 2)
    with pytest.raises(InputError, match="s.jsonl:2, topic 2: topic of the system file is not in the gold"):
        score_topics([a], [a, b])
    with pytest.raises(InputError, match="topic id appears twice"):
        score_topics([a, a], [a])
    with pytest.raises(InputError, match="topic id appears twice"):
        score_topics([a], [a, a])


def test_many_unrelated_clusters_are_linear():
    """20,000 one-mention clusters, no relations, against a system that pairs them up:
    only same-cluster pairs are connected.  By hand: gold connects each mention to
    itself (20,000 pairs at 1); the system also connects the two mentions of each pair
    (20,000 more ordered pairs at 1, gold 0): num 20,000, den 40,000; with TN the
    other 4*10^8 - 40,000 pairs count 1 each."""
    n = 20_000
    gold = Topic("t", {i: [(0, i, i)] for i in range(n)}, [])
    system = Topic("t", {i // 2: [] for i in range(n)}, [])
    for i in range(n):
        system.clusters[i // 2].append((0, i, i))
    start = time.process_time()
    assert path_ratio_counts(gold, system) == (20_000.0, 40_000)
    assert path_ratio_counts(gold, system, with_tn=True) == (n * n - 20_000, n * n)
    assert time.process_time() - start < 5
