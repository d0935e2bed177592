"""The pair descriptions of the HTML report: graph views and the marks of matched triples."""

from __future__ import annotations

import json

import pytest
from conftest import shared_path

from mrkit.codecs.penman import loads as loads_penman
from mrkit.pipeline.inspect import alignment_marks, amr_study, graph_view

# gold: (a / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))
#   elements: instances a b g | attribute g:polarity - | edges a-ARG0-b a-ARG1-g g-ARG0-b | top a
# system: (w / want-01 :ARG0 (x / girl) :ARG1 (y / go-02 :ARG0-of w))
#   elements: instances w x y | edges w-ARG0-x w-ARG1-y y-ARG0-of-w (= w ARG0 y) | top w
GOLD = "(a / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))"
SYSTEM = "(w / want-01 :ARG0 (x / girl) :ARG1 (y / go-02 :ARG0-of w))"


def test_graph_view_keeps_the_graph_as_written():
    v = graph_view(loads_penman(SYSTEM)[0])
    assert v["v"] == ["w", "x", "y"]
    assert v["c"] == ["want-01", "girl", "go-02"]
    assert v["e"] == [[0, "ARG0", 1, 0], [0, "ARG1", 2, 0], [2, "ARG0-of", 0, 1]]  # 1: inverted
    assert v["t"] == [0]


def test_marks_by_hand():
    g, s = graph_view(loads_penman(GOLD)[0]), graph_view(loads_penman(SYSTEM)[0])
    # mapping a->w, b->x, g->y: instance a, g match (b: boy vs girl does not); polarity has no image;
    # a ARG0 b -> w ARG0 x matches, a ARG1 g -> w ARG1 y matches, g ARG0 b -> y ARG0 x: the system
    # has w ARG0 y instead, no match; top a -> w matches
    gm, sm, counts = alignment_marks(g, s, [0, 1, 2])
    assert gm == "101" + "0" + "110" + "1"
    # system: instances w, y matched, x not; w ARG0 x, w ARG1 y matched; y ARG0-of w (w ARG0 y) not; top
    assert sm == "101" + "110" + "1"
    assert counts == {"instance": (2, 3, 3), "attribute": (0, 1, 0), "relation": (2, 3, 3), "top": (1, 1, 1)}
    # b unmapped: its instance and both edges to it lose their match
    gm, sm, _ = alignment_marks(g, s, [0, -1, 2])
    assert gm == "101" + "0" + "010" + "1"
    assert sm == "101" + "010" + "1"


def test_duplicates_and_case_count_once():
    g = graph_view(loads_penman("(a / Dog :mod b :MOD (b / big))")[0])
    s = graph_view(loads_penman("(x / dog :mod (y / big))")[0])
    gm, sm, counts = alignment_marks(g, s, [0, 1])
    assert gm == "11" + "11" + "1" and sm == "11" + "1" + "1"
    assert counts["relation"] == (1, 1, 1)


LP = "amr/parseeval-little-prince"


@pytest.mark.parametrize("system", ["bart", "t5"])
def test_marks_add_up_to_smatchpp_counts_on_every_little_prince_pair(system):
    """The matched, gold and system triples the marks count equal smatchpp 1.8.0's exact ILP
    per pair (reference-scores/*.smatchpp-1.8.0-ilp.json, made with
    `smatchpp -solver ilp -graph_type generic -score_type pairwise`; see its README)."""
    d = shared_path(LP)
    ref = json.loads((d / f"reference-scores/lp-parseeval-{system}-vs-gold.smatchpp-1.8.0-ilp.json").read_text())
    study = amr_study(str(d / "gold.amr"), [str(d / f"{system}.amr")])
    assert len(study.pairs) == 200
    for pair, (match, n_sys, n_gold, _) in zip(study.pairs, ref["per_pair"]):
        gm, sm = pair["k"][0]
        assert (gm.count("1") >= match) and (sm.count("1") >= match)  # duplicates may repeat a mark
        _, _, counts = alignment_marks(pair["g"], pair["s"][0], pair["m"][0])
        assert sum(c[0] for c in counts.values()) == match
        assert sum(c[1] for c in counts.values()) == n_gold
        assert sum(c[2] for c in counts.values()) == n_sys
    totals = study.by_type[0]
    assert sum(c[0] for c in totals.values()) == ref["micro"]["match"]
    assert study.length_unit == "tokens"
    assert study.pairs[0]["id"] == "lpp_1943.646" and study.pairs[0]["len"] == 9


