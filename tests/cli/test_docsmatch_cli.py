"""``mrkit docsmatch`` on the pipeline: statistics (--bootstrap, --against) checked against a
naive resampling loop, per-pair TSV/CSV, stdin, --format, -j, and the numbers of the IBM
Little Prince outputs."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from conftest import run_mrkit, shared_path

LPP = "lpp_1-19.{}.amr"
GOLD = ("docAMR", "merge-names", "no-merge", "merge-all", "nocoref")
SYS_A = ("merge-names", "no-merge", "merge-all", "nocoref", "docAMR")  # gold shifted by one
SYS_B = ("no-merge", "merge-all", "nocoref", "docAMR", "merge-names")  # gold shifted by two


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Three five-document files built from IBM's representations of the same document."""
    d = shared_path("docamr", "ibm-docamr-outputs-lpp")
    out = tmp_path_factory.mktemp("docsmatch")
    paths = {}
    for name, reps in (("gold", GOLD), ("a", SYS_A), ("b", SYS_B)):
        paths[name] = out / f"{name}.amr"
        paths[name].write_text("\n".join((d / LPP.format(r)).read_text() for r in reps))
    return paths


@pytest.fixture(scope="module")
def counts(corpus):
    """(matched, gold, system) of every pair, from the metric's pair function directly."""
    from mrkit.codecs.docgraphs import read_document_graphs
    from mrkit.metrics.document.docsmatch import docsmatch_pair

    gold = read_document_graphs(corpus["gold"])
    out = {}
    for k in ("a", "b"):
        out[k] = np.array([[p.matched, p.gold, p.system] for p in
                           (docsmatch_pair(g, s) for g, s in zip(gold, read_document_graphs(corpus[k])))])
    return out


def _f1(rows: np.ndarray) -> float:
    m, g, s = rows.sum(axis=0)
    return 2 * m / (g + s)


def _json(*args):
    r = run_mrkit("docsmatch", *map(str, args), "--json", timeout=300)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return json.loads(r.stdout)


def test_summary_is_micro_document_smatch(corpus, counts):
    j = _json(corpus["gold"], corpus["a"], "--per-pair")
    m, g, s = counts["a"].sum(axis=0)
    assert j["summary"]["pairs"] == 5 and j["summary"]["certified"] == 5
    assert j["summary"]["f1"] == pytest.approx(2 * m / (g + s), abs=1e-12)
    assert j["summary"]["precision"] == pytest.approx(m / s) and j["summary"]["recall"] == pytest.approx(m / g)
    assert j["summary"]["macro_f1"] == pytest.approx(np.mean([2 * r[0] / (r[1] + r[2]) for r in counts["a"]]))
    assert j["overall"]["matched"] == m and j["overall"]["gold"] == g and j["overall"]["system"] == s
    # the subscores are the sums of the pairs' subscores
    for key in ("coref", "reentrancy"):
        for c in ("matched", "gold", "system"):
            assert j[key][c] == sum(p[key][c] for p in j["per_pair"])
    for part in ("named_entity", "bridging", "other"):
        assert j["coref_parts"][part]["gold"] == sum(p["coref_parts"][part]["gold"] for p in j["per_pair"])
    assert "pairs" not in j and "certified" not in j  # moved into summary


def test_bootstrap_matches_a_naive_loop(corpus, counts):
    samples, seed = 300, 7
    j = _json(corpus["gold"], corpus["a"], "--bootstrap", samples, "--stats-seed", seed)
    idx = np.random.default_rng(seed).integers(0, 5, size=(samples, 5))
    f1s = [_f1(counts["a"][row]) for row in idx]
    lo, hi = np.percentile(f1s, [2.5, 97.5])
    assert j["ci"]["f1"] == pytest.approx([lo, hi], abs=1e-12)
    assert j["ci_samples"] == samples and j["ci_seed"] == seed


def test_against_matches_a_naive_paired_loop(corpus, counts):
    samples, seed = 200, 3
    j = _json(corpus["gold"], corpus["a"], "--against", corpus["b"], "--bootstrap", samples,
              "--stats-seed", seed)
    a, b = counts["a"], counts["b"]
    diff = _f1(a) - _f1(b)
    t = j["against"]["tests"]["f1"]
    assert diff != 0 and t["difference"] == pytest.approx(diff, abs=1e-12)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, 5, size=(samples, 5))
    boot = np.array([_f1(a[row]) - _f1(b[row]) for row in idx])
    assert t["ci"] == pytest.approx(list(np.percentile(boot, [2.5, 97.5])), abs=1e-12)
    other = (boot <= 0).sum() if diff > 0 else (boot >= 0).sum()
    assert t["p_bootstrap"] == pytest.approx(min(1.0, 2 * other / samples))
    swaps = rng.integers(0, 2, size=(samples, 5)) == 0
    hits = 0
    for sw in swaps:
        xa = np.where(sw[:, None], b, a)
        xb = np.where(sw[:, None], a, b)
        hits += abs(_f1(xa) - _f1(xb)) >= abs(diff) - 1e-12
    assert t["p_randomization"] == pytest.approx((hits + 1) / (samples + 1))
    assert j["against"]["summary"]["f1"] == pytest.approx(_f1(b))


