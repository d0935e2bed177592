"""``mrkit scico stats`` and ``agreement``: worked out by hand on scico-handmade."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.cli import main


def _files():
    folder = shared_path("coref", "scico-handmade")
    return str(folder / "gold.jsonl"), str(folder / "system.jsonl")


def test_stats_by_hand(capsys):
    gold, _ = _files()
    assert main(["scico", "stats", gold, "--json", "--per-topic"]) == 0
    out = json.loads(capsys.readouterr().out)
    # topic 1: 7 mentions, clusters 10 20 30 40 50, 10->20->{30,40}: 2 components, depth 3
    # topic 2: 5 mentions, clusters 0 1 2, 0->1->2: 1 component, depth 3
    # topic 3: 7 mentions, clusters 7 8 9, 7->8->9: 1 component, depth 3
    assert (out["topics"], out["documents"], out["mentions"], out["clusters"], out["relations"]) == (3, 6, 19, 11, 7)
    assert out["avg_components"] == pytest.approx(4 / 3)
    assert out["avg_max_component_depth"] == 3


def test_agreement_of_identical_annotations_is_one(capsys):
    gold, _ = _files()
    assert main(["scico", "agreement", gold, gold, gold, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for s in ("conll", "hierarchy", "path_ratio"):
        assert out[s]["avg"] == pytest.approx(1.0) and out[s]["std"] == pytest.approx(0.0)
        assert out[s]["max_micro"] == pytest.approx(1.0) and out[s]["max_macro"] == pytest.approx(1.0)


def test_agreement_avg_and_max_by_hand(capsys):
    gold, system = _files()
    # annotators gold, gold, system: pairs (g,g) = 1, (g,s) = (s,g) = x (the scores are
    # symmetric); AVG = (1 + 2x) / 3; MAX-micro = mean(1, 1, x); MAX-macro = 1 per topic
    assert main(["hierarchy", gold, system, "--json"]) == 0
    h = json.loads(capsys.readouterr().out)
    x = h["hierarchy"]["f1"]
    assert main(["scico", "agreement", gold, gold, system, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hierarchy"]["avg"] == pytest.approx((1 + 2 * x) / 3)
    assert out["hierarchy"]["max_micro"] == pytest.approx((2 + x) / 3)
    assert out["hierarchy"]["max_macro"] == pytest.approx(1.0)
    assert out["conll"]["avg"] == pytest.approx((1 + 2 * h["coref"]["conll"]["f1"]) / 3)


def test_agreement_correlation_with_a_baseline(capsys):
    gold, system = _files()
    assert main(["scico", "agreement", gold, system, "--baseline", system, "--gold", gold, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out["correlation"]
    # the baseline is the second annotator: its per-topic CoNLL-F1 is the agreement itself
    assert c["topics"] == 3 and c["pearson"] == pytest.approx(1.0) and c["spearman"] == pytest.approx(1.0)


def test_agreement_needs_two_files():
    gold, _ = _files()
    r = run_mrkit("scico", "agreement", gold)
    assert r.returncode == 2 and "Traceback" not in r.stderr
