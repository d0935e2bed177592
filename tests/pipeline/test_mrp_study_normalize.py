"""The HTML report's MRP study under ``--normalize``: the counts of the page are mtool's
(tests/metrics/mrp/fixtures/normalize/README.md), and a page drawn without normalizations
marks what no longer matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_mrkit
from mrkit.pipeline.inspect import mrp_study

F = Path(__file__).parents[1] / "metrics" / "mrp" / "fixtures" / "normalize"
ORACLE = json.loads((F / "mtool-normalize.json").read_text())["mrp"]["fixture"]


@pytest.mark.parametrize("mode,normalize", [("all", None), ("none", frozenset()), ("case", frozenset({"case"})),
                                            ("anchors", frozenset({"anchors"}))])
def test_study_counts_are_mtools(mode, normalize):
    study = mrp_study(str(F / "gold.mrp"), [str(F / "system.mrp")], normalize=normalize)
    for t, (c, g, s) in study.by_type[0].items():
        assert [g, s, c] == ORACLE[mode][t], t


def test_report_normalize_only_with_the_mrp_metric(tmp_path):
    out = tmp_path / "r.html"
    r = run_mrkit("report", str(F / "gold.mrp"), str(F / "system.mrp"), "-o", str(out), "--normalize", "none")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and not out.exists()
    r = run_mrkit("report", str(F / "gold.mrp"), str(F / "system.mrp"), "-o", str(out), "--metric", "mrp",
                  "--normalize", "none")
    assert r.returncode == 0, r.stderr
    assert "--normalize none" in out.read_text()
