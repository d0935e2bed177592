"""``mrkit mrp --errors OUT`` (Graphviz DOT under the certified correspondence) and the
node correspondence in ``--per-graph --json``.  Expected colours worked out by hand."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import run_mrkit

GOLD = ('{"id": "1", "framework": "eds", "input": "the cat", "tops": [1], "nodes": ['
        '{"id": 0, "label": "_the_q", "anchors": [{"from": 0, "to": 3}]}, '
        '{"id": 1, "label": "_cat_n_1", "anchors": [{"from": 4, "to": 7}]}], '
        '"edges": [{"source": 0, "target": 1, "label": "BV"}]}\n')
# the system labels the cat differently, adds a node and an edge to it, and keeps BV
SYSTEM = ('{"id": "1", "framework": "eds", "input": "the cat", "tops": [1], "nodes": ['
          '{"id": 0, "label": "_the_q", "anchors": [{"from": 0, "to": 3}]}, '
          '{"id": 1, "label": "_dog_n_1", "anchors": [{"from": 4, "to": 7}]}, '
          '{"id": 2, "label": "udef_q", "anchors": [{"from": 0, "to": 7}]}], '
          '"edges": [{"source": 0, "target": 1, "label": "BV"}, {"source": 2, "target": 1, "label": "BV"}]}\n')


@pytest.fixture
def files(tmp_path):
    g, s = tmp_path / "gold.mrp", tmp_path / "system.mrp"
    g.write_text(GOLD)
    s.write_text(SYSTEM)
    return g, s


def test_dot_marks_matched_differing_and_extra(files, tmp_path):
    g, s = files
    out = tmp_path / "errors.dot"
    proc = run_mrkit("mrp", str(g), str(s), "--errors", str(out), "--mrp-only")
    assert proc.returncode == 0, proc.stderr
    dot = out.read_text()
    assert dot.count("digraph") == 1
    lines = {line.split(" [")[0].strip(): line for line in dot.splitlines() if " [label=" in line}
    assert '#1a9641' in lines['"gold:0"'] and "differs" not in lines['"gold:0"']
    assert '#f39c12' in lines['"gold:1"'] and "[differs: label]" in lines['"gold:1"']
    assert '#d7191c' in lines['"system:2"'] and "[extra]" in lines['"system:2"']
    assert "peripheries=2" in lines['"gold:1"']  # the top
    # gold BV matched (green); the system's second BV is extra (red, dashed)
    assert '#1a9641' in lines['"gold:0" -> "gold:1"']
    assert "dashed" in lines['"system:2" -> "system:1"']
    assert '"gold:0" -> "system:0" [style=dotted' in dot and '"gold:1" -> "system:1" [style=dotted' in dot
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg", str(out), "-o", str(tmp_path / "e.svg")], check=True)


def test_per_graph_json_has_the_correspondence(files):
    g, s = files
    proc = run_mrkit("mrp", str(g), str(s), "--per-graph", "--json", "--mrp-only")
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(proc.stdout)["per_pair"][0]
    assert rec["correspondence"] == {"0": "0", "1": "1"}
    assert rec["certified"] is True


def test_perfect_pairs_are_left_out_and_bad_input_writes_nothing(files, tmp_path):
    g, _ = files
    out = tmp_path / "errors.dot"
    proc = run_mrkit("mrp", str(g), str(g), "--errors", str(out), "--mrp-only")
    assert proc.returncode == 0 and "digraph" not in out.read_text()
    bad = tmp_path / "bad.mrp"
    bad.write_text('{"id": "1", "nodes": [}\n')
    out2 = tmp_path / "errors2.dot"
    proc = run_mrkit("mrp", str(g), str(bad), "--errors", str(out2))
    assert proc.returncode == 2 and not out2.exists()
    proc = run_mrkit("mrp", str(g), str(g), "--errors", str(tmp_path / "no" / "e.dot"))
    assert proc.returncode == 2 and "cannot write" in proc.stderr
