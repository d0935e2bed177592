"""pipeline/mrp.py: reading through the codec registry, pairing by (framework, id),
scoring through any executor with identical results, the corpus result's summable rows."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from conftest import shared_path

from mrkit.align import AlignConfig
from mrkit.codecs.mrp import loads_mrp, read_mrp
from mrkit.codecs.registry import read_graphs
from mrkit.metrics.mrp.frameworks import framework_scores
from mrkit.metrics.mrp.mrp import mrp_score, pair_graphs
from mrkit.pipeline.mrp import chunk_size, pairs_of, read_side, score_graphs, score_pairs, sniff
from mrkit.runtime.executor import ProcessExecutor, SerialExecutor


def _graph(gid, framework, labels, edges=(), text="a b c"):
    return {"id": gid, "flavor": 1, "framework": framework, "version": 1.0, "input": text, "tops": [0],
            "nodes": [{"id": k, "label": lab, "anchors": [{"from": 2 * k, "to": 2 * k + 1}]}
                      for k, lab in enumerate(labels)],
            "edges": [{"source": s, "target": t, "label": lab} for s, t, lab in edges]}


def _mrp(graphs) -> str:
    return "".join(json.dumps(g) + "\n" for g in graphs)


GOLD = _mrp([_graph("1", "eds", ["x", "y"], [(0, 1, "ARG1")]), _graph("1", "dm", ["p", "q", "r"]),
             _graph("2", "eds", ["z"])])
SYSTEM = _mrp([_graph("1", "dm", ["p", "q", "s"]), _graph("1", "eds", ["x", "w"], [(0, 1, "ARG1")]),
               _graph("9", "eds", ["z"])])


def test_sniff_by_content():
    assert sniff(GOLD) == "mrp"
    assert sniff("# ::id 1\n(w / want-01)\n") == "amr"
    assert sniff("#SDP 2015\n#2001\n1\tPierre\tPierre\tNNP\t-\t+\t_\n") == "sdp"
    assert sniff("#20001001\n{e3:\n e3:_x<0:1>[]\n}\n") == "eds"
    assert sniff("<root passageID='1'/>") == "ucca"
    assert sniff("\n\n") is None


def test_pairs_by_framework_and_id_in_gold_order():
    golds, systems = loads_mrp(GOLD), loads_mrp(SYSTEM)
    pairs, unpaired = pairs_of(golds, systems)
    assert [(g.framework, g.id, None if s is None else (s.framework, s.id)) for g, s in pairs] == [
        ("eds", "1", ("eds", "1")), ("dm", "1", ("dm", "1")), ("eds", "2", None)]
    assert unpaired == 1
    assert [g.framework for g, _ in pairs_of(golds, systems, ["DM".lower()])[0]] == ["dm"]


def test_summary_is_all_tuples_over_all_frameworks_and_rows_are_summable():
    scored = score_graphs(loads_mrp(GOLD), loads_mrp(SYSTEM), keep_records=True)
    res = scored.result
    # hand count: eds/1 gold top+2 labels+2 anchors+1 edge = 6, system 6, matched 5 (label y/w);
    # dm/1 gold 1+3+3 = 7, system 7, matched 6 (label r/s); eds/2 gold 3, missing: 0, 0
    assert res.table.tolist() == [[5, 6, 6], [6, 7, 7], [0, 3, 0]]
    s = res.summary()
    assert s["pairs"] == 3 and s["certified"] == 3 and s["certified_share"] == 1.0
    assert s["precision"] == pytest.approx(11 / 13) and s["recall"] == pytest.approx(11 / 16)
    assert s["f1"] == pytest.approx(22 / 29)
    assert s["macro_f1"] == pytest.approx((10 / 12 + 12 / 14 + 0) / 3)
    over = res.detail["overall"]["all"]
    assert (over["c"], over["g"], over["s"]) == (11, 16, 13) and over["f"] == s["f1"]
    assert res.detail["unpaired_system"] == 1
    assert [r["framework"] for r in res.records] == ["eds", "dm", "eds"]
    assert res.records[2]["missing"] is True


def _lpps_eds():
    fx = shared_path("mrp", "score-fixtures")
    return read_mrp(fx / "lpps.mrp"), read_mrp(fx / "eds" / "lpps.peking.mrp")


def test_serial_and_process_executors_give_identical_results():
    golds, systems = _lpps_eds()
    pairs, unpaired = pairs_of(golds, systems, ["eds", "dm"])
    pairs = pairs[:60]
    config = AlignConfig(time_limit=2.0)
    a = score_pairs(pairs, config, SerialExecutor(), keep_records=True, unpaired_system=unpaired)
    with ProcessExecutor(2) as ex:
        b = score_pairs(pairs, config, ex, keep_records=True, unpaired_system=unpaired)
    assert a.result.to_dict(per_pair=True) == b.result.to_dict(per_pair=True)
    assert np.array_equal(a.result.table, b.result.table)
    assert a.result.ids == b.result.ids


def test_pipeline_equals_the_library_functions():
    golds, systems = _lpps_eds()
    scored = score_graphs(golds, systems, frameworks=["eds"])
    lib = mrp_score(golds, systems, frameworks=["eds"])
    assert scored.mrp.to_dict(per_graph=True) == lib.to_dict(per_graph=True)
    eds_pairs = [p for p in pair_graphs(golds, systems)[0] if p[0].framework == "eds"]
    assert scored.framework_metrics == framework_scores(eds_pairs)


def test_read_side_native_formats_and_stdin(monkeypatch):
    wsj = shared_path("mrp", "wsj-sample")
    from mrkit.codecs.anchoring import read_text_map

    texts = read_text_map(wsj / "wsj.txt")
    native = read_side(str(wsj / "dm" / "wsj.sdp"), None, texts)
    direct = read_graphs(str(wsj / "dm" / "wsj.sdp"), "sdp", texts=texts)
    assert [g.id for g in native] == [g.id for g in direct] and len(native) == 89
    monkeypatch.setattr("sys.stdin", io.StringIO((wsj / "eds" / "wsj.eds").read_text(encoding="utf-8")))
    piped = read_side("-", None, texts)
    assert [(g.framework, g.id, len(g.nodes)) for g in piped] == \
        [(g.framework, g.id, len(g.nodes)) for g in read_graphs(str(wsj / "eds" / "wsj.eds"), "eds", texts=texts)]


def test_chunk_size_keeps_workers_busy():
    assert chunk_size(10, 1) == 3 and chunk_size(10, 2) == 2 and chunk_size(100000, 2) == 256
    assert chunk_size(0, 2) == 1
