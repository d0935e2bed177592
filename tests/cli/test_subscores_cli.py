"""``mrkit smatch --subscores`` and the convention / triple-kind / multi-reference options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_mrkit
from mrkit.cli import main

DATA = Path(__file__).resolve().parents[1] / "metrics" / "amr" / "subscores_data"
GOLD, SYSTEM = str(DATA / "gold.amr"), str(DATA / "system.amr")


def run(capsys, *args) -> str:
    assert main(["smatch", GOLD, SYSTEM, *args]) == 0
    return capsys.readouterr().out


def test_text_table(capsys):
    out = run(capsys, "--subscores")
    assert "F-score: 0.5946" in out  # the classic Smatch line is unchanged: 11/19/18
    rows = {ln.split("  ")[0].strip(): ln for ln in out.splitlines() if "certified alignment" in ln or "multiset" in ln}
    assert set(rows) == {"Unlabeled", "No WSD", "Reentrancies", "SRL", "Concepts", "Named Ent.", "Negations",
                         "Wikification"}
    assert "0.6486" in rows["Unlabeled"] and "12/19/18" in rows["Unlabeled"]
    assert "5/7/8" in rows["SRL"] and "0.6667" in rows["SRL"]
    assert "Alignment-based subscores certified optimal: 3/3 pairs" in out


def test_json_bootstrap_and_per_pair(capsys):
    d = json.loads(run(capsys, "--subscores", "--json", "--bootstrap", "50", "--per-pair"))
    sub = d["subscores"]
    assert sub["concepts"]["matched"] == 6 and sub["concepts"]["kind"] == "multiset"
    assert sub["no_wsd"]["kind"] == "certified alignment"
    lo, hi = sub["srl"]["ci_f1"]
    assert lo <= sub["srl"]["f1"] <= hi or lo <= hi
    assert d["subscores_certified"] == 3 and "hill-climbs" in d["subscores_note"]
    assert d["per_pair"][0]["subscores"]["no_wsd"]["matched"] == 6
    assert d["summary"]["f1"] == pytest.approx(22 / 37)


def test_tsv_per_pair_columns(capsys):
    out = run(capsys, "--subscores", "--per-pair", "--format", "tsv")
    head = out.splitlines()[0].split("\t")
    assert {"unlabeled_f1", "srl_f1", "wikification_f1"} <= set(head)


def test_just_options(capsys):
    assert "F-score: 0.8000" in run(capsys, "--justinstance")       # 6/7/8, as smatch.py 1.0.4
    assert "Precision: 0.6000" in run(capsys, "--justattribute")    # 3/7/5, as smatch.py 1.0.4
    assert "F-score: 0.6000" in run(capsys, "--justrelation")       # 3/5/5
    assert "F-score: 0.8000" in run(capsys, "--justrelation", "--mod-domain")  # smatch.py 1.0.4


def test_conventions_change_the_number(capsys):
    # s3 (s / small :domain (d / dog)) vs (d / dog :mod (s / small)): +1 with --mod-domain
    assert "F-score: 0.6486" in run(capsys, "--mod-domain")  # 12/19/18 (= smatch.py 1.0.4 on these files)
    # --top concept: the root concepts want-01/want-01, person/person agree; s3 small vs dog
    # roots are not aligned either way: unchanged here
    assert "F-score: 0.5946" in run(capsys, "--top", "concept")
    d = json.loads(run(capsys, "--standardize", "--json"))
    assert d["conventions"] == {"top": "concept", "mod_domain": True, "roles": "dereify-smatchpp"}
    assert d["just"] is None


def test_multi_reference(capsys, tmp_path):
    other = tmp_path / "gold2.amr"
    other.write_text(Path(SYSTEM).read_text())  # the system itself as a second reference
    out = run(capsys, "--also-gold", str(other))
    assert "F-score: 1.0000" in out and "References: 2 gold files" in out
    out = run(capsys, "--also-gold", str(other), "--multi-ref", "mean")
    # per pair the mean of the two references' counts; summed: matched (11 + 18)/2, gold
    # (19 + 18)/2, system 18 -> F1 = 29 / 36.5
    assert "F-score: 0.7945" in out


def test_errors_exit_2(tmp_path):
    short = tmp_path / "short.amr"
    short.write_text("(a / x)\n")
    proc = run_mrkit("smatch", GOLD, SYSTEM, "--also-gold", str(short))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
    proc = run_mrkit("smatch", "-", SYSTEM, "--subscores", input=Path(GOLD).read_text())
    assert proc.returncode == 2 and "--subscores" in proc.stderr
    proc = run_mrkit("smatch", GOLD, SYSTEM, "--standardize", "--top", "smatch")
    assert proc.returncode == 2
    proc = run_mrkit("smatch", GOLD, SYSTEM, "--justinstance", "--justrelation")
    assert proc.returncode == 2
    out = tmp_path / "out.json"
    proc = run_mrkit("smatch", GOLD, str(short), "--subscores", "-o", str(out))
    assert proc.returncode == 2 and not out.exists()
