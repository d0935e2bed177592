"""``--normalize``: the MRP metric and the framework metrics with each of mtool's normalizations
(anchors, case, edges, attributes), none and all, against mtool's counts
(fixtures/normalize/README.md has the commands)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from conftest import shared_path
from mrkit.codecs.mrp import read_mrp
from mrkit.features.mrp_tuples import (ALL_NORMALIZATIONS, NORMALIZATIONS, TUPLE_TYPES, Normalizer, explode,
                                       mrp_tuples, normalize_label, parse_normalize,
                                       span_positions)
from mrkit.metrics.mrp.frameworks import framework_scores
from mrkit.metrics.mrp.mrp import mrp_score, pair_graphs, select_frameworks
from mrkit.model.graph import Anchor, Graph, Node

HERE = Path(__file__).parent / "fixtures" / "normalize"
ORACLE = json.loads((HERE / "mtool-normalize.json").read_text())
MODES = ("none", "anchors", "case", "edges", "attributes", "all")

PAIRS = {
    "psd-foxik": (("psd", "107480.gold.mrp"), ("psd", "107480.foxik.mrp"), None),
    "ucca-test": (("ucca", "test.gold.mrp"), ("ucca", "test.tupa.mrp"), None),
    "ucca-anchors": (("ucca", "anchors.gold.mrp"), ("ucca", "anchors.tupa.mrp"), None),
    "ucca-small": (("ucca", "small.gold.mrp"), ("ucca", "small.tupa.mrp"), None),
    "amr-partial": (("amr", "partial.gold.mrp"), ("amr", "partial.system.mrp"), None),
    "amr-test": (("amr", "test1.mrp"), ("amr", "test2.mrp"), None),
    "eds-lpps-peking": (("lpps.mrp",), ("eds", "lpps.peking.mrp"), ["eds"]),
    "fixture": (None, None, None),
    "eds-wsj-pet": (("..", "wsj-sample", "eds", "wsj.mrp"), ("eds", "wsj.pet.mrp"), None),
}


def read_side(parts, which: str):
    if parts is None:
        return read_mrp(HERE / f"{which}.mrp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if parts[0] == "..":
            return read_mrp(shared_path("mrp", *parts[1:]))
        return read_mrp(shared_path("mrp", "score-fixtures", *parts))


CASES = [(name, mode) for name in PAIRS for mode in MODES if mode in ORACLE["mrp"][name]]


@pytest.mark.parametrize("name,mode", CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_mrp_counts_equal_mtool_with_each_normalization(name, mode):
    gold, system, frameworks = PAIRS[name]
    ref = ORACLE["mrp"][name][mode]
    res = mrp_score(read_side(gold, "gold"), read_side(system, "system"), frameworks=frameworks,
                    normalize=parse_normalize(mode))
    assert res.certified == len(res.graphs)
    totals = res.totals()
    for k in TUPLE_TYPES:  # gold and system counts are those of mtool's tuples, type by type
        assert (totals[k].g, totals[k].s) == tuple(ref[k][:2]), k
    for g in res.graphs:
        theirs = ref["graphs"].get(g.id)
        if theirs is None:
            continue
        assert [g.all.g, g.all.s] == theirs["all"][:2], g.id
        # the certified optimum matches all that mtool's search found, and no more where it is exact
        assert g.all.c >= theirs["all"][2], g.id
        if theirs["exact"]:
            assert g.all.c == theirs["all"][2], g.id
    if ref["exact"] == ref["n"]:
        assert totals["all"].c == sum(ref[k][2] for k in TUPLE_TYPES)


def test_fixture_normalizations_each_change_the_counts():
    # the hand-made pair is built so that every switch matters (see README); "none" and "all"
    # by hand: labels Boy/boy, NUM/num, P/p match only with case; ARG0-of, normal and mod
    # edges only with edges; the united UCCA spans keep the comma; remote "false" drops
    ref = ORACLE["mrp"]["fixture"]
    assert ref["none"]["labels"] == [6, 6, 4] and ref["case"]["labels"] == [6, 6, 6]
    assert ref["none"]["anchors"] == [4, 5, 4] and ref["anchors"]["anchors"] == [4, 4, 3]
    assert ref["none"]["attributes"] == [1, 0, 0] and ref["attributes"]["attributes"] == [0, 0, 0]
    assert ref["edges"]["edges"][2] > ref["none"]["edges"][2]
    gold, system = read_side(None, "gold"), read_side(None, "system")
    seen = {mode: mrp_score(gold, system, normalize=parse_normalize(mode)).totals() for mode in MODES}
    assert len({tuple((c.g, c.s, c.c) for c in t.values()) for t in seen.values()}) == len(MODES)


FRAMEWORK_CASES = {
    "sdp-psd-foxik": (("psd", "107480.gold.mrp"), ("psd", "107480.foxik.mrp"), "psd"),
    "edm-fixture": (None, None, "eds"),
    "ucca-fixture": (None, None, "ucca"),
    "ucca-test-ucca": (("ucca", "test.gold.mrp"), ("ucca", "test.tupa.mrp"), "ucca"),
}
FW = [(name, mode) for name in FRAMEWORK_CASES for mode in MODES]


@pytest.mark.parametrize("name,mode", FW, ids=[f"{n}-{m}" for n, m in FW])
def test_framework_metrics_equal_mtool_with_each_normalization(name, mode):
    gold, system, fw = FRAMEWORK_CASES[name]
    pairs, _ = pair_graphs(read_side(gold, "gold"), read_side(system, "system"))
    rep = framework_scores(select_frameworks(pairs, [fw]), normalize=parse_normalize(mode))[fw]
    for measure, gsc in ORACLE["framework"][name][mode].items():
        assert [rep[measure]["g"], rep[measure]["s"], rep[measure]["c"]] == gsc, measure


def test_default_is_all():
    for graphs in (read_side(None, "gold"), read_side(None, "system")):
        for g in graphs:
            assert mrp_tuples(g) == mrp_tuples(g, ALL_NORMALIZATIONS)
    assert Normalizer.of(None) == Normalizer.of(ALL_NORMALIZATIONS) == Normalizer()


def test_parse_normalize():
    assert parse_normalize([]) == ALL_NORMALIZATIONS
    assert parse_normalize(["all"]) == ALL_NORMALIZATIONS
    assert parse_normalize(["none"]) == frozenset()
    assert parse_normalize(["anchors,case"]) == {"anchors", "case"}
    assert parse_normalize(["anchors", "Case"]) == {"anchors", "case"}  # mtool's repeated spelling
    assert parse_normalize("edges") == {"edges"}
    with pytest.raises(ValueError, match="unknown normalization 'anchor'"):
        parse_normalize(["anchor"])
    assert normalize_label(None) == "all" and normalize_label(frozenset()) == "none"
    assert normalize_label(frozenset({"case", "anchors"})) == "anchors,case"


def test_united_spans_keep_inner_punctuation():
    # "Hello, world": spans 0:5 5:6 6:12 touch, so mtool unites them to 0:12 and trims only the
    # ends: the comma (5) counts; one by one the comma span trims to nothing
    text = "Hello, world. Yes"
    spans = [Anchor(0, 5), Anchor(5, 6), Anchor(6, 12)]
    assert explode(text, spans, unite=True) == frozenset({0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11})
    assert explode(text, spans) == frozenset({0, 1, 2, 3, 4, 7, 8, 9, 10, 11})
    # separated by ", ": not united (the first span does not end in whitespace)
    assert explode(text, [Anchor(0, 5), Anchor(7, 12)], unite=True) == explode(text, [Anchor(0, 5), Anchor(7, 12)])


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 6)), min_size=1, max_size=5),
       st.text(alphabet="ab ,.", min_size=20, max_size=24))
def test_united_positions_contain_the_span_by_span_ones(spans, text):
    anchors = [Anchor(s, s + w) for s, w in spans]
    one_by_one = span_positions(text, [(a.start, a.end) for a in anchors])
    united = explode(text, anchors, unite=True)
    assert united or not any(a.end > a.start for a in anchors)  # an anchored node keeps an anchor
    assert explode(text, anchors)  # never empty
    if one_by_one:  # trimming the ends of a union never drops what the spans kept one by one
        assert one_by_one <= united


def test_case_off_compares_as_written_but_property_values_lower():
    g = Graph(id="1", framework="eds", text="Dogs")
    g.nodes["0"] = Node("0", "_Dog_n_1")
    from mrkit.model.graph import Property

    g.nodes["0"].properties = [Property("NUM", "PL")]
    t = mrp_tuples(g, frozenset())
    assert t.labels == ["_Dog_n_1"] and t.properties == [frozenset({("NUM", "pl")})]
    t = mrp_tuples(g, frozenset({"case"}))
    assert t.labels == ["_dog_n_1"] and t.properties == [frozenset({("num", "pl")})]


@pytest.mark.parametrize("name", sorted(set(NORMALIZATIONS)))
def test_each_switch_alone_on_self_scores_is_one(name):
    graphs = read_side(None, "gold") + read_side(None, "system")
    res = mrp_score(graphs[:3], graphs[:3], normalize=frozenset({name}))
    assert res.totals()["all"].f == 1.0
