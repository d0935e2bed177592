"""`mrkit score` with the counting metrics on a small corpus loads no numpy (SEMA and
SemBLEU: integer rows summarised in plain Python; WLK and SIMPLE: their scores as a
ColumnTable, summed in row order), and its output is the numpy path's."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from import_probe import run_probed, split_probe


@pytest.mark.parametrize("metric", ["sema", "sembleu", "wlk", "simple"])
def test_counting_metrics_load_no_numpy_on_small_corpora(metric):
    base = shared_path("amr") / "parseeval-little-prince"
    out = run_probed(["score", "-m", metric, str(base / "gold.amr"), str(base / "t5.amr"), "--json"])
    assert out.returncode == 0, out.stderr
    report, numpy, _ = split_probe(out.stdout)
    assert numpy == "NO-NUMPY"
    plain = json.loads(report)
    # the same result with numpy loaded (--bootstrap needs it) and through the graph path
    with_np = json.loads(run_mrkit("score", "-m", metric, str(base / "gold.amr"), str(base / "t5.amr"),
                                   "--json", "--bootstrap", "10").stdout)
    assert plain["summary"] == {k: v for k, v in with_np["summary"].items() if k in plain["summary"]}
    assert plain["corpus"] == with_np["corpus"] and plain["macro"] == with_np["macro"]
