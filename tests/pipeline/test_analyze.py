"""``mrkit analyze`` against ``mtool --analyze`` (cfmrp/mtool @ 4cee3a2, Python 3.11,
numpy 1.23.5), run from mtool's folder as

    python main.py --read mrp --analyze ../shared/data/mrp/wsj-sample/FW/wsj.mrp
    python main.py --read mrp --framework FW --analyze ../shared/data/mrp/score-fixtures/lpps.mrp
    python main.py --read mrp [--framework amr] --normalize edges --analyze ...   (the AMR⁻¹ rows)

Each string holds mtool's 22 printed values in order (spaces inside a cell removed)."""

from __future__ import annotations

import json
import warnings

import pytest

from conftest import run_mrkit, shared_path

from mrkit.model.graph import Graph
from mrkit.pipeline.analyze import INVERTED_SUFFIX, analyze_graphs
from mrkit.pipeline.mrp import read_side
from mrkit.report.analyze import ROWS, cell

MTOOL = {
    "lpps-amr-inv": "100 670 100(6.81) 670(45.61) 56(3.81) 0(0.00) 643(43.77) 0(0.00) 34 32.00 60.00 1.430 3 1.096 17.31 1.00 0.00 57.00 15.52 -- -- --",
    "lpps-amr": "100 670 100(6.81) 670(45.61) 56(3.81) 0(0.00) 643(43.77) 0(0.00) 39 58.00 60.00 1.430 3 1.096 7.16 3.00 0.00 0.00 0.00 -- -- --",
    "lpps-dm": "100 932 100(2.14) 932(19.94) 1861(39.81) 932(19.94) 850(18.18) 0(0.00) 22 7.00 85.00 1.150 2 1.021 23.28 0.00 2.00 90.00 32.94 2.376 77.00 100.00",
    "lpps-eds": "100 1272 100(2.59) 1272(32.93) 25(0.65) 1272(32.93) 1194(30.91) 0(0.00) 9 0.00 85.00 1.150 2 1.017 33.49 0.00 0.00 100.00 45.75 -- -- --",
    "lpps-psd": "100 779 112(3.55) 779(24.69) 779(24.69) 779(24.69) 706(22.38) 0(0.00) 36 81.00 82.00 1.190 3 1.035 3.98 3.00 0.00 7.00 2.31 2.833 90.00 99.00",
    "lpps-ucca": "100 1866 100(2.96) 0(0.00) 0(0.00) 1288(38.19) 1897(56.24) 88(2.61) 15 40.00 48.00 1.530 3 1.068 6.06 0.00 0.00 0.00 0.00 -- -- --",
    "wsj-amr-inv": "87 1343 87(2.85) 1343(43.95) 302(9.88) 0(0.00) 1324(43.32) 0(0.00) 43 3.45 51.72 1.494 3 1.050 21.22 0.00 0.00 93.10 26.73 -- -- --",
    "wsj-amr": "87 1343 87(2.85) 1343(43.95) 302(9.88) 0(0.00) 1324(43.32) 0(0.00) 52 51.72 51.72 1.494 3 1.050 4.24 13.79 0.00 0.00 0.00 -- -- --",
    "wsj-dm": "89 1549 88(1.13) 1549(19.96) 3098(39.91) 1549(19.96) 1478(19.04) 0(0.00) 23 1.12 80.90 1.191 2 1.012 27.70 0.00 3.37 98.88 47.45 2.647 77.53 100.00",
    "wsj-eds": "89 2598 89(1.10) 2598(32.11) 278(3.44) 2598(32.11) 2529(31.25) 0(0.00) 9 0.00 80.90 1.191 2 1.009 32.99 0.00 1.12 100.00 56.27 -- -- --",
    "wsj-psd": "89 1259 97(1.82) 1259(23.59) 1466(27.46) 1259(23.59) 1257(23.55) 0(0.00) 54 44.94 46.07 1.562 3 1.063 10.48 0.00 1.12 42.70 4.21 3.324 68.54 97.75",
    "wsj-ucca": "87 2715 87(1.79) 0(0.00) 0(0.00) 1831(37.66) 2810(57.80) 134(2.76) 15 17.24 28.74 1.736 3 1.067 5.49 0.00 0.00 0.00 0.00 -- -- --",
}


def _cells(stats: dict) -> str:
    return " ".join(cell(stats, key, kind).replace(" ", "") for _, key, kind in ROWS)


def _read(path) -> list[Graph]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_side(str(path))


@pytest.mark.parametrize("fw", ["dm", "psd", "eds", "ucca", "amr"])
def test_wsj_sample_matches_mtool(fw):
    analysis = analyze_graphs(_read(shared_path("mrp", "wsj-sample", fw, "wsj.mrp"))).to_dict()
    assert _cells(analysis["frameworks"][fw]) == MTOOL[f"wsj-{fw}"]
    if fw == "amr":
        assert _cells(analysis["frameworks"]["amr" + INVERTED_SUFFIX]) == MTOOL["wsj-amr-inv"]


