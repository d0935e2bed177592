"""``mrkit analyze --normalize`` against ``mtool --analyze --normalize`` (values and commands:
tests/metrics/mrp/fixtures/normalize/README.md)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from conftest import run_mrkit, shared_path
from mrkit.features.mrp_tuples import parse_normalize
from mrkit.pipeline.analyze import analyze_graphs
from mrkit.pipeline.mrp import read_side
from mrkit.report.analyze import ROWS, cell

F = Path(__file__).parents[1] / "metrics" / "mrp" / "fixtures" / "normalize"
MTOOL = json.loads((F / "mtool-analyze.json").read_text())


def _cells(stats: dict) -> str:
    return " ".join(cell(stats, key, kind).replace(" ", "") for _, key, kind in ROWS)


def _source(name: str) -> tuple[Path, str]:
    parts = name.split("-")
    if parts[0] == "fixture":
        return F / f"{parts[1]}.mrp", parts[2]
    return shared_path("mrp", "score-fixtures", "lpps.mrp"), parts[1]


@pytest.mark.parametrize("key", sorted(MTOOL))
def test_analyze_with_each_normalization_matches_mtool(key):
    name, mode = key.rsplit(".", 1)
    path, fw = _source(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graphs = [g for g in read_side(str(path)) if g.framework == fw]
    analysis = analyze_graphs(graphs, normalize=parse_normalize(mode), inverted=False).to_dict()
    assert _cells(analysis["frameworks"][fw]) == MTOOL[key]


def test_normalizations_change_the_fixture_statistics():
    # by hand: under edges the system AMR's ARG0-of, normal and domain edges turn, so its
    # root count and reentrancy become the gold's; anchors drops the explicit "anchors": []
    # (3 of 7 tuples -> 2 of 6 anchored UCCA nodes); attributes drops remote "false" (1 -> 0)
    assert MTOOL["fixture-system-ucca.none"].split()[5] == "3(42.86)"
    assert MTOOL["fixture-system-ucca.anchors"].split()[5] == "2(33.33)"
    assert MTOOL["fixture-gold-ucca.none"].split()[7] == "1(16.67)"
    assert MTOOL["fixture-gold-ucca.attributes"].split()[7] == "0(0.00)"
    assert MTOOL["fixture-system-amr.edges"].split()[9:] == MTOOL["fixture-gold-amr.edges"].split()[9:]


def test_cli_default_is_none_and_bad_value_is_one_line():
    gold = str(F / "gold.mrp")
    plain = run_mrkit("analyze", gold, "--json")
    assert plain.returncode == 0
    assert run_mrkit("analyze", gold, "--json", "--normalize", "none").stdout == plain.stdout
    assert run_mrkit("analyze", gold, "--json", "--normalize", "all").stdout != plain.stdout
    bad = run_mrkit("analyze", gold, "--normalize", "edge")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown normalization 'edge'" in bad.stderr
