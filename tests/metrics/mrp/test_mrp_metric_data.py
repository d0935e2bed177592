"""The MRP metric and the framework metrics on the shared MRP data, against mtool's results."""

from __future__ import annotations

import json
import warnings

import pytest

from conftest import SHARED, shared_path
from mrkit.codecs.mrp import read_mrp
from mrkit.metrics.mrp.mrp import mrp_score, pair_graphs
from mrkit.metrics.mrp.frameworks import framework_scores
from mrkit.features.mrp_tuples import TUPLE_TYPES

INVALID = {"validate"}  # files with deliberately injected errors, for the validator


def read(*parts: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_mrp(shared_path("mrp", *parts))


def mrp_files() -> list[str]:
    root = SHARED / "mrp"
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.mrp")
                   if p.relative_to(root).parts[0] not in INVALID)
    return files or ["(shared data absent)"]


@pytest.mark.parametrize("name", mrp_files())
def test_self_score_is_exactly_one(name):
    graphs = read(*name.split("/"))
    res = mrp_score(graphs, graphs)
    assert res.certified == len(graphs)
    for k, c in res.totals().items():
        assert (c.p, c.r, c.f) == (1.0, 1.0, 1.0), k
        assert c.g == c.s == c.c


# mtool's full per-graph results: reference-scores/README.txt
REAL_PAIRS = [
    ("lpps-peking-eds-vs-gold", ("score-fixtures", "lpps.mrp"), ("score-fixtures", "eds", "lpps.peking.mrp"),
     (3863, 3907, 3606)),
    ("wsj-pet-eds-vs-gold", ("wsj-sample", "eds", "wsj.mrp"), ("score-fixtures", "eds", "wsj.pet.mrp"),
     (8092, 7803, 7572)),
]


@pytest.mark.parametrize("ref,gold,system,total", REAL_PAIRS, ids=[p[0] for p in REAL_PAIRS])
def test_real_eds_outputs_match_or_beat_mtool_on_every_graph(ref, gold, system, total):
    reference = json.loads(shared_path("mrp", "reference-scores", f"{ref}.mtool-mrp.json").read_text())
    per_graph = reference["mtool_output"]["scores"]["eds"]
    res = mrp_score(read(*gold), read(*system), frameworks=["eds"])
    assert res.certified == len(res.graphs) == reference["summary"]["n"]
    a = res.totals()["all"]
    assert (a.g, a.s, a.c) == total
    assert a.f == pytest.approx(reference["summary"]["all"]["f"])
    for g in res.graphs:
        if g.missing:  # mtool lists no per-graph result for a missing system graph
            assert g.id not in per_graph and g.all.c == 0
            continue
        theirs = per_graph[g.id]
        assert g.all.g == sum(theirs[k]["g"] for k in TUPLE_TYPES)
        assert g.all.s == sum(theirs[k]["s"] for k in TUPLE_TYPES)
        c = sum(theirs[k]["c"] for k in TUPLE_TYPES)
        assert g.all.c >= c, g.id
        if theirs["exact"]:
            assert g.all.c == c, g.id


def test_empty_dm_graphs_score_without_crashing():
    res = mrp_score(read("score-fixtures", "dm", "empty.gold.mrp"), read("score-fixtures", "dm", "empty.peking.mrp"))
    # gold: an empty graph, a graph with null nodes, a full graph; system: two full graphs
    # and one without nodes.  Nothing can match.
    assert [(g.all.g, g.all.c) for g in res.graphs] == [(0, 0), (0, 0), (100, 0)]
    assert [g.all.s > 0 for g in res.graphs] == [True, True, False]
    assert res.certified == 3 and res.totals()["all"].f == 0.0


def test_psd_foxik_mrp_and_sdp_scores():
    # oracle (mtool, score-fixtures/README.txt): MRP all F 0.8333, SDP labeled F 0.7368
    gold, system = read("score-fixtures", "psd", "107480.gold.mrp"), read("score-fixtures", "psd", "107480.foxik.mrp")
    res = mrp_score(gold, system)
    assert res.totals()["all"].f == pytest.approx(0.8333, abs=5e-5)
    sdp = framework_scores(pair_graphs(gold, system)[0])["psd"]
    assert sdp["metric"] == "sdp"
    assert sdp["labeled"]["f"] == pytest.approx(0.7368, abs=5e-5)
    assert (sdp["labeled"]["g"], sdp["labeled"]["s"], sdp["labeled"]["c"]) == (19, 19, 14)


def test_edm_on_peking_eds():
    # oracle (mtool, score-fixtures/README.txt): EDM all F 0.9061
    gold = [g for g in read("score-fixtures", "lpps.mrp") if g.framework == "eds"]
    rep = framework_scores(pair_graphs(gold, read("score-fixtures", "eds", "lpps.peking.mrp"))[0])["eds"]
    assert rep["metric"] == "edm"
    assert rep["all"]["f"] == pytest.approx(0.9061, abs=5e-5)


def test_framework_metrics_self_score():
    graphs = read("score-fixtures", "lpps.mrp")
    reps = framework_scores(pair_graphs(graphs, graphs)[0])
    assert {fw: r["metric"] for fw, r in reps.items()} == {
        "dm": "sdp", "psd": "sdp", "eds": "edm", "ucca": "ucca", "amr": "smatch"}
    for fw, r in reps.items():
        if r["metric"] == "smatch":
            assert r["f1"] == 1.0 and r["certified"] == r["pairs"] == 100
        else:
            for k, v in r.items():
                if isinstance(v, dict):
                    assert v["f"] == 1.0, (fw, k)


def test_amr_smatch_through_mrp_files():
    # mtool's README gives c=24 of g=30, s=29 with its own hill-climbing Smatch; the
    # certified optimum on the same triples is one better
    reps = framework_scores(pair_graphs(read("score-fixtures", "amr", "test1.mrp"),
                                        read("score-fixtures", "amr", "test2.mrp"))[0])
    amr = reps["amr"]
    assert (amr["gold_triples"], amr["system_triples"]) == (30, 29)
    assert amr["matched"] >= 24 and amr["certified"] == 3
