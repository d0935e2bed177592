"""Issue 13: every registered metric as a corpus result.

- the corpus score and the pair scores are those of the metric's own definition,
  recomputed here directly (micro F1 of summed counts, corpus BLEU by the reference
  formula of ``_bleu``, the mean of pairs), on Little Prince T5 (unchanged since main);
- SemBLEU's vectorised reducer equals ``_bleu`` exactly, on random corpora and resamples;
- ``mrkit score --bootstrap`` and ``--against`` equal a naive loop over the same draws
  (``numpy.random.default_rng(seed)``: first every bootstrap resample, then every
  randomisation round) that recomputes each metric's corpus score from the pair values.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_mrkit, shared_path
from mrkit.codecs.penman import read_blocks, read_penman
from mrkit.metrics.registry import available, declaration, score

LP = ("amr", "parseeval-little-prince")
VECTOR_METRICS = ("s2match", "wwlk", "wwlk-k3e2n")


def _opts(name: str) -> dict:
    return {"vectors": "none"} if name in VECTOR_METRICS else {}


def _prf(m: float, g: float, s: float) -> tuple[float, float, float]:
    p = m / s if s else (1.0 if g == 0 else 0.0)
    r = m / g if g else (1.0 if s == 0 else 0.0)
    return p, r, (2 * m / (g + s) if g + s else 1.0)


def pair_values(name: str, golds, systems) -> list:
    """Per pair, what the metric's corpus score is made of, computed pair by pair by the
    metric modules' pair functions: (matched, gold, system) counts for the micro-F1
    metrics, the pair's n-gram statistics (kept as graphs) for SemBLEU, the score for
    the mean-of-pairs metrics."""
    from mrkit.codecs.vectors import get_embeddings
    from mrkit.metrics.amr import s2match, sema, simple, smatch, wlk, wwlk

    if name == "smatch":
        return [(p.matched, p.gold, p.system) for p in (smatch.smatch_pair(g, s) for g, s in zip(golds, systems))]
    if name == "s2match":
        sim = s2match._SimCache(get_embeddings("none"), 0.5, 0.5)
        return [(p.matched, p.gold, p.system)
                for p in (s2match.s2match_pair(g, s, sim) for g, s in zip(golds, systems))]
    if name == "sema":
        return [sema.sema_counts(g, s) for g, s in zip(golds, systems)]
    if name == "sembleu":
        return list(zip(golds, systems))
    if name == "wlk":
        return [wlk.wlk_pair(g, s) for g, s in zip(golds, systems)]
    if name == "simple":
        return [simple.simple_pair(g, s) for g, s in zip(golds, systems)]
    emb = get_embeddings("none")
    levi = name == "wwlk-k3e2n"
    return [wwlk.wwlk_pair(g, s, emb, 3 if levi else 2, levi) for g, s in zip(golds, systems)]


def corpus_of(name: str, values: list) -> dict[str, float]:
    """The metric's corpus statistics from its pair values (see :func:`pair_values`)."""
    if name in ("smatch", "s2match", "sema"):
        m = g = s = 0
        for a, b, c in values:
            m, g, s = m + a, g + b, s + c
        return dict(zip(("precision", "recall", "f1"), _prf(m, g, s)))
    if name == "sembleu":
        from mrkit.metrics.amr.sembleu import sembleu_corpus

        return {"f1": sembleu_corpus([g for g, _ in values], [s for _, s in values])[0]}
    return {"f1": sum(values) / len(values)}


def _lp_pairs(system: str = "t5.amr"):
    d = shared_path(*LP)
    return read_penman(d / "gold.amr"), read_penman(d / system)


# ------------------------------------------------------------------ corpus scores

@pytest.mark.parametrize("name", available())
def test_corpus_score_is_the_metric_definition_on_little_prince(name):
    golds, systems = _lp_pairs()
    res = score(name, golds, systems, **_opts(name))
    values = pair_values(name, golds, systems)
    expected = corpus_of(name, values)
    assert res.corpus == pytest.approx(expected["f1"], rel=1e-12)
    assert res.summary()["f1"] == res.corpus and res.summary()["pairs"] == len(golds) == 200
    if name != "sembleu":  # exact: same sums in the same order
        exact = name not in ("wwlk", "wwlk-k3e2n")  # (one pair at a time vs batches: 1e-15)
        if exact:
            assert res.corpus == expected["f1"]
    for k in ("precision", "recall"):
        if k in expected:
            assert res.summary()[k] == pytest.approx(expected[k], rel=1e-12)
    assert res.ids == [g.id for g in golds]
    decl = declaration(name)
    assert decl.corpus
    if decl.reduce is not None:  # the declared rows and reducer are the result's
        assert res.reduce is decl.reduce and res.columns == decl.columns
    else:  # SemBLEU: its reducer depends on the n-gram order
        assert name == "sembleu" and len(res.columns) == 2 * 3 + 2


