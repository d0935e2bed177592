"""scripts/compare_reports.py (before/after report comparison) and benchmarks/harness.py."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT, shared_path


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


cr = _load(ROOT / "scripts" / "compare_reports.py", "compare_reports")
harness = _load(ROOT / "benchmarks" / "harness.py", "bench_harness")


# ---------------------------------------------------------------- flattening, matching
def test_flatten_gives_paths_of_number_leaves():
    report = {"f1": 0.5, "name": "x", "ok": True, "per_pair": [{"f1": 1, "id": "a"}, {"f1": 0.25}],
              "nested": {"all": {"p": 0.1}}, "none": None}
    assert cr.flatten(report) == {"f1": 0.5, "ok": True, "per_pair[0].f1": 1, "per_pair[1].f1": 0.25,
                                  "nested.all.p": 0.1, "none": None}
    assert cr.flatten(report, strings=True)["per_pair[0].id"] == "a"


def test_declared_rename_counts_as_renamed_not_changed():
    before = {"f1": 0.75, "precision": 0.5, "gold_triples": 10}
    after = {"summary.f1": 0.75, "summary.precision": 0.5, "gold_triples": 10, "summary.macro_f1": 0.7}
    res = cr.compare_leaves("smatch/x", before, after, 0.0)
    assert res["equal"] == 1
    assert sorted(res["renamed"]) == [("f1", "summary.f1", 0.75), ("precision", "summary.precision", 0.5)]
    assert res["changed"] == res["moved"] == res["missing"] == []
    assert res["extra"] == [("summary.macro_f1", 0.7)]


def test_renamed_key_with_another_number_is_a_change():
    res = cr.compare_leaves("smatch/x", {"f1": 0.75}, {"summary.f1": 0.7500001}, 0.0)
    assert res["changed"] == [("f1", "summary.f1", 0.75, 0.7500001)]
    # within a relative tolerance it is a rename
    assert cr.compare_leaves("smatch/x", {"f1": 0.75}, {"summary.f1": 0.7500001}, 1e-6)["renamed"]


def test_a_rule_applies_only_to_its_cases():
    res = cr.compare_leaves("validate/x", {"f1": 0.75}, {"summary.f1": 0.75}, 0.0)
    assert res["renamed"] == [] and res["moved"] == [("f1", "summary.f1", 0.75)]


def test_undeclared_move_is_found_by_value_the_closest_path_wins():
    before = {"per_graph[0].all.f": 0.5, "per_graph[1].all.f": 0.5, "n": 3}
    after = {"per_pair[0].all.f": 0.5, "per_pair[1].all.f": 0.5, "other.x": 0.5, "n": 3}
    res = cr.compare_leaves("validate/x", before, after, 0.0)
    assert res["equal"] == 1
    assert sorted(res["moved"]) == [("per_graph[0].all.f", "per_pair[0].all.f", 0.5),
                                    ("per_graph[1].all.f", "per_pair[1].all.f", 0.5)]
    assert res["extra"] == [("other.x", 0.5)]


def test_changed_missing_and_ignored_time():
    before = {"a": 1, "b": 2.0, "c": 3, "seconds": 1.5, "per_graph[0].time": 0.2}
    after = {"a": 1, "b": 2.5, "seconds": 9.9, "per_graph[0].time": 0.7}
    res = cr.compare_leaves("mrp/x", before, after, 0.0)
    assert res["equal"] == 1
    assert res["changed"] == [("b", "b", 2.0, 2.5)]
    assert res["missing"] == [("c", 3)]


def test_ints_equal_floats_booleans_do_not_equal_numbers():
    assert cr.same(3, 3.0, 0.0)
    assert not cr.same(True, 1, 0.0)
    assert cr.same(float("nan"), float("nan"), 0.0)
    assert not cr.same(None, 0, 0.0)


# ---------------------------------------------------------------- whole runs from caches
def _fake(tmp: Path, side: str, case: tuple, stdout: str, rc: int = 0, file: str | None = None) -> Path:
    folder = tmp / side
    folder.mkdir(exist_ok=True)
    res = {"name": case[0], "key": cr.case_key(case, side == "after"), "argv": [], "rc": rc, "wall": 0.1,
           "stdout": stdout, "stderr": "", "file": file, "file_sha256": None if file is None else str(hash(file))}
    cr.cache_path(folder, case[0]).write_text(json.dumps(res))
    return folder


def _case(prefix: str) -> tuple:
    return next(c for c in cr.CASES if c[0].startswith(prefix))


def test_main_exit_0_on_renames_only_1_on_a_change(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cr, "DATA", tmp_path)  # the check that shared data exists
    case = _case("smatch/lp-t5")
    before = _fake(tmp_path, "before", case, json.dumps({"f1": 0.75, "per_pair": [{"f1": 0.5}]}))
    after = _fake(tmp_path, "after", case, json.dumps({"summary": {"f1": 0.75}, "per_pair": [{"f1": 0.5}]}))
    args = ["--cache-before", str(before), "--cache-after", str(after), "--cases", case[0]]
    assert cr.main(args) == 0
    out = capsys.readouterr().out
    assert "renamed" in out and "f1 -> summary.f1: 1" in out
    _fake(tmp_path, "after", case, json.dumps({"summary": {"f1": 0.75}, "per_pair": [{"f1": 0.4}]}))
    assert cr.main(args) == 1
    assert "changed per_pair[0].f1: 0.5 -> 0.4" in capsys.readouterr().out
    assert cr.main(args + ["--json"]) == 1
    got = json.loads(capsys.readouterr().out)["cases"][0]
    assert got["verdict"] == "CHANGED" and got["leaves"]["changed"] == [["per_pair[0].f1", "per_pair[0].f1", 0.5, 0.4]]


def test_main_compares_written_files_and_exit_status(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cr, "DATA", tmp_path)
    case = _case("convert/")
    before = _fake(tmp_path, "before", case, "", file="line 1\nline 2\n")
    after = _fake(tmp_path, "after", case, "", file="line 1\nline 2\n")
    args = ["--cache-before", str(before), "--cache-after", str(after), "--cases", case[0]]
    assert cr.main(args) == 0
    _fake(tmp_path, "after", case, "", file="line 1\nline two\n")
    assert cr.main(args) == 1
    assert "differs from line 2" in capsys.readouterr().out
    _fake(tmp_path, "after", case, "", rc=2, file="line 1\nline 2\n")
    assert cr.main(args) == 1
    assert "exit status 0 -> 2" in capsys.readouterr().out


def test_every_case_is_well_formed():
    names = [c[0] for c in cr.CASES]
    assert len(names) == len(set(names))
    commands = {c[1][0] for c in cr.CASES if c[2] != "status"}
    assert commands == {"smatch", "score", "compare", "mrp", "docsmatch", "docamr", "coref", "hierarchy",
                        "validate", "convert"}
    assert {c[1][2] for c in cr.CASES if c[1][0] == "score"} == set(cr.METRICS)
    assert any("--amr" in c[1] for c in cr.CASES if c[1][0] == "coref")
    for c in cr.CASES:
        assert c[2] in ("json", "file", "status")
        if c[2] == "status":
            continue
        assert ("--json" in c[1]) == (c[2] == "json"), c[0]
        assert ("{out}" in c[1]) == (c[2] == "file"), c[0]


def test_same_installation_reports_no_change(tmp_path):
    """One real case, before = after = this mrkit: nothing changes."""
    shared_path("coref", "reference-scorer-tests", "TC-A.key")
    import subprocess

    import mrkit

    src = str(Path(mrkit.__file__).resolve().parents[1])
    py = tmp_path / "py"
    py.write_text(f"#!/bin/sh\nPYTHONPATH={src} exec {sys.executable} \"$@\"\n")
    py.chmod(0o755)
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "compare_reports.py"), "--before", str(py),
                           "--after", str(py), "--cases", "coref/scorer-TC-A-1,hierarchy/scico"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "same: 2 (2 cases)" in proc.stdout


# ---------------------------------------------------------------- harness
def test_harness_run_takes_the_median_and_reports_failures():
    r = harness.run([sys.executable, "-c", "print('hi')"], repeat=3)
    assert r.ok and r.stdout == "hi\n" and len(r.walls) == 3
    assert r.wall == sorted(r.walls)[1]
    bad = harness.run([sys.executable, "-c", "import sys; sys.exit(3)"], repeat=3, quiet=True)
    assert not bad.ok and bad.returncode == 3 and len(bad.walls) == 1
    slow = harness.run([sys.executable, "-c", "import time; time.sleep(5)"], repeat=2, timeout=0.2)
    assert slow.timed_out and slow.walls == [0.2]
    with pytest.raises(Exception):
        harness.run([sys.executable, "-c", "import sys; sys.exit(1)"], check=True)


def test_harness_best_of_side_by_side_and_table(capsys):
    calls = []
    secs, value = harness.best_of(lambda: calls.append(1) or len(calls), repeat=4)
    assert value == 4 and secs >= 0
    fast = harness.Run(["a"], walls=[1.0, 3.0, 2.0], returncode=0)
    slow = harness.Run(["b"], walls=[5.0], returncode=0)
    res = harness.side_by_side({"a": lambda: fast, "b": lambda: slow})
    assert res["a"]["ratio"] is None and res["b"]["ratio"] == 2.5
    assert harness.ratio(5.0, 2.0) == "2.5x" and harness.ratio(1.0, None) == ""
    harness.table(("tool", "s"), [("mrkit", "1.00"), ("smatch", "12.5")], right=(1,))
    assert capsys.readouterr().out.splitlines() == ["tool   |    s", "-------|-----", "mrkit  | 1.00",
                                                    "smatch | 12.5"]


def test_harness_headline_reads_summary_or_old_top_level():
    assert harness.headline({"summary": {"f1": 0.5}, "f1": 0.1}) == 0.5
    assert harness.headline({"f1": 0.1}) == 0.1
    assert harness.field_of({"overall": {"all": {"f": 0.3}}}, "f1", "overall.all.f") == 0.3
    assert harness.field_of({"summary": {"certified_share": 1.0}}, "certified_share") == 1.0
