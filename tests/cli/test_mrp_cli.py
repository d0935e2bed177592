"""``mrkit mrp``: report, JSON, per-graph output and one-line errors."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from conftest import shared_path

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


# ------------------------------------------------------------------ the pipeline: statistics, formats, executors

def _wsj_eds():
    return (str(shared_path("mrp", "wsj-sample", "eds", "wsj.mrp")),
            str(shared_path("mrp", "score-fixtures", "eds", "wsj.pet.mrp")))


def _json(capsys, *args) -> dict:
    assert main(["mrp", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _counts(d) -> np.ndarray:
    return np.array([[r["matched"], r["gold"], r["system"]] for r in d["per_pair"]], dtype=float)


def _f1(c) -> float:
    return 2 * c[0] / (c[1] + c[2])


def test_bootstrap_interval_is_a_naive_resampling_of_the_graphs(capsys):
    gold, system = _wsj_eds()
    d = _json(capsys, gold, system, "--mrp-only", "--per-pair", "--bootstrap", "300", "--stats-seed", "7")
    rows = _counts(d)
    # the headline is the all-tuple F1 over all graphs
    assert d["summary"]["f1"] == pytest.approx(_f1(rows.sum(axis=0)))
    assert d["summary"]["f1"] == d["overall"]["all"]["f"]
    rng = np.random.default_rng(7)
    idx = rng.integers(0, len(rows), size=(300, len(rows)))
    f1s, ps = [], []
    for sample in idx:
        total = np.zeros(3)
        for i in sample:
            total += rows[i]
        f1s.append(_f1(total))
        ps.append(total[0] / total[2])
    assert d["ci"]["f1"] == pytest.approx([np.percentile(f1s, 2.5), np.percentile(f1s, 97.5)])
    assert d["ci"]["precision"] == pytest.approx([np.percentile(ps, 2.5), np.percentile(ps, 97.5)])
    assert d["ci_samples"] == 300 and d["ci_seed"] == 7


def test_against_is_a_paired_test_on_the_same_gold_graphs(capsys, tmp_path):
    gold, system = _wsj_eds()
    # system B: the gold graphs of every third sentence, the others missing (scored as empty)
    lines = open(gold, encoding="utf-8").read().splitlines()
    b = tmp_path / "b.mrp"
    b.write_text("".join(line + "\n" for k, line in enumerate(lines) if k % 3 == 0), encoding="utf-8")
    d = _json(capsys, gold, system, "--mrp-only", "--per-pair", "--against", str(b), "--bootstrap", "200")
    db = _json(capsys, gold, str(b), "--mrp-only", "--per-pair")
    a_rows, b_rows = _counts(d), _counts(db)
    assert [r["id"] for r in d["per_pair"]] == [r["id"] for r in db["per_pair"]]
    n, samples = len(a_rows), 200
    t = d["against"]["tests"]["f1"]
    observed = _f1(a_rows.sum(axis=0)) - _f1(b_rows.sum(axis=0))
    assert t["difference"] == pytest.approx(observed)
    assert d["against"]["summary"]["f1"] == pytest.approx(db["summary"]["f1"])
    rng = np.random.default_rng(0)
    diffs = []
    for sample in rng.integers(0, n, size=(samples, n)):
        diffs.append(_f1(a_rows[sample].sum(axis=0)) - _f1(b_rows[sample].sum(axis=0)))
    diffs = np.array(diffs)
    assert t["ci"] == pytest.approx([np.percentile(diffs, 2.5), np.percentile(diffs, 97.5)])
    other = (diffs <= 0).sum() if observed > 0 else (diffs >= 0).sum()
    assert t["p_bootstrap"] == pytest.approx(min(1.0, 2 * other / samples))
    hits = 0
    for flips in rng.integers(0, 2, size=(samples, n)):
        sa, sb = np.zeros(3), np.zeros(3)
        for i in range(n):
            x, y = (b_rows[i], a_rows[i]) if flips[i] == 0 else (a_rows[i], b_rows[i])
            sa += x
            sb += y
        hits += abs(_f1(sa) - _f1(sb)) >= abs(observed) - 1e-12
    assert t["p_randomization"] == pytest.approx((hits + 1) / (samples + 1))


def test_against_text_lines_follow_the_report(files, capsys):
    gold, system = files
    assert main(["mrp", gold, system, "--against", gold, "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("MRP eds: 2 graphs")
    k = next(i for i, line in enumerate(out) if line.startswith("95% CI precision"))
    assert out[k + 3].startswith(f"Against {gold} (50 samples, seed 0):")
    assert out[k + 6].startswith("  f1: 1.0000  difference -0.3333")  # 2 * 5 / (9 + 6) - 1


def test_per_pair_tsv_and_csv(files, capsys):
    gold, system = files
    assert main(["mrp", gold, system, "--per-pair", "--format", "tsv"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    head = rows[0]
    assert head[:6] == ["pair", "id", "framework", "gold", "system", "matched"]
    assert {"certified", "missing", "precision", "recall", "f1"} <= set(head)
    assert [r[:6] for r in rows[1:]] == [["1", "1", "eds", "6", "6", "5"], ["2", "2", "eds", "3", "0", "0"]]
    assert main(["mrp", gold, system, "--per-graph", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1,1,eds,6,6,5,")
    assert main(["mrp", gold, system, "--format", "tsv"]) == 0
    summary = capsys.readouterr().out.splitlines()
    assert len(summary) == 2 and summary[0].startswith("pairs\tprecision\trecall\tf1")


def test_per_pair_is_an_alias_of_per_graph_in_text(files, capsys):
    gold, system = files
    assert main(["mrp", gold, system, "--per-graph"]) == 0
    a = capsys.readouterr().out
    assert main(["mrp", gold, system, "--per-pair"]) == 0
    assert capsys.readouterr().out == a and a.startswith("framework\tid\tgold")


def test_workers_do_not_change_the_result(capsys):
    gold, system = _wsj_eds()
    one = _json(capsys, gold, system, "-j", "1", "--per-pair", "--bootstrap", "50")
    two = _json(capsys, gold, system, "-j", "2", "--executor", "processes", "--per-pair", "--bootstrap", "50")
    assert one == two


def test_native_formats_guessed_or_given_and_stdin(capsys, monkeypatch):
    wsj = shared_path("mrp", "wsj-sample")
    text = str(wsj / "wsj.txt")
    d = _json(capsys, str(wsj / "dm" / "wsj.mrp"), str(wsj / "dm" / "wsj.sdp"), "--text", text, "--mrp-only")
    # the SDP file is the same DM annotation as the MRP file: every graph matches
    assert d["overall"]["n"] == 89 and d["overall"]["perfect"] == 89 and d["summary"]["f1"] == 1.0
    monkeypatch.setattr("sys.stdin", io.StringIO((wsj / "eds" / "wsj.eds").read_text(encoding="utf-8")))
    d = _json(capsys, str(wsj / "eds" / "wsj.mrp"), "-", "--text", text, "--mrp-only", "--framework", "eds")
    assert d["overall"]["perfect"] == 89 and d["summary"]["f1"] == 1.0
    # --format names the input format of every file: a MRP gold read as EDS is an error
    assert main(["mrp", str(wsj / "eds" / "wsj.mrp"), str(wsj / "eds" / "wsj.eds"), "--format", "eds"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "wsj.mrp:1" in err


@pytest.mark.parametrize("args, message", [
    (["--format", "penman"], "unknown format 'penman'"),
    (["--bootstrap", "-1"], "--bootstrap"),
    (["--format", "tsv", "--json"], "two different reports"),
])
def test_bad_options_are_one_line_and_exit_2(files, capsys, args, message):
    gold, system = files
    assert main(["mrp", gold, system, *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_stdin_only_once(files, capsys):
    gold, _system = files
    assert main(["mrp", "-", "-"]) == 2
    assert "stdin" in capsys.readouterr().err


def test_sharded_mrp_inputs_equal_one_file(tmp_path, capsys):
    """Directories or globs of MRP shards (issue 15): graphs are paired by framework and id
    across shards, so any split gives the numbers of the whole files; a bad shard stops
    with its file and line."""
    fixtures = shared_path("mrp", "score-fixtures")
    gold = [line for line in (fixtures / "lpps.mrp").read_text().splitlines(True)
            if json.loads(line)["framework"] == "eds"]
    system = (fixtures / "eds" / "lpps.peking.mrp").read_text().splitlines(True)
    (tmp_path / "g").mkdir()
    (tmp_path / "s").mkdir()
    (tmp_path / "gold.mrp").write_text("".join(gold))
    (tmp_path / "g" / "a.mrp").write_text("".join(gold[:40]))
    (tmp_path / "g" / "b.mrp").write_text("".join(gold[40:]))
    (tmp_path / "s" / "x.mrp").write_text("".join(system[:17]))  # splits need not line up
    (tmp_path / "s" / "y.mrp").write_text("".join(system[17:]))

    def run(*args):
        assert main(["mrp", *args, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        out.pop("gold", None)
        out.pop("system", None)
        return out

    whole = run(str(tmp_path / "gold.mrp"), str(fixtures / "eds" / "lpps.peking.mrp"))
    assert whole["summary"]["pairs"] == 100
    assert run(str(tmp_path / "g"), str(tmp_path / "s")) == whole
    assert run(str(tmp_path / "g" / "*.mrp"), str(tmp_path / "s" / "*.mrp")) == whole
    with open(tmp_path / "s" / "y.mrp", "a") as fh:
        fh.write("{bad\n")
    assert main(["mrp", str(tmp_path / "g"), str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{tmp_path / 's' / 'y.mrp'}:84:" in err[0]
