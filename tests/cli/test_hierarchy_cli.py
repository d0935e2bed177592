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
