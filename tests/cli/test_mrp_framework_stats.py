"""--bootstrap / --against for the framework metrics of ``mrkit mrp`` (SDP, EDM, UCCA,
Smatch): their headline measure resampled like the MRP score.  The EDM point value is
mtool's (``score-fixtures/README.txt``: lpps.peking.mrp vs lpps.mrp --framework eds, EDM
all F = 0.9061)."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path


def test_edm_bootstrap_and_against_itself():
    gold = shared_path("mrp", "score-fixtures", "lpps.mrp")
    peking = shared_path("mrp", "score-fixtures", "eds", "lpps.peking.mrp")
    proc = run_mrkit("mrp", str(gold), str(peking), "--framework", "eds", "--bootstrap", "200",
                     "--against", str(peking), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    st = data["framework_statistics"]["eds"]
    assert st["metric"] == "edm" and st["measure"] == "all"
    assert st["summary"]["f1"] == pytest.approx(0.9061, abs=5e-5)
    assert st["summary"]["f1"] == pytest.approx(data["framework_metrics"]["eds"]["all"]["f"])
    lo, hi = st["intervals"]["f1"]
    assert lo <= st["summary"]["f1"] <= hi and hi - lo > 0
    t = st["against"]["tests"]["f1"]
    assert t["difference"] == 0.0 and t["p_randomization"] == 1.0


def test_every_framework_metric_gets_statistics(tmp_path):
    gold = shared_path("mrp", "score-fixtures", "lpps.mrp")
    proc = run_mrkit("mrp", str(gold), str(gold), "--bootstrap", "50", "--id", "102990", "--id", "103610")
    assert proc.returncode == 0, proc.stderr
    for line in ("SDP dm (labeled): F 1.0000  [1.0000, 1.0000]", "SDP psd (labeled): F 1.0000",
                 "EDM eds (all): F 1.0000", "UCCA ucca (labeled primary): F 1.0000",
                 "SMATCH amr (smatch): F 1.0000"):
        assert line in proc.stdout, line