def test_mrp_marks_by_hand():
    from mrkit.model.graph import Anchor, Edge, Graph, Node, Property
    from mrkit.pipeline.inspect import mrp_marks, mrp_view

    text = "dogs bark"
    gold = Graph(id="1", framework="dm", text=text, tops=["1"],
                 nodes={"0": Node("0", "dog", [Property("num", "pl")], [Anchor(0, 4)]),
                        "1": Node("1", "bark", [], [Anchor(5, 9)])},
                 edges=[Edge("1", "0", "ARG1")])
    system = Graph(id="1", framework="dm", text=text, tops=["1"],
                   nodes={"0": Node("0", "bark", [], [Anchor(5, 9)]),
                          "1": Node("1", "dog", [Property("num", "sg")], [Anchor(0, 3)])},
                   edges=[Edge("0", "1", "ARG1")])
    v = mrp_view(gold)
    assert v["x"] == [[[0, 4]], [[5, 9]]] and v["txt"] == text and v["e"] == [[1, "ARG1", 0, 0, "arg1"]]
    # gold 0 -> system 1 (dog), gold 1 -> system 0 (bark): labels match, num pl != sg, the edge
    # matches, the top does not (gold's top is bark, the system's dog), anchors: "dogs" vs "dog"
    gm, sm, counts = mrp_marks(gold, system, [1, 0])
    # gold elements: labels 0 1 | property | edge | top | anchors 0 1
    assert gm == "11" + "0" + "1" + "0" + "01"
    assert sm == "11" + "0" + "1" + "0" + "10"
    assert counts["labels"] == (2, 2, 2) and counts["properties"] == (0, 1, 1)
    assert counts["tops"] == (0, 1, 1) and counts["anchors"] == (1, 2, 2) and counts["edges"] == (1, 1, 1)
    # no system graph: nothing matches, the system side is empty
    gm, sm, counts = mrp_marks(gold, None, [-1, -1])
    assert set(gm) == {"0"} and sm == "" and counts["labels"] == (0, 2, 0)


def test_mrp_study_equals_mtool_on_a_real_eds_system():
    """mtool's counts (reference-scores/lpps-peking-eds-vs-gold.mtool-mrp.json: `main.py --read mrp
    --score mrp --framework eds --gold lpps.mrp eds/lpps.peking.mrp`, see its README), per tuple type."""
    from mrkit.pipeline.inspect import mrp_study

    d = shared_path("mrp")
    ref = json.loads((d / "reference-scores/lpps-peking-eds-vs-gold.mtool-mrp.json").read_text())["summary"]
    study = mrp_study(str(d / "score-fixtures/lpps.mrp"), [str(d / "score-fixtures/eds/lpps.peking.mrp")],
                      frameworks=["eds"])
    assert len(study.pairs) == ref["n"] == 100 and study.family == "mrp"
    for t, (c, g, s) in study.by_type[0].items():
        assert (c, g, s) == (ref[t]["c"], ref[t]["g"], ref[t]["s"]), t
    for pair, rec in zip(study.pairs, study.results[0].records):
        gm, sm = pair["k"][0]
        # every tuple the marks show (all but edge attributes, none in EDS) is counted once
        assert gm.count("1") == sm.count("1") == rec["matched"]
        assert len(gm) - gm.count("-") == rec["gold"] and len(sm) - sm.count("-") == rec["system"]
    assert study.pairs[0]["snt"].startswith("I was very much worried")
