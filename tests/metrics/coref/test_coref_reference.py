"""Every key/response pair of the reference scorer's and coval's test suites gives the
CoNLL-2012 reference scorer's counts (v8.01; LEA from its LEA branch) on every metric."""

from __future__ import annotations

import json

import pytest

from conftest import SHARED, shared_path
from mrkit.metrics.coref import read_conll, score_documents

DIFF = SHARED / "coref" / "reference-scorer-differential" / "coref_differential_generated.json"
PAIRS = sorted(json.loads(DIFF.read_text())["pairs"]) if DIFF.exists() else ["(shared data absent)"]
FOLDERS = {"conll_reference_scorer_tests": "reference-scorer-tests", "coval_tests": "coval-tests"}


def _path(rel: str):
    top, rest = rel.split("/", 1)
    return shared_path("coref", FOLDERS[top], rest)


def _counts(c, metric):
    if metric == "blanc":
        out = {k: getattr(c.coref, k) for k in ("r_num", "r_den", "p_num", "p_den")}
        out.update({"nc_" + k: getattr(c.noncoref, k) for k in ("r_num", "r_den", "p_num", "p_den")})
        return out
    return {k: getattr(c, k) for k in ("r_num", "r_den", "p_num", "p_den")}


def test_all_113_pairs_are_listed():
    shared_path("coref", "reference-scorer-differential")
    assert len(PAIRS) == 113


@pytest.mark.parametrize("name", PAIRS)
def test_pair_gives_reference_counts(name):
    case = json.loads(shared_path("coref", "reference-scorer-differential",
                                  "coref_differential_generated.json").read_text())["pairs"][name]
    result = score_documents(read_conll(_path(case["key"])), read_conll(_path(case["response"])))
    expected = dict(case["perl_v8.01_counts"])
    expected.update(case["perl_v9.0.0-alpha_LEA-scorer_counts"])
    assert set(expected) == {"muc", "bcub", "ceafm", "ceafe", "blanc", "lea"}
    for metric, counts in expected.items():
        got = _counts(result.counts(metric), metric)
        for k, v in counts.items():
            assert got[k] == pytest.approx(v, abs=1e-9), (metric, k)


def _expected_cases(*parts):
    path = SHARED.joinpath("coref", *parts)
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"shared data not available: {path}"))]
    return [pytest.param(c, id=c.get("id") or c.get("test")) for c in json.loads(path.read_text())["cases"]]


@pytest.mark.parametrize("case", _expected_cases("reference-scorer-tests", "expected.json")
                         + _expected_cases("reference-scorer-tests", "expected_lea_branch_v9alpha.json"))
def test_reference_scorer_published_values(case):
    folder = shared_path("coref", "reference-scorer-tests")
    result = score_documents(read_conll(folder / case["key_file"]), read_conll(folder / case["response_file"]))
    for metric, exp in case["expected"].items():
        r, p, f = result.prf(metric)
        assert (r, p, f) == pytest.approx((exp["recall"], exp["precision"], exp["f1"]), abs=1e-4), metric


@pytest.mark.parametrize("case", _expected_cases("coval-tests", "expected_unittests.json"))
def test_coval_unit_test_values(case):
    folder = shared_path("coref", "coval-tests")
    result = score_documents(read_conll(folder / case["key_file"]), read_conll(folder / case["response_file"]))
    for metric, exp in case["expected"].items():
        r, p, f = result.prf(metric)
        tol = exp["abs_tol"] or 1e-6
        assert (r, p, f) == pytest.approx((exp["recall"], exp["precision"], exp["f1"]), abs=tol), metric


def test_ceafm_never_exceeds_one_where_coval_does():
    """coval's CEAFm divides by entity counts (A2: P = 1.5); the reference divides by mentions."""
    folder = shared_path("coref", "reference-scorer-tests")
    result = score_documents(read_conll(folder / "TC-A.key"), read_conll(folder / "TC-A-2.response"))
    c = result.counts("ceafm")
    assert (c.r_num, c.r_den, c.p_num, c.p_den) == (3, 6, 3, 3)
    assert (c.recall, c.precision) == (0.5, 1.0)


def test_repeated_mentions_keep_first_occurrence_a8():
    """A8: mention b is written in entities 1 and 3 of the response; the first is kept."""
    folder = shared_path("coref", "reference-scorer-tests")
    result = score_documents(read_conll(folder / "TC-A.key"), read_conll(folder / "TC-A-8.response"))
    # de-duplicated response {a} {bcx} {dy} {z}: B3 recall 5/9, precision 17/42 (TestCases.README)
    assert result.prf("bcub")[:2] == pytest.approx((5 / 9, 17 / 42))
    assert result.prf("ceafm")[:2] == pytest.approx((4 / 6, 4 / 7))