def test_sembleu_corpus_equals_bleu_exactly_on_little_prince():
    from mrkit.metrics.amr.sembleu import sembleu_corpus

    golds, systems = _lp_pairs()
    res = score("sembleu", golds, systems)
    corpus, per = sembleu_corpus(golds, systems)
    assert res.corpus == corpus and res.pair_scores == per


@pytest.mark.parametrize("name", available())
def test_the_executor_does_not_change_the_numbers(name):
    from mrkit.metrics.registry import takes_executor
    from mrkit.runtime.executor import ProcessExecutor

    golds, systems = _lp_pairs()
    golds, systems = golds[:40], systems[:40]
    serial = score(name, golds, systems, **_opts(name))
    if not takes_executor(name):
        assert name in ("wwlk", "wwlk-k3e2n")
        return
    with ProcessExecutor(2) as ex:
        par = score(name, golds, systems, executor=ex, **_opts(name))
    assert par.pair_scores == serial.pair_scores and par.corpus == serial.corpus
    assert np.array_equal(par.table, serial.table)


# ------------------------------------------------------------------ SemBLEU's reducer

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 3),
                          st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=6),
       st.sampled_from([(1 / 3,) * 3, (0.34, 0.33, 0.34), (0.5, 0.5), (1.0,)]))
def test_bleu_reducer_equals_bleu(rows, weights):
    """Random n-gram statistics per pair (matches <= totals), summed: the reducer on the
    sums equals ``_bleu`` on the same counts, for one corpus and for a stack of them."""
    from collections import Counter

    from mrkit.metrics.amr.sembleu import NgramStats, _bleu, bleu_reducer

    K = len(weights)
    stats, table = [], []
    for i, (m1, extra, zero_from, hyp_len, ref_len) in enumerate(rows):
        # orders >= zero_from have no system n-gram; matched <= total per order
        totals = [m1 + extra if n < max(1, zero_from) else 0 for n in range(K)]
        matched = [min(m1 // (n + 1), totals[n]) for n in range(K)]
        hyp = {n + 1: Counter({("g", j): 1 for j in range(totals[n])}) for n in range(K)}
        ref = {n + 1: Counter({("g", j): 1 for j in range(matched[n])}) for n in range(K)}
        length = sum(totals) + hyp_len
        stats.append((NgramStats(ref, ref_len), NgramStats(hyp, length)))
        table.append([*matched, *totals, length, ref_len])
    reduce = bleu_reducer(weights)
    t = np.asarray(table, dtype=float)
    assert float(reduce(t.sum(axis=0))["f1"]) == _bleu(stats, weights)
    per = reduce(t)["f1"]
    assert [float(x) for x in per] == [_bleu([s], weights) for s in stats]
    stack = np.stack([t.sum(axis=0), t[0]])
    assert [float(x) for x in reduce(stack)["f1"]] == [_bleu(stats, weights), _bleu(stats[:1], weights)]


# ------------------------------------------------------------------ --bootstrap, --against

N_PAIRS = 14
SAMPLES = 100  # more than one block of 64 draws
SEED = 7


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """The first pairs of Little Prince: gold, T5 (system A), BART (system B)."""
    d = shared_path(*LP)
    out = tmp_path_factory.mktemp("lp")
    paths = {}
    for name in ("gold", "t5", "bart"):
        blocks = [text for _, text in read_blocks(d / f"{name}.amr")][:N_PAIRS]
        paths[name] = out / f"{name}.amr"
        paths[name].write_text("\n\n".join(b.strip() for b in blocks) + "\n")
    return paths


def _percentile(values: list[float], level: float = 0.95) -> list[float]:
    v = np.asarray([x for x in values if not math.isnan(x)], dtype=float)
    return [float(np.percentile(v, (1 - level) / 2 * 100)), float(np.percentile(v, (1 + level) / 2 * 100))]


def _cli(name: str, paths, *extra: str) -> dict:
    flags = ["--vectors", "none"] if name in VECTOR_METRICS else []
    r = run_mrkit("score", "-m", name, *flags, str(paths["gold"]), str(paths["t5"]), "--json", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("name", available())
def test_bootstrap_and_against_equal_a_naive_loop(name, small_corpus):
    golds = read_penman(small_corpus["gold"])
    a = pair_values(name, golds, read_penman(small_corpus["t5"]))
    b = pair_values(name, golds, read_penman(small_corpus["bart"]))
    n = len(golds)
    assert n == N_PAIRS
    got = _cli(name, small_corpus, "--bootstrap", str(SAMPLES), "--stats-seed", str(SEED),
               "--against", str(small_corpus["bart"]))
    stats = list(corpus_of(name, a))
    assert got["summary"]["f1"] == pytest.approx(corpus_of(name, a)["f1"], rel=1e-12)

    rng = np.random.default_rng(SEED)
    # --bootstrap: its own draws (the first SAMPLES resamples of a fresh generator)
    idx = rng.integers(0, n, size=(SAMPLES, n))
    boot = [corpus_of(name, [a[i] for i in row]) for row in idx]
    assert set(got["ci"]) == set(stats)
    for k in stats:
        assert got["ci"][k] == pytest.approx(_percentile([r[k] for r in boot]), rel=1e-9, abs=1e-12)

    # --against: paired resamples (the same draws again), then randomisation rounds
    rng = np.random.default_rng(SEED)
    idx = rng.integers(0, n, size=(SAMPLES, n))
    swaps = rng.integers(0, 2, size=(SAMPLES, n)) == 0
    full_a, full_b = corpus_of(name, a), corpus_of(name, b)
    tests = got["against"]["tests"]
    assert got["against"]["summary"]["f1"] == pytest.approx(full_b["f1"], rel=1e-12)
    for k in stats:
        diff = full_a[k] - full_b[k]
        paired = [corpus_of(name, [a[i] for i in row])[k] - corpus_of(name, [b[i] for i in row])[k]
                  for row in idx]
        rand = []
        for row in swaps:
            xa = [b[i] if row[i] else a[i] for i in range(n)]
            xb = [a[i] if row[i] else b[i] for i in range(n)]
            rand.append(corpus_of(name, xa)[k] - corpus_of(name, xb)[k])
        t = tests[k]
        assert t["difference"] == pytest.approx(diff, rel=1e-12, abs=1e-15)
        assert t["ci"] == pytest.approx(_percentile(paired), rel=1e-9, abs=1e-12)
        if diff == 0:
            p_boot = 1.0
        else:
            other = sum(d <= 0 for d in paired) if diff > 0 else sum(d >= 0 for d in paired)
            p_boot = min(1.0, 2 * other / len(paired))
        hits = sum(abs(d) >= abs(diff) - 1e-12 for d in rand)
        assert t["p_bootstrap"] == pytest.approx(p_boot)
        assert t["p_randomization"] == pytest.approx((hits + 1) / (SAMPLES + 1))


def test_per_pair_tsv_rows(small_corpus):
    r = run_mrkit("score", "-m", "sema", str(small_corpus["gold"]), str(small_corpus["t5"]),
                  "--per-pair", "--format", "tsv")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    head = lines[0].split("\t")
    assert head[:2] == ["pair", "id"] and {"matched", "gold", "system", "precision", "recall", "f1"} <= set(head)
    golds = read_penman(small_corpus["gold"])
    systems = read_penman(small_corpus["t5"])
    from mrkit.metrics.amr.sema import sema_counts

    assert len(lines) == 1 + len(golds)
    for line, g, s in zip(lines[1:], golds, systems):
        row = dict(zip(head, line.split("\t")))
        assert row["id"] == g.id
        assert (int(row["matched"]), int(row["gold"]), int(row["system"])) == sema_counts(g, s)


def test_against_a_file_with_other_pairs_is_one_line(small_corpus, tmp_path):
    short = tmp_path / "short.amr"
    short.write_text("(a / ask-01)\n")
    r = run_mrkit("score", "-m", "simple", str(small_corpus["gold"]), str(small_corpus["t5"]),
                  "--against", str(short))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1


def test_only_the_aligning_metrics_use_workers_by_default():
    # mrkit score / compare with -j 0 start worker processes only for these (large corpora)
    assert {m for m in available() if declaration(m).aligns} == {"smatch", "s2match"}
