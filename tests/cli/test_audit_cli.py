"""``mrkit audit``: the table, JSON, --strict, errors."""

from __future__ import annotations

import json

from conftest import run_mrkit
from mrkit.cli import main


def test_audit_table_smatch_and_simple(capsys):
    assert main(["audit", "-m", "smatch,simple"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("smatch ", "simple "))}
    assert "FALLS" not in rows["smatch"]
    assert rows["simple"].split().count("FALLS") == 2  # TOP and role swap


def test_audit_json_and_strict(tmp_path, capsys):
    out = tmp_path / "a.json"
    assert main(["audit", "-m", "simple", "--json", "-o", str(out), "--strict"]) == 1
    d = json.loads(out.read_text())
    assert d["audits"][0]["falls_for"] == ["TOP", "role swap"]
    assert main(["audit", "-m", "smatch", "--strict", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["audits"][0]["falls_for"] == []


def test_audit_unknown_metric_is_one_line_exit_2(tmp_path):
    r = run_mrkit("audit", "-m", "smatch,nosuch", "-o", str(tmp_path / "x"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nosuch" in r.stderr
    assert not (tmp_path / "x").exists()
