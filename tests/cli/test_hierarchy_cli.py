"""``mrkit hierarchy`` on the pipeline: summary, statistics, rows, executors, stdin."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import run_mrkit, shared_path
from mrkit.cli import main


def _files():
    folder = shared_path("coref", "scico-handmade")
    return str(folder / "gold.jsonl"), str(folder / "system.jsonl")


def _f1(c) -> float:
    r = c[0] / c[1] if c[1] else 0.0
    p = c[2] / c[3] if c[3] else 0.0
    return 2 * r * p / (r + p) if r + p else 0.0


def test_summary_is_the_hierarchy_f1_and_detail_stays(capsys):
    gold, system = _files()
    assert main(["hierarchy", gold, system, "--json", "--per-topic"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == "hierarchy"
    for k in ("topics", "options", "hierarchy", "hierarchy50", "path_ratio", "path_ratio_with_tn", "coref",
              "undefined", "per_topic"):
        assert k in out
    h = out["hierarchy"]
    s = out["summary"]
    assert (s["f1"], s["precision"], s["recall"], s["macro_f1"]) == (h["f1"], h["precision"], h["recall"],
                                                                    pytest.approx(h["macro_f1"]))
    c = h["counts"]
    assert s["f1"] == pytest.approx(_f1([c["r_num"], c["r_den"], c["p_num"], c["p_den"]]))


def test_bootstrap_against_a_naive_loop(capsys):
    gold, system = _files()
    assert main(["hierarchy", gold, system, "--json", "--per-topic", "--bootstrap", "300", "--stats-seed", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = [[t["hierarchy"][k] for k in ("r_num", "r_den", "p_num", "p_den")] for t in out["per_topic"].values()]
    n = len(rows)
    rng = np.random.default_rng(5)
    values = []
    for _ in range(300):
        idx = rng.integers(0, n, size=n)
        values.append(_f1([sum(rows[i][j] for i in idx) for j in range(4)]))
    assert out["ci"]["f1"] == pytest.approx([np.percentile(values, 2.5), np.percentile(values, 97.5)], abs=1e-12)
    assert out["ci_samples"] == 300


def test_against_itself_and_executors(capsys):
    gold, system = _files()
    outs = []
    for extra in (["-j", "1"], ["-j", "2"]):
        assert main(["hierarchy", gold, system, "--json", "--against", gold, "--bootstrap", "40", *extra]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    out = json.loads(outs[0])
    assert out["against"]["summary"]["f1"] == 1.0
    assert out["against"]["tests"]["f1"]["difference"] == pytest.approx(out["summary"]["f1"] - 1.0)


def test_per_topic_rows(capsys):
    gold, system = _files()
    assert main(["hierarchy", gold, system, "--json", "--per-topic"]) == 0
    per_topic = json.loads(capsys.readouterr().out)["per_topic"]
    assert main(["hierarchy", gold, system, "--per-topic", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines[0].split(",")
    rows = [dict(zip(head, line.split(","))) for line in lines[1:]]
    assert [r["id"] for r in rows] == list(per_topic)
    for r in rows:
        assert float(r["f1"]) == pytest.approx(per_topic[r["id"]]["hierarchy"]["f1"])


def test_stdin_and_bad_input():
    gold, system = _files()
    base = run_mrkit("hierarchy", gold, system, "--json")
    with open(gold) as fh:
        piped = run_mrkit("hierarchy", "-", system, "--json", stdin=fh)
    assert piped.returncode == 0
    a, b = json.loads(base.stdout), json.loads(piped.stdout)
    assert a["hierarchy"] == b["hierarchy"] and a["coref"] == b["coref"] and b["gold"] == "-"
    with open(gold) as fh:
        bad = run_mrkit("hierarchy", gold, "-", "--against", gold, stdin=fh)
    assert bad.returncode == 0
    r = run_mrkit("hierarchy", gold, system, "--format", "conll")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1


# SciCo's evaluate.py (e1055b74) with its subset argument, on gold.jsonl with fields added
# (_meta_gold below), printed to 2 decimals:
#   python evaluate.py gold_meta.jsonl system.jsonl hard_10   (hard_20, curated)
SUBSET_ORACLE = {
    "hard_10": {"hierarchy": (75.00, 36.36, 48.98), "hierarchy 50%": (75.00, 54.55, 63.16),
                "path": (50.75, 51.31), "coref muc": (66.67, 80.00, 72.73), "coref conll": 66.85},
    "hard_20": {"hierarchy": (62.50, 50.00, 55.56), "hierarchy 50%": (62.50, 50.00, 55.56),
                "path": (55.32, 54.80)},
    "curated": {"hierarchy": (0.0, 0.0, 0.0), "path": (52.94, 52.94)},
}
_FLAGS = {1: (True, True, "pwc"), 2: (False, True, "curated"), 3: (True, False, "hypernym")}


def _meta_gold(tmp_path):
    gold, system = _files()
    lines = []
    with open(gold) as fh:
        for line in fh:
            t = json.loads(line)
            t["hard_10"], t["hard_20"], t["source"] = _FLAGS[t["id"]]
            t["curated"] = t["source"] == "curated"
            lines.append(json.dumps(t))
    path = tmp_path / "gold_meta.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path), system


@pytest.mark.parametrize("subset", ["hard_10", "hard_20", "curated", "source=curated"])
def test_subsets_equal_scico_evaluate(tmp_path, capsys, subset):
    gold, system = _meta_gold(tmp_path)
    assert main(["hierarchy", gold, system, "--subset", subset]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        for name in ("hierarchy 50%", "hierarchy", "path ratio (micro)", "path ratio (macro)", "coref muc",
                     "coref conll"):
            if line.startswith(name + " "):
                rows.setdefault(name, [float(x.rstrip("*")) for x in line[len(name):].split()])
                break
    e = SUBSET_ORACLE[subset.replace("source=", "")]
    assert tuple(rows["hierarchy"]) == e["hierarchy"]
    if "hierarchy 50%" in e:
        assert tuple(rows["hierarchy 50%"]) == e["hierarchy 50%"]
    assert (rows["path ratio (micro)"][0], rows["path ratio (macro)"][0]) == e["path"]
    if "coref muc" in e:
        assert tuple(rows["coref muc"]) == e["coref muc"]
        assert rows["coref conll"][0] == e["coref conll"]


def test_subset_with_no_topic_is_an_input_error(tmp_path):
    gold, system = _meta_gold(tmp_path)
    r = run_mrkit("hierarchy", gold, system, "--subset", "hard_99")
    assert r.returncode == 2 and "subset" in r.stderr.splitlines()[-1]
    assert "Traceback" not in r.stderr


def test_extra_scores_in_json(capsys):
    gold, system = _files()
    assert main(["hierarchy", gold, system, "--json", "--auroc", "--common-ancestor", "--components"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["auroc"]["auroc"] == pytest.approx(0.6008061761289881)
    assert out["common_ancestor"]["common_ancestor"] == pytest.approx(0.7514285714285714)
    assert "conll" in out["components"]


def test_pair_scores_auroc_and_bad_file(tmp_path, capsys):
    gold, system = _files()
    good = tmp_path / "scores.tsv"
    good.write_text("topic\ti\tj\tnone\tcoref\tparent\tchild\n1\t0\t1\t0.1\t0.7\t0.1\t0.1\n"
                    "1\t0\t2\t0.1\t0.1\t0.7\t0.1\n1\t2\t0\t0.1\t0.1\t0.1\t0.7\n1\t0\t6\t0.7\t0.1\t0.1\t0.1\n")
    assert main(["hierarchy", gold, system, "--json", "--pair-scores", str(good)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["auroc_scores"]["auroc"] == 1.0 and out["auroc_scores"]["pairs"] == 4
    bad = tmp_path / "bad.tsv"
    bad.write_text("topic\ti\tj\tnone\tcoref\tparent\tchild\n1\t0\t99\t0.1\t0.7\t0.1\t0.1\n")
    r = run_mrkit("hierarchy", gold, system, "--pair-scores", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "99" in r.stderr
