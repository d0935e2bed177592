"""``mrkit validate``: the injected errors of the shared invalid file, no false positives, exit codes."""

from __future__ import annotations

import json

import pytest

from conftest import shared_path
from mrkit.cli import main
from mrkit.codecs.validate import validate_graph, validate_mrp

# The injected errors of validate/eds.wsj.invalid.mrp (found by comparing it with the EDS
# release; its README lists: missing input, missing labels, missing/duplicate/misspelled
# anchors, bad flavor (42, 0), missing framework; plus tops/edges naming node 4711).
INJECTED = {
    (1, "graph", "input"), (1, "node 0", "label"), (1, "node 1", "label"),
    (1, "node 3", "eds-anchor"), (1, "node 6", "anchor"), (1, "node 6", "eds-anchor"),
    (1, "node 7", "anchor"),
    (2, "graph", "flavor"), (3, "graph", "flavor"),
    (4, "graph", "framework"), (4, "graph", "flavor"),
    (5, "top", "tops"), (6, "edge 4711 -> 4", "edge-endpoint"), (7, "edge 4 -> 4711", "edge-endpoint"),
}


def test_every_injected_error_found_and_nothing_else():
    findings = list(validate_mrp(shared_path("mrp", "validate", "eds.wsj.invalid.mrp")))
    assert {(f.line, f.item, f.rule) for f in findings} == INJECTED
    by_line = {f.line: f for f in findings}
    assert by_line[2].graph == "20001002" and "42" in by_line[2].message
    assert "does not fit framework eds" in by_line[3].message
    assert "'form'" in [f for f in findings if f.item == "node 7"][0].message


@pytest.mark.parametrize("parts", [
    ("wsj-sample", "amr", "wsj.mrp"), ("wsj-sample", "eds", "wsj.mrp"), ("wsj-sample", "psd", "wsj.mrp"),
    ("wsj-sample", "dm", "wsj.mrp"), ("wsj-sample", "ucca", "wsj.mrp"), ("score-fixtures", "lpps.mrp"),
    ("score-fixtures", "eds", "lpps.peking.mrp"), ("score-fixtures", "eds", "wsj.pet.mrp"),
])
def test_no_errors_on_released_graphs(parts):
    findings = list(validate_mrp(shared_path("mrp", *parts)))
    assert [f for f in findings if f.severity == "error"] == []


def test_warnings_on_released_graphs():
    dm = list(validate_mrp(shared_path("mrp", "wsj-sample", "dm", "wsj.mrp")))
    assert [(f.graph, f.rule, f.severity) for f in dm] == [("20010002", "sdp-top", "warning")]
    ucca = list(validate_mrp(shared_path("mrp", "wsj-sample", "ucca", "wsj.mrp")))
    assert {(f.rule, f.severity) for f in ucca} == {("attributes", "warning")}


def _rules(obj):
    return sorted((f.item, f.rule) for f in validate_graph(obj))


def test_framework_rules_by_hand():
    ucca = {"id": "u", "flavor": 1, "framework": "ucca", "input": "a b", "tops": [2],
            "nodes": [{"id": 0, "anchors": [{"from": 0, "to": 1}]}, {"id": 1, "anchors": [{"from": 2, "to": 3}]},
                      {"id": 2}, {"id": 3}],
            "edges": [{"source": 2, "target": 0, "label": "X"}, {"source": 2, "target": 1, "label": "A"},
                      {"source": 3, "target": 1, "label": "A"},
                      {"source": 3, "target": 0, "label": "A", "attributes": ["remote"], "values": ["yes"]}]}
    assert _rules(ucca) == [("edge 2 -> 0", "ucca-category"), ("edge 3 -> 0", "ucca-remote"),
                            ("graph", "ucca-root"), ("node 0", "ucca-primary-parent"),
                            ("node 1", "ucca-primary-parent")]  # "yes" is not a remote: node 0 has two parents
    amr = {"id": "a", "flavor": 2, "framework": "amr", "tops": [0],
           "nodes": [{"id": 0, "label": "x"}, {"id": 1, "label": "y", "anchors": [{"from": 0, "to": 1}]},
                     {"id": 2, "label": "z"}],
           "edges": [{"source": 0, "target": 1, "label": "ARG0 x"},
                     {"source": 1, "target": 0, "label": "ARG1-of", "normal": "ARG2"}]}
    assert _rules(amr) == [("edge 0 -> 1", "amr-role"), ("edge 1 -> 0", "amr-normal"),
                           ("graph", "amr-connected"), ("node 1", "amr-anchor")]
    dm = {"id": "d", "flavor": 0, "framework": "dm", "input": "ab cd", "tops": [0],
          "nodes": [{"id": 0, "label": "ab", "properties": ["pos", "x"], "values": ["NN", "1"],
                     "anchors": [{"from": 0, "to": 3}]},
                    {"id": 0, "label": "cd", "properties": ["pos"], "values": [],
                     "anchors": [{"from": 3, "to": 9}]}],
          "edges": [{"source": 0, "target": 0, "label": "ARG1", "attributes": ["a"]}]}
    assert _rules(dm) == [("edge 0 -> 0", "attributes"), ("node 0", "anchor"), ("node 0", "node-id"),
                          ("node 0", "properties"), ("node 0", "sdp-anchor"), ("node 0", "sdp-property")]