def test_lpps_matches_mtool_per_framework():
    analysis = analyze_graphs(_read(shared_path("mrp", "score-fixtures", "lpps.mrp"))).to_dict()
    assert list(analysis["frameworks"]) == ["dm", "psd", "eds", "ucca", "amr", "amr" + INVERTED_SUFFIX]
    for fw in ("dm", "psd", "eds", "ucca", "amr"):
        assert _cells(analysis["frameworks"][fw]) == MTOOL[f"lpps-{fw}"], fw
    assert _cells(analysis["frameworks"]["amr" + INVERTED_SUFFIX]) == MTOOL["lpps-amr-inv"]


def _graph(edges, tops=("0",), n=None, framework="amr"):
    g = Graph(id="1", framework=framework)
    ids = sorted({int(x) for e in edges for x in e[:2]} | {int(t) for t in tops} | set(range(n or 0)))
    for i in ids:
        g.add_node(str(i), "x")
    for s, t, lab in edges:
        g.add_edge(str(s), str(t), lab)
    g.tops = list(tops)
    return g


def test_hand_computed_small_corpus():
    # graph 1: a tree 0 -> 1, 0 -> 2; graph 2: a cycle 0 -> 1 -> 2 -> 0 plus a singleton node 3
    t = _graph([(0, 1, "a"), (0, 2, "b")])
    c = _graph([(0, 1, "a"), (1, 2, "a"), (2, 0, "c")], n=4)
    s = analyze_graphs([t, c], inverted=False).to_dict()["frameworks"]["amr"]
    assert (s["graphs"], s["nodes"], s["edges"], s["tops"], s["labels"]) == (2, 7, 5, 2, 7)
    assert s["edge_labels"] == 3
    assert s["trees"] == 50.0 and s["cyclic"] == 50.0
    assert s["treewidth_one"] == 50.0 and s["treewidth_max"] == 2 and s["treewidth_average"] == 1.5
    assert s["edge_density"] == (2 / 2 + 3 / 2) / 2
    assert s["reentrant"] == 0.0  # 6 non-singleton nodes, none with two parents
    assert s["multirooted"] == 0.0  # graph 2: the cycle has no root, the singleton is the only one
    assert s["not_connected"] == 0.0
    assert s["nontop_roots"] == 0.0


def test_inverted_edges_normalised():
    # (0 :ARG0-of 1 :ARG1 2) read as 1 :ARG0 0: node 1 becomes the one root, not a top
    g = _graph([(0, 1, "ARG0-of"), (0, 2, "ARG1")])
    a = analyze_graphs([g]).to_dict()["frameworks"]
    assert a["amr"]["nontop_roots"] == 0.0 and a["amr"]["edge_labels"] == 2
    inv = a["amr" + INVERTED_SUFFIX]
    assert inv["multirooted"] == 0.0 and inv["nontop_roots"] == 100 / 3
    # 0 :ARG0-of 1, 2 :ARG1-of 1 (written with two tops' worth of inversions): two roots after
    h = _graph([(0, 1, "ARG0-of"), (2, 1, "ARG1-of"), (0, 2, "mod")])
    inv = analyze_graphs([h]).to_dict()["frameworks"]["amr" + INVERTED_SUFFIX]
    assert inv["multirooted"] == 0.0 and inv["edge_labels"] == 3  # ARG0, ARG1, domain: 2 -> 0


def test_ordered_statistics():
    # flavor 0 (dm): node ids are positions; 0-2 and 1-3 cross; 0-3 nests over both
    g = _graph([(0, 2, "a"), (1, 3, "a"), (0, 3, "b")], framework="dm")
    s = analyze_graphs([g]).to_dict()["frameworks"]["dm"]
    assert s["ordered"] and s["edge_length"] == (2 + 2 + 3) / 3
    assert s["noncrossing"] == 0.0 and s["pagenumber_two"] == 100.0
    # three mutually crossing edges need three pages
    h = _graph([(0, 3, "a"), (1, 4, "a"), (2, 5, "a")], framework="dm")
    s = analyze_graphs([h]).to_dict()["frameworks"]["dm"]
    assert s["pagenumber_two"] == 0.0


def test_cli_table_json_and_selection(tmp_path):
    path = shared_path("mrp", "score-fixtures", "lpps.mrp")
    out = run_mrkit("analyze", str(path), "--framework", "dm", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data["frameworks"]) == ["dm"]
    assert _cells(data["frameworks"]["dm"]) == MTOOL["lpps-dm"]
    out = run_mrkit("analyze", str(path), "--framework", "psd", "--limit", "3", "--format", "tsv")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split("\t")[:2] == ["framework", "graphs"] and lines[1].split("\t")[:2] == ["psd", "3"]
    text = run_mrkit("analyze", str(path), "--framework", "ucca")
    assert "% graphs treewidth one" in text.stdout and "48.00" in text.stdout


def test_cli_bad_input_one_line(tmp_path):
    bad = tmp_path / "bad.mrp"
    bad.write_text('{"id": "1", "nodes": [}\n')
    out_file = tmp_path / "out.json"
    out = run_mrkit("analyze", str(bad), "-o", str(out_file))
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "bad.mrp:1" in out.stderr
    assert not out_file.exists()
