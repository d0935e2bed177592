"""The official cross-framework score (MRP 2019, section 7): the mean of the per-framework
"all" scores, beside the pooled counts.  Expected values computed by hand."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path

from mrkit.aggregate.counts import Counts
from mrkit.features.mrp_tuples import TUPLE_TYPES
from mrkit.metrics.mrp.mrp import GraphScore, MRPResult


def _score(fw: str, gid: str, g: int, s: int, c: int) -> GraphScore:
    counts = {k: Counts() for k in TUPLE_TYPES}
    counts["edges"] = Counts(g, s, c)
    return GraphScore(fw, gid, counts, True, c, "bound")


def test_mean_of_per_framework_scores_by_hand():
    # dm: two graphs, pooled g=14 s=12 c=10 -> P 10/12, R 10/14, F 20/26
    # eds: one graph g=5 s=10 c=5 -> P 1/2, R 1, F 10/15
    result = MRPResult([_score("dm", "1", 10, 8, 6), _score("dm", "2", 4, 4, 4), _score("eds", "1", 5, 10, 5)])
    x = result.cross_framework()
    assert x["frameworks"] == 2
    assert x["precision"] == pytest.approx((10 / 12 + 1 / 2) / 2)
    assert x["recall"] == pytest.approx((10 / 14 + 1) / 2)
    assert x["f1"] == pytest.approx((20 / 26 + 10 / 15) / 2)
    # the pooled score stays what it was: g=19 s=22 c=15 -> F 30/41
    assert result.summary()["all"]["f"] == pytest.approx(30 / 41)
    assert result.to_dict()["cross_framework"] == x


def test_one_framework_is_its_own_mean():
    result = MRPResult([_score("ucca", "1", 4, 2, 1)])
    assert result.cross_framework()["f1"] == pytest.approx(2 / 6)


def test_cli_reports_the_mean_beside_the_pooled_score(tmp_path):
    gold = shared_path("mrp", "score-fixtures", "lpps.mrp")
    peking = shared_path("mrp", "score-fixtures", "eds", "lpps.peking.mrp")
    # system: the gold graphs of dm, psd, ucca, amr and Peking's eds graphs
    lines = [l for l in gold.read_text(encoding="utf-8").splitlines() if '"framework": "eds"' not in l]
    system = tmp_path / "system.mrp"
    system.write_text("\n".join(lines) + "\n" + peking.read_text(encoding="utf-8"), encoding="utf-8")
    out = run_mrkit("mrp", str(gold), str(system), "--json", "--mrp-only")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    per = data["frameworks"]
    assert set(per) == {"dm", "psd", "eds", "ucca", "amr"}
    assert all(per[f]["all"]["f"] == 1.0 for f in ("dm", "psd", "ucca", "amr"))
    assert data["cross_framework"]["f1"] == pytest.approx((4 + per["eds"]["all"]["f"]) / 5)
    text = run_mrkit("mrp", str(gold), str(system), "--mrp-only")
    assert "MRP cross-framework (mean of 5 per-framework scores" in text.stdout
