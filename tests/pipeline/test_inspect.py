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
