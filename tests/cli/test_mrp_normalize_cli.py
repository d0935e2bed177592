"""``mrkit mrp --normalize``: spellings, the default, the report, bad values (one line, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_mrkit

F = Path(__file__).parents[1] / "metrics" / "mrp" / "fixtures" / "normalize"
GOLD, SYSTEM = str(F / "gold.mrp"), str(F / "system.mrp")
ORACLE = json.loads((F / "mtool-normalize.json").read_text())["mrp"]["fixture"]
TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes")


def summary(*args: str) -> dict:
    r = run_mrkit("mrp", GOLD, SYSTEM, "--json", "--mrp-only", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def counts(doc: dict) -> dict:
    o = doc["overall"]
    return {k: [o[k]["g"], o[k]["s"], o[k]["c"]] for k in TYPES}


def test_each_normalization_gives_mtools_counts_and_is_named_in_the_report():
    for mode in ("none", "anchors", "case", "edges", "attributes"):
        doc = summary("--normalize", mode)
        assert doc["normalize"] == mode
        assert counts(doc) == {k: ORACLE[mode][k] for k in TYPES}, mode


def test_default_all_and_spellings():
    default = run_mrkit("mrp", GOLD, SYSTEM, "--json")
    assert default.returncode == 0 and "normalize" not in json.loads(default.stdout)
    assert run_mrkit("mrp", GOLD, SYSTEM, "--json", "--normalize", "all").stdout == default.stdout
    assert run_mrkit("mrp", GOLD, SYSTEM, "--json", "--normalize", "anchors,case,edges,attributes").stdout \
        == default.stdout
    assert counts(json.loads(default.stdout)) == {k: ORACLE["all"][k] for k in TYPES}
    # mtool's spelling (repeated) and mrkit's (a list) are the same choice
    a = summary("--normalize", "anchors", "--normalize", "case")
    b = summary("--normalize", "case,anchors")
    assert a == b and a["normalize"] == "anchors,case"


def test_text_report_names_the_normalizations():
    r = run_mrkit("mrp", GOLD, SYSTEM, "--normalize", "edges")
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "normalizations: edges"
    assert "normalizations" not in run_mrkit("mrp", GOLD, SYSTEM).stdout


def test_unknown_normalization_is_one_line_exit_2_nothing_written(tmp_path):
    out = tmp_path / "out.json"
    r = run_mrkit("mrp", GOLD, SYSTEM, "--normalize", "anchors,labels", "-o", str(out))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "unknown normalization 'labels'" in r.stderr
    assert "Traceback" not in r.stderr and not out.exists()


def test_errors_dot_follows_the_normalization(tmp_path):
    all_dot, none_dot = tmp_path / "all.dot", tmp_path / "none.dot"
    assert run_mrkit("mrp", GOLD, SYSTEM, "--errors", str(all_dot)).returncode == 0
    assert run_mrkit("mrp", GOLD, SYSTEM, "--errors", str(none_dot), "--normalize", "none").returncode == 0
    # without case, Boy and boy differ: the node is drawn as differing
    assert none_dot.read_text() != all_dot.read_text()
