"""MS-AMR bridging relations scored with SciCo's hierarchy metrics (worked out by hand on
the Little Prince MS-AMR sample: chains rel-0..rel-8, singleton-8; set-member rel-3 ->
singleton-8 and rel-3 -> rel-7)."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.codecs.msamr import chain_json, read_msamr
from mrkit.metrics.coref.bridging import bridging_topic, bridging_topics
from mrkit.metrics.coref.hierarchy import hierarchy_counts


def _files():
    folder = shared_path("docamr", "msamr-samples")
    return str(folder / "pp_001.xml"), str(folder / "pp.amr.txt")


def _system(tmp_path, bridges):
    xml, amr = _files()
    doc = read_msamr(xml, amr)[0]
    data = chain_json(doc)
    data["bridges"] = bridges
    path = tmp_path / "system.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_topic_of_the_sample():
    xml, amr = _files()
    doc = read_msamr(xml, amr)[0]
    t = bridging_topic(doc)
    assert sorted(t.relations) == [("rel-3", "rel-7"), ("rel-3", "singleton-8")]
    assert len(t.clusters) == 10
    assert bridging_topic(doc, kinds=("part-whole",)).relations == []
    g, s = bridging_topics(doc, doc)  # aligned with itself: the same mentions
    assert hierarchy_counts(g, s).f1 == 1.0


def test_wrong_parent_by_hand(tmp_path, capsys):
    # system: rel-3 -> rel-7 -> singleton-8.  Closure {3->7, 7->s8, 3->s8}: recall 2/2,
    # precision 2/3 (7 -> s8 is not gold), F1 0.8; path ratio: gold 3..s8 is 2, system 3.
    xml, amr = _files()
    system = _system(tmp_path, [{"kind": "set-member", "parent": "rel-3", "children": ["rel-7"]},
                                {"kind": "set-member", "parent": "rel-7", "children": ["singleton-8"]}])
    from mrkit.cli import main

    for extra in ([], ["--no-align"]):
        assert main(["hierarchy", xml, system, "--amr", amr, amr, "--json", *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        h = out["hierarchy"]
        assert (h["recall"], h["precision"]) == (1.0, pytest.approx(2 / 3))
        assert out["summary"]["f1"] == pytest.approx(0.8)


def test_part_whole_only_has_nothing_to_score(tmp_path, capsys):
    xml, amr = _files()
    from mrkit.cli import main

    assert main(["hierarchy", xml, xml, "--amr", amr, amr, "--bridging", "part-whole", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "hierarchy" in out["undefined"]


def test_amr_refuses_scico_options():
    xml, amr = _files()
    r = run_mrkit("hierarchy", xml, xml, "--amr", amr, amr, "--auroc")
    assert r.returncode == 2 and "Traceback" not in r.stderr