def test_against_text_lines(corpus):
    r = run_mrkit("docsmatch", str(corpus["gold"]), str(corpus["a"]), "--against", str(corpus["b"]),
                  "--bootstrap", "50", timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Smatch: P ") and any(ln.startswith("Certified optimal: 5/5") for ln in lines)
    assert any(ln.startswith("95% CI f1: [") for ln in lines)
    assert any(ln.startswith(f"Against {corpus['b']} (50 samples, seed 0):") for ln in lines)


def test_workers_do_not_change_the_report(corpus):
    outs = [run_mrkit("docsmatch", str(corpus["gold"]), str(corpus["a"]), "--json", "--per-pair", *opt,
                      timeout=300) for opt in (["-j", "1"], ["-j", "2"], ["--executor", "processes", "-j", "2"])]
    assert all(o.returncode == 0 for o in outs), [o.stderr for o in outs]
    assert outs[0].stdout == outs[1].stdout == outs[2].stdout


@pytest.mark.parametrize("fmt", ["tsv", "csv"])
def test_per_pair_rows(corpus, counts, fmt, tmp_path):
    out = tmp_path / f"rows.{fmt}"
    r = run_mrkit("docsmatch", str(corpus["gold"]), str(corpus["a"]), "--per-pair", "--format", fmt,
                  "-o", str(out), timeout=300)
    assert r.returncode == 0 and r.stdout == "", r.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text()), delimiter="\t" if fmt == "tsv" else ","))
    assert [int(x["pair"]) for x in rows] == [1, 2, 3, 4, 5]
    for row, (m, g, s) in zip(rows, counts["a"]):
        assert (float(row["matched"]), int(row["gold"]), int(row["system"])) == (m, g, s)
        assert float(row["f1"]) == pytest.approx(2 * m / (g + s))
        assert row["certified"] == "true" and "coref_f1" in row


def test_stdin_and_input_format(corpus):
    want = _json(corpus["gold"], corpus["a"])
    r = run_mrkit("docsmatch", str(corpus["gold"]), "-", "--json", "--format", "penman",
                  input=corpus["a"].read_text(), timeout=300)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["system"] == "-" and {k: v for k, v in got.items() if k != "system"} == \
        {k: v for k, v in want.items() if k != "system"}


@pytest.mark.parametrize("args,needle", [
    (["--format", "mrp"], "unknown format 'mrp'"),
    (["--bootstrap", "-1"], "--bootstrap"),
    (["--against", "MISSING"], "missing.amr: cannot read"),
])
def test_bad_options_are_one_line(corpus, args, needle):
    args = [a.replace("MISSING", str(corpus["gold"].parent / "missing.amr")) for a in args]
    r = run_mrkit("docsmatch", str(corpus["gold"]), str(corpus["a"]), *args, timeout=300)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def test_both_stdin_is_an_error(corpus):
    r = run_mrkit("docsmatch", "-", "-", input="", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "standard input" in r.stderr


def test_numbers_of_the_ibm_outputs():
    """The numbers mrkit printed before the pipeline (main at 8887450) for each IBM
    representation against docAMR: summary.f1 is the overall score."""
    d = shared_path("docamr", "ibm-docamr-outputs-lpp")
    want = {"merge-names": ((374, 401, 433), (34, 68, 51), (89, 116, 132)),
            "no-merge": ((372, 401, 449), (30, 68, 49), None),
            "merge-all": ((315, 401, 353), (26, 68, 64), None),
            "nocoref": ((348, 401, 399), (0, 68, 0), None)}
    for rep, (overall, coref, reent) in want.items():
        j = _json(d / LPP.format("docAMR"), d / LPP.format(rep))
        assert (j["overall"]["matched"], j["overall"]["gold"], j["overall"]["system"]) == overall
        assert j["summary"]["f1"] == pytest.approx(2 * overall[0] / (overall[1] + overall[2]))
        assert (j["coref"]["matched"], j["coref"]["gold"], j["coref"]["system"]) == coref
        if reent is not None:
            assert (j["reentrancy"]["matched"], j["reentrancy"]["gold"], j["reentrancy"]["system"]) == reent


def test_against_one_representation_vs_another():
    """merge-names against no-merge, both scored against docAMR (one document pair): the
    difference of the two overall F1 (counts as main at 8887450 printed them); with one
    pair every resample is the corpus itself."""
    d = shared_path("docamr", "ibm-docamr-outputs-lpp")
    j = _json(d / LPP.format("docAMR"), d / LPP.format("merge-names"), "--against", d / LPP.format("no-merge"))
    want = 2 * 374 / (401 + 433) - 2 * 372 / (401 + 449)
    t = j["against"]["tests"]["f1"]
    assert t["difference"] == pytest.approx(want, abs=1e-12)
    assert t["ci"] == pytest.approx([want, want], abs=1e-12) and t["p_bootstrap"] == 0.0
    assert j["against"]["summary"]["f1"] == pytest.approx(2 * 372 / (401 + 449))
