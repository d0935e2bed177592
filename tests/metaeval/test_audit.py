"""The metric audit: every registered metric against every trap; hand-made metrics that
fall for exactly one trap each are caught by that trap and no other."""

from __future__ import annotations

from collections import Counter

import pytest

from mrkit.features.labelled import labelled_graph
from mrkit.metaeval.audit import TRAP_NAMES, TRAPS, audit_metric, audit_metrics, trap_graphs
from mrkit.metrics.registry import _METRICS, _DECLARED, available, register
from mrkit.metrics.result import mean_scores


@pytest.fixture(scope="module")
def audits():
    return {a.metric: a for a in audit_metrics(available())}


def test_every_registered_metric_runs_every_trap(audits):
    assert set(audits) == set(available())
    for a in audits.values():
        assert [r.trap for r in a.results] == list(TRAP_NAMES)
        for r in a.results:
            assert r.error is None, (a.metric, r.trap, r.error)
            assert all(0 <= x <= 1 for x in r.scores), (a.metric, r.trap, r.scores)


def test_smatch_falls_for_nothing(audits):
    assert audits["smatch"].falls_for == []


def test_role_swap_flagged_on_metrics_blind_to_roles(audits):
    # SIMPLE compares the *sets* of labels: swapping ARG0 and ARG1 keeps both sets
    assert "role swap" in audits["simple"].falls_for
    # the others see which node fills which role
    for m in ("smatch", "s2match", "sema", "sembleu", "wlk", "wwlk", "wwlk-k3e2n"):
        assert "role swap" not in audits[m].falls_for, m


def test_top_is_seen_only_by_the_triple_metrics(audits):
    # Smatch and S2match count the TOP triple; the label-based metrics have no top
    for m in ("smatch", "s2match"):
        assert "TOP" not in audits[m].falls_for
    for m in ("sema", "sembleu", "wlk", "wwlk", "wwlk-k3e2n", "simple"):
        assert "TOP" in audits[m].falls_for, m


def test_notation_traps_pass_everywhere(audits):
    for a in audits.values():
        for trap in ("self", "empty", "duplicated triples", "inverted edges", "variable renaming",
                     "triple order", "constant source"):
            assert trap not in a.falls_for, (a.metric, trap)


# ---------------------------------------------------------------- broken metrics

def _register(name, pair_fn):
    @register(name, corpus="mean of pairs")
    def metric(golds, systems):
        return mean_scores(name, [pair_fn(g, s) for g, s in zip(golds, systems)], [g.id for g in golds], {})
    return name


@pytest.fixture
def broken():
    names = []

    def make(name, fn):
        names.append(_register(name, fn))
        return name

    yield make
    for n in names:
        _METRICS.pop(n, None)
        _DECLARED.pop(n, None)


def _bag(g, roles=True, dedup=True):
    lg = labelled_graph(g)
    items = [("node", x) for x in lg.labels]
    for s, r, t in lg.edges:
        r = r if roles else ""
        items.append((lg.labels[s], r, lg.labels[t]))
    return set(items) if dedup else Counter(items)


def _f1(a, b):
    if isinstance(a, set):
        m, n1, n2 = len(a & b), len(a), len(b)
    else:
        m, n1, n2 = sum((a & b).values()), sum(a.values()), sum(b.values())
    return 1.0 if n1 + n2 == 0 else 2 * m / (n1 + n2)


def test_a_role_blind_metric_falls_for_the_role_swap(broken):
    m = broken("t-roleblind", lambda g, s: _f1(_bag(g, roles=False), _bag(s, roles=False)))
    falls = audit_metric(m).falls_for
    assert "role swap" in falls and "self" not in falls and "variable renaming" not in falls


def test_a_metric_dropping_of_everywhere_falls_for_the_constant_source(broken):
    # a constant cannot be a source: mrkit's triples keep ':polarity-of' as the role; a
    # metric that strips '-of' from every role reads it as ':polarity'
    def strip_of(g):
        return {(x[0], x[1].removesuffix("-of"), x[2]) if len(x) == 3 else x for x in _bag(g)}
    m = broken("t-strip-of", lambda g, s: _f1(strip_of(g), strip_of(s)))
    assert "constant source" in audit_metric(m).falls_for


def test_a_metric_counting_matches_with_multiplicity_falls_for_duplicates(broken):
    # smatch.py's old bug: matches of duplicated triples counted again, precision > 1
    def inflated(g, s):
        from mrkit.codecs.penman import dumps
        gs, ss = dumps([g]).count(":"), dumps([s]).count(":")  # written roles, duplicates included
        base = _f1(_bag(g), _bag(s))
        return base * (1 + max(0, ss - gs) / 10)
    m = broken("t-dups", inflated)
    assert "duplicated triples" in audit_metric(m).falls_for


def test_a_metric_that_raises_falls_for_the_trap_that_raises(broken):
    def fragile(g, s):
        if not g.nodes or not s.nodes:
            raise ZeroDivisionError("empty graph")
        return _f1(_bag(g), _bag(s))
    m = broken("t-fragile", fragile)
    a = audit_metric(m)
    empty = next(r for r in a.results if r.trap == "empty")
    assert a.falls_for == ["empty", "TOP"] and "ZeroDivisionError" in empty.error


def test_an_order_sensitive_metric_falls_for_triple_order(broken):
    def first_edge(g, s):
        from mrkit.codecs.penman import dumps
        return 1.0 if dumps([g]).split()[:6] == dumps([s]).split()[:6] else 0.5
    m = broken("t-order", first_edge)
    assert "triple order" in audit_metric(m).falls_for


def test_trap_pairs_are_well_formed():
    golds, systems = trap_graphs()
    assert len(golds) == len(systems) == sum(len(t.pairs) for t in TRAPS)
    assert len(set(TRAP_NAMES)) == len(TRAP_NAMES) == 9
