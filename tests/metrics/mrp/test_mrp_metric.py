"""The MRP metric: normalizations, counts on hand-made graphs, invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.align import AlignConfig
from mrkit.errors import InputError
from mrkit.model.graph import Anchor, Graph, Property
from mrkit.metrics.mrp.mrp import candidate_pairs, mrp_score, pair_graphs, score_graph
from mrkit.features.mrp_tuples import explode, mrp_tuples, normal_edge

TEXT = "Pierre Vinken, 61 years old."


def eds(gid="1", text=TEXT, framework="eds"):
    g = Graph(id=gid, framework=framework, text=text)
    g.extra["flavor"] = 1
    return g


# ------------------------------------------------------------------ normalization

def test_explode_trims_punctuation_and_whitespace():
    # "Vinken," -> positions of "Vinken" only; "61 years" -> without the space
    assert explode(TEXT, [Anchor(7, 14)]) == frozenset(range(7, 13))
    assert explode(TEXT, [Anchor(15, 23)]) == frozenset([15, 16] + list(range(18, 23)))
    # two spans are one set
    assert explode(TEXT, [Anchor(0, 6), Anchor(7, 13)]) == frozenset(list(range(0, 6)) + list(range(7, 13)))


def test_explode_never_empty():
    # "," alone trims to nothing: keep its position instead of an empty set
    assert explode(TEXT, [Anchor(13, 14)]) == frozenset([13])
    assert explode(TEXT, [Anchor(27, 28)]) == frozenset([27])
    assert explode(TEXT, [Anchor(13, 14)]) != explode(TEXT, [Anchor(27, 28)])


def test_values_labels_and_names_are_case_insensitive_strings():
    a, b = eds(), eds()
    a.add_node("0", "Named", properties=[Property("CARG", "Pierre"), Property("num", "42")])
    b.add_node("7", "named", properties=[Property("carg", "PIERRE"), Property("num", "42", quoted=True)])
    s = score_graph(a, b)
    assert s.counts["labels"].c == 1
    assert s.counts["properties"].c == 2


@pytest.mark.parametrize("label,normal,expected", [
    ("ARG0-of", None, ("b", "a", "arg0")),
    ("mod", None, ("b", "a", "domain")),
    ("consist-of", None, ("a", "b", "consist-of")),
    ("subset-of", None, ("a", "b", "subset-of")),
    ("prep-out-of", None, ("a", "b", "prep-out-of")),
    ("ARG1", None, ("a", "b", "arg1")),
    ("whatever-of", "ARG2", ("b", "a", "arg2")),
])
def test_amr_edges_are_uninverted(label, normal, expected):
    assert normal_edge("amr", "a", "b", label, normal) == expected


def test_of_suffix_is_only_uninverted_in_amr():
    assert normal_edge("eds", "a", "b", "ARG0-of", None) == ("a", "b", "arg0-of")
    assert normal_edge("psd", "a", "b", "mod", None) == ("a", "b", "mod")


def test_inverted_and_domain_edges_match_their_base_direction():
    a, b = Graph(id="1", framework="amr"), Graph(id="1", framework="amr")
    for g in (a, b):
        g.add_node("0", "want-01")
        g.add_node("1", "boy")
        g.add_node("2", "nice")
        g.tops = ["0"]
    a.add_edge("1", "0", "ARG0-of")
    a.add_edge("1", "2", "mod")
    b.add_edge("0", "1", "ARG0")
    b.add_edge("2", "1", "domain")
    s = score_graph(a, b)
    assert s.counts["edges"].c == 2 and s.all.perfect


def test_default_attributes_are_dropped():
    g = Graph(id="1", framework="ucca", text="a b")
    g.add_node("0", anchors=[Anchor(0, 1)])
    g.add_node("1", anchors=[Anchor(2, 3)])
    g.add_node("2")
    g.add_edge("2", "0", "A", attributes=[Property("remote", "false")])
    g.add_edge("2", "1", "P", attributes=[Property("remote", "true")])
    t = mrp_tuples(g)
    assert t.attributes == {(2, 1, "p", "remote", "true")}
    assert t.counts() == {"tops": 0, "labels": 0, "properties": 0, "anchors": 2, "edges": 2, "attributes": 1}


# ------------------------------------------------------------------ counts by hand

def two_node_graph(gid="1", labels=("_pierre_n", "named"), edge="ARG1", top="0", anchors=((0, 6), (7, 13))):
    g = eds(gid)
    g.add_node("0", labels[0], anchors=[Anchor(*anchors[0])])
    g.add_node("1", labels[1], properties=[Property("carg", "Vinken")], anchors=[Anchor(*anchors[1])])
    g.add_edge("0", "1", edge)
    g.tops = [top]
    return g


def test_hand_counts():
    gold = two_node_graph()
    # system: other node ids and order, one label wrong, edge label wrong, second anchor off
    system = eds()
    system.add_node("5", "named", properties=[Property("carg", "Vinken")], anchors=[Anchor(7, 14)])
    system.add_node("3", "_pierre_a", anchors=[Anchor(0, 5)])
    system.add_edge("3", "5", "ARG2")
    system.tops = ["3"]
    s = score_graph(gold, system)
    got = {k: (c.g, c.s, c.c) for k, c in s.counts.items()}
    # anchors: (7,14) "Vinken," trims to "Vinken" = gold's; (0,5) != (0,6)
    assert got == {"tops": (1, 1, 1), "labels": (2, 2, 1), "properties": (1, 1, 1),
                   "anchors": (2, 2, 1), "edges": (1, 1, 0), "attributes": (0, 0, 0)}
    assert s.certified and s.mapping == {"0": "3", "1": "5"}
    assert s.all.f == pytest.approx(2 * 4 / (7 + 7))


def test_missing_system_graph_scores_as_empty():
    gold = [two_node_graph("1"), two_node_graph("2")]
    res = mrp_score(gold, [two_node_graph("2")])
    a = res.totals()["all"]
    assert (a.g, a.s, a.c) == (14, 7, 7)
    assert [g.missing for g in res.graphs] == [True, False]
    assert res.summary()["missing"] == 1 and res.certified == 2


def test_empty_gold_graph_counts_system_tuples():
    res = mrp_score([eds("1")], [two_node_graph("1")])
    a = res.totals()["all"]
    assert (a.g, a.s, a.c) == (0, 7, 0)
    res = mrp_score([eds("1")], [eds("1")])
    assert res.totals()["all"].f == 1.0 and res.certified == 1


def test_pairs_by_framework_and_id():
    g_eds, g_dm = two_node_graph("1"), two_node_graph("1")
    g_dm.framework = "dm"
    s_dm = two_node_graph("1", labels=("x", "y"))
    s_dm.framework = "dm"
    pairs, extra = pair_graphs([g_eds, g_dm], [s_dm, two_node_graph("9")])
    assert [(g.framework, s.framework if s else None) for g, s in pairs] == [("eds", None), ("dm", "dm")]
    assert extra == 1


def test_duplicate_id_is_an_input_error():
    a, b = two_node_graph("1"), two_node_graph("1")
    b.source_file, b.source_line = "sys.mrp", 2
    with pytest.raises(InputError, match=r"sys.mrp:2, graph 1: duplicate eds id '1'"):
        pair_graphs([two_node_graph("1")], [a, b])


def test_candidates_use_anchor_overlap_and_yields():
    g = Graph(id="1", framework="ucca", text="a b c")
    for k, (s, e) in enumerate([(0, 1), (2, 3), (4, 5)]):
        g.add_node(str(k), anchors=[Anchor(s, e)])
    g.add_node("3")
    g.add_node("4")
    g.add_edge("3", "0", "A")
    g.add_edge("3", "1", "P")
    g.add_edge("4", "3", "H")
    g.add_edge("4", "2", "U")
    allowed = candidate_pairs(mrp_tuples(g), mrp_tuples(g))
    # unit 3 spans "a b": overlaps terminals 0, 1 and unit 4 ("a b c"), not terminal 2
    assert allowed[3].tolist() == [True, True, False, True, True]
    assert allowed[2].tolist() == [False, False, True, False, True]


# ------------------------------------------------------------------ invariants

@st.composite
def graphs(draw, gid="1"):
    text = "ab cd ef gh ij"
    n = draw(st.integers(0, 7))
    g = Graph(id=gid, framework="eds", text=text)
    for k in range(n):
        start = 3 * draw(st.integers(0, 4))
        g.add_node(str(k), draw(st.sampled_from(["x", "y", "Z", None])),
                   properties=[Property("p", v) for v in draw(st.lists(st.sampled_from("abc"), max_size=2))],
                   anchors=[Anchor(start, start + 2)] if draw(st.booleans()) else [])
    if n:
        for _ in range(draw(st.integers(0, 2 * n))):
            g.add_edge(str(draw(st.integers(0, n - 1))), str(draw(st.integers(0, n - 1))),
                       draw(st.sampled_from(["ARG1", "ARG2", "BV"])),
                       attributes=[Property("remote", "true")] if draw(st.booleans()) else [])
        g.tops = [str(draw(st.integers(0, n - 1)))]
    return g


EXACT = AlignConfig(exact="always")


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_self_score_is_perfect(g):
    s = score_graph(g, g, EXACT)
    assert s.certified and all(c.f == 1.0 for c in s.counts.values())


@settings(max_examples=60, deadline=None)
@given(graphs(), graphs())
def test_symmetric_and_bounded(a, b):
    ab, ba = score_graph(a, b, EXACT), score_graph(b, a, EXACT)
    assert ab.certified and ba.certified
    assert ab.all.c == ba.all.c
    assert ab.all.g == ba.all.s and ab.all.s == ba.all.g
    for k, c in ab.counts.items():
        assert 0 <= c.c <= min(c.g, c.s), k


@settings(max_examples=40, deadline=None)
@given(graphs(), graphs(), st.randoms(use_true_random=False))
def test_node_ids_and_order_do_not_matter(a, b, rnd):
    perm = list(b.nodes)
    rnd.shuffle(perm)
    new = {old: f"n{k}" for k, old in enumerate(perm)}
    c = Graph(id=b.id, framework=b.framework, text=b.text)
    for old in perm:
        n = b.nodes[old]
        c.add_node(new[old], n.label, properties=list(n.properties), anchors=list(n.anchors))
    for e in b.edges:
        c.add_edge(new[e.source], new[e.target], e.label, attributes=list(e.attributes))
    c.tops = [new[t] for t in b.tops]
    assert score_graph(a, b, EXACT).all.c == score_graph(a, c, EXACT).all.c


@settings(max_examples=30, deadline=None)
@given(graphs(), graphs(), st.randoms(use_true_random=False))
def test_engine_start_mapping_changes_nothing_but_the_search(a, b, rnd):
    from mrkit.align import align, build_problem

    fa, fb = mrp_tuples(a).features(), mrp_tuples(b).features()
    p = build_problem(fa, fb)
    start = list(range(fb.n))
    rnd.shuffle(start)
    start = (start + [-1] * fa.n)[:fa.n]
    plain, seeded = align(p, EXACT), align(p, EXACT, start=start)
    assert plain.certified and seeded.certified and plain.score == seeded.score