def test_cli_exit_status(tmp_path, capsys):
    bad = shared_path("mrp", "validate", "eds.wsj.invalid.mrp")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(INJECTED) + 1 and "14 errors" in out[-1]
    assert out[0].startswith(f"{bad}:1: graph 20001001: ")
    assert main(["validate", str(shared_path("mrp", "wsj-sample", "eds", "wsj.mrp"))]) == 0
    report = tmp_path / "r.json"
    assert main(["validate", str(bad), "--json", "-o", str(report)]) == 1
    assert json.loads(report.read_text())["errors"] == 14


@pytest.mark.parametrize("text, line, graph", [
    ('{"id": "x", "nodes": []}\n{"id": "y", "nodes": [}\n', 2, "y"),
])
def test_cli_unreadable_input_exits_2_with_one_line(tmp_path, capsys, text, line, graph):
    p = tmp_path / "f.mrp"
    p.write_text(text)
    assert main(["validate", str(p)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"mrkit: {p}:{line}, graph {graph}: not a JSON line")


def test_cli_duplicate_id_is_a_finding_for_validate_and_an_error_for_readers(tmp_path, capsys):
    p = tmp_path / "f.mrp"
    p.write_text('{"id": "x", "flavor": 2, "framework": "amr", "tops": [0], "nodes": [{"id": 0, "label": "a"}]}\n' * 2)
    assert main(["validate", str(p)]) == 1
    assert "duplicate graph id (first on line 1)" in capsys.readouterr().out
    assert main(["convert", str(p), "-"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"mrkit: {p}:2, graph x: duplicate amr graph id x"


def test_flavor_must_fit_the_framework_for_every_framework_of_the_table():
    # ccd is flavor 0 (mtool); the validator's table once lacked it and accepted any flavor
    def graph(fw, flavor):
        return {"id": "g", "flavor": flavor, "framework": fw, "input": "a", "tops": [], "nodes": [], "edges": []}

    assert ("graph", "flavor") not in _rules(graph("ccd", 0))
    assert ("graph", "flavor") in _rules(graph("ccd", 1))
    for fw, ok in {"dm": 0, "psd": 0, "pas": 0, "eds": 1, "ucca": 1, "ptg": 1, "amr": 2, "drg": 2}.items():
        assert ("graph", "flavor") not in _rules(graph(fw, ok)), fw
        assert ("graph", "flavor") in _rules(graph(fw, (ok + 1) % 3)), fw


def test_amr_normal_accepts_the_converter_normal_and_the_plain_inverse():
    def rules(label, normal):
        g = {"id": "a", "flavor": 2, "framework": "amr", "tops": [0],
             "nodes": [{"id": 0, "label": "x"}, {"id": 1, "label": "y"}],
             "edges": [{"source": 0, "target": 1, "label": label, "normal": normal}]}
        return [r for _, r in _rules(g)]

    for label, normal in [("ARG0-of", "ARG0"), ("mod", "domain"), ("consist-of", "consist"),
                          ("ARG0", "ARG0-of"), ("prep-with-of", "prep-with")]:
        assert rules(label, normal) == [], (label, normal)
    assert rules("mod", "manner") == ["amr-normal"]
