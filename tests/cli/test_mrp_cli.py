"""``mrkit mrp``: report, JSON, per-graph output and one-line errors."""

from __future__ import annotations

import json

import pytest

from mrkit.cli import main

GOLD = [
    {"id": "1", "flavor": 1, "framework": "eds", "version": 1.0, "time": "2019-06-23", "input": "Dogs bark.",
     "tops": [1], "nodes": [{"id": 0, "label": "_dog_n_1", "anchors": [{"from": 0, "to": 4}]},
                            {"id": 1, "label": "_bark_v_1", "anchors": [{"from": 5, "to": 10}]}],
     "edges": [{"source": 1, "target": 0, "label": "ARG1"}]},
    {"id": "2", "flavor": 1, "framework": "eds", "version": 1.0, "time": "2019-06-23", "input": "Cats.",
     "tops": [0], "nodes": [{"id": 0, "label": "_cat_n_1", "anchors": [{"from": 0, "to": 5}]}], "edges": []},
]
SYSTEM = [
    {"id": "1", "flavor": 1, "framework": "eds", "version": 1.0, "time": "2019-06-23", "input": "Dogs bark.",
     "tops": [4], "nodes": [{"id": 4, "label": "_bark_v_1", "anchors": [{"from": 5, "to": 9}]},
                            {"id": 9, "label": "_DOG_n_1", "anchors": [{"from": 0, "to": 4}]}],
     "edges": [{"source": 4, "target": 9, "label": "ARG2"}]},
]


def write(path, graphs):
    path.write_text("".join(json.dumps(g) + "\n" for g in graphs), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    return write(tmp_path / "gold.mrp", GOLD), write(tmp_path / "system.mrp", SYSTEM)


def test_json_report(files, capsys):
    assert main(["mrp", *files, "--json", "--per-graph"]) == 0
    d = json.loads(capsys.readouterr().out)
    o = d["overall"]
    # graph 1: top, 2 labels, 2 anchors ("bark." trims to "bark") match, edge does not;
    # graph 2 is missing: top, label, anchor of gold unmatched
    assert (o["all"]["g"], o["all"]["s"], o["all"]["c"]) == (9, 6, 5)
    assert (o["edges"]["g"], o["edges"]["s"], o["edges"]["c"]) == (1, 1, 0)
    assert o["n"] == 2 and o["missing"] == 1 and o["certified"] == 2 and o["perfect"] == 0
    assert d["frameworks"]["eds"]["all"] == o["all"]
    assert [g["id"] for g in d["per_pair"]] == ["1", "2"]
    assert d["per_pair"][1]["missing"] is True
    edm = d["framework_metrics"]["eds"]
    assert edm["metric"] == "edm" and edm["names"]["c"] == 2


def test_table_report_and_output_file(files, tmp_path, capsys):
    out = tmp_path / "report.txt"
    assert main(["mrp", *files, "--per-graph", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    text = out.read_text()
    assert "MRP eds: 2 graphs, 1 missing, 0 perfect, 2/2 certified optimal" in text
    assert "2 (missing)" in text
    line = next(x for x in text.splitlines() if x.startswith("all "))
    assert line.split()[1:4] == ["9", "6", "5"]
    assert "EDM eds" in text


def test_mrp_only_and_framework_filter(files, capsys):
    assert main(["mrp", *files, "--json", "--mrp-only", "--framework", "eds"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["overall"]["n"] == 2 and "framework_metrics" not in d
    # no gold graph of the framework: nothing scored is an error (issue 12, item 8)
    assert main(["mrp", *files, "--json", "--mrp-only", "--framework", "dm"]) == 2
    assert "nothing to compare" in capsys.readouterr().err


@pytest.mark.parametrize("bad,message", [
    ("{not json\n", "system.mrp:2: not a JSON line"),
    (json.dumps({**SYSTEM[0], "edges": [{"source": 4, "target": 7, "label": "ARG1"}]}) + "\n",
     "system.mrp:2, graph 1:"),
    (json.dumps(SYSTEM[0]) + "\n", "system.mrp:2, graph 1: duplicate"),
])
def test_bad_system_file_is_one_line_and_exit_2(files, tmp_path, capsys, bad, message):
    gold, system = files
    with open(system, "a", encoding="utf-8") as fh:
        fh.write(bad)
    out = tmp_path / "report.json"
    assert main(["mrp", gold, system, "--json", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mrkit: ") and message in err
    assert "Traceback" not in err
    assert not out.exists()
