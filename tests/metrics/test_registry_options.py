"""Issue 13: each metric declares its options (its signature); an option it does not
declare is an error, never silently ignored (``-k`` for SEMA used to be swallowed)."""

from __future__ import annotations

import pytest

from conftest import run_mrkit, shared_path
from mrkit.codecs.penman import loads
from mrkit.errors import MrkitError
from mrkit.metrics.registry import available, metric_options, score

PAIR = loads("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))")


def test_declared_options_by_hand():
    assert metric_options("sema") == {}
    assert set(metric_options("sembleu")) == {"k", "weights", "reference"}
    assert set(metric_options("wlk")) == {"k", "edge_to_node"}
    assert set(metric_options("s2match")) == {"vectors", "config", "cutoff", "diffsense"}
    assert set(metric_options("smatch")) == {"config"}  # the executor is not an option
    assert metric_options("sembleu")["k"] == 3 and metric_options("wlk")["k"] == 2


@pytest.mark.parametrize("name", available())
def test_an_undeclared_option_is_an_error(name):
    with pytest.raises(MrkitError, match="has no option 'bogus'"):
        score(name, PAIR, PAIR, bogus=1)


def test_declared_options_are_passed():
    # SemBLEU of a graph against itself is 1 for any n-gram order; k=1 runs the unigram path
    assert score("sembleu", PAIR, PAIR, k=1).corpus == 1.0
    with pytest.raises(MrkitError, match="sema.*'k'"):
        score("sema", PAIR, PAIR, k=2)


@pytest.mark.parametrize("metric,flags,named", [
    ("sema", ["-k", "2"], "-k"),
    ("wwlk", ["--edge-to-node"], "--edge-to-node"),
    ("simple", ["--time-limit", "3"], "--time-limit"),
    ("wwlk", ["-j", "2"], "-j"),  # WWLK embeds batches in this process: no executor
    ("sembleu", ["--cutoff", "0.4"], "--cutoff"),
])
def test_cli_refuses_an_option_the_metric_does_not_take(metric, flags, named):
    amr = shared_path("amr", "alt-metrics-handmade", "a.amr")
    r = run_mrkit("score", "-m", metric, *flags, str(amr), str(amr))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("mrkit: ") and named in r.stderr and f"does not apply to {metric}" in r.stderr
    assert r.stderr.count("\n") == 1


def test_cli_passes_the_options_a_metric_takes():
    gold = shared_path("amr", "alt-metrics-handmade", "b.amr")
    system = shared_path("amr", "alt-metrics-handmade", "a.amr")
    k1 = run_mrkit("score", "-m", "sembleu", "-k", "1", str(gold), str(system), "--json")
    k3 = run_mrkit("score", "-m", "sembleu", str(gold), str(system), "--json")
    assert k1.returncode == k3.returncode == 0
    assert k1.stdout != k3.stdout  # -k reached the metric
