"""mrkit.pipeline.coref: reading through the registry, scoring through an executor, and the
corpus results of coref and hierarchy, checked against direct computations."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from conftest import shared_path
from mrkit.errors import InputError
from mrkit.metrics.coref.metrics import f_measure
from mrkit.pipeline.coref import (CONLL_COLUMNS, coref_corpus, read_documents, score_coref, score_documents_rows,
                                  score_hierarchy)
from mrkit.runtime.executor import ProcessExecutor, SerialExecutor

CASES = {"A": "TC-A-1", "B": "TC-B-1", "C": "TC-C-1", "D": "TC-D-1", "E": "TC-E-1", "F": "TC-F-1",
         "G": "TC-G-1", "H": "TC-H-1", "I": "TC-I-1", "J": "TC-J-1", "K": "TC-K-1", "L": "TC-L-1",
         "M": "TC-M-1", "N": "TC-N-1"}
OTHER = {"A": "TC-A-5", "M": "TC-M-2", "N": "TC-N-3"}


def _renamed(path, name: str) -> str:
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("#begin document"):
            line = f"#begin document {name}"
        out.append(line)
    return "\n".join(out) + "\n"


def corpus(tmp_path, responses: dict[str, str] = CASES, tag: str = "r") -> tuple[str, str]:
    """One multi-document key and response from the coval test cases (ids: the case letter)."""
    folder = shared_path("coref", "coval-tests")
    key = "".join(_renamed(folder / f"TC-{c}.key", c) for c in CASES)
    resp = "".join(_renamed(folder / (f"{responses[c]}.response" if c in responses else f"TC-{c}.key"), c)
                   for c in CASES)
    (tmp_path / "key.conll").write_text(key)
    (tmp_path / f"{tag}.conll").write_text(resp)
    return str(tmp_path / "key.conll"), str(tmp_path / f"{tag}.conll")


def _prf(counts) -> float:
    """CoNLL-F1 by hand from (r_num, r_den, p_num, p_den) of MUC, B3, CEAFe."""
    fs = []
    for i in range(3):
        rn, rd, pn, pd = counts[4 * i:4 * i + 4]
        r = rn / rd if rd else 0.0
        p = pn / pd if pd else 0.0
        fs.append(f_measure(r, p))
    return sum(fs) / 3


def test_rows_are_the_conll_counts_and_f1_is_conll_f1(tmp_path):
    key, resp = corpus(tmp_path)
    coref, result = score_coref(key, resp)
    assert result.pairs == len(CASES) and result.ids == list(CASES)
    for d, row in zip(coref.documents, result.table):
        expect = [x for m in ("muc", "bcub", "ceafe") for x in
                  (d.counts[m].r_num, d.counts[m].r_den, d.counts[m].p_num, d.counts[m].p_den)]
        assert list(row) == expect
    assert result.f1 == pytest.approx(coref.conll_f1, abs=1e-12)
    summed = result.table.sum(axis=0)
    assert result.f1 == pytest.approx(_prf(summed), abs=1e-12)
    s = result.summary()
    assert "precision" not in s and "recall" not in s
    assert s["macro_f1"] == pytest.approx(np.mean([_prf(r) for r in result.table]), abs=1e-12)


def test_macro_is_the_mean_of_the_documents_conll_f1(tmp_path):
    key, resp = corpus(tmp_path)
    coref, result = score_coref(key, resp, average="macro")
    assert result.f1 == pytest.approx(coref.conll_f1, abs=1e-12)
    assert result.f1 == pytest.approx(np.mean([_prf(r) for r in result.table]), abs=1e-12)


def test_metric_subset_still_gives_conll_rows(tmp_path):
    key, resp = corpus(tmp_path)
    full, res_full = score_coref(key, resp)
    sub, res_sub = score_coref(key, resp, metrics=["mentions", "lea"])
    assert sub.metrics == ("mentions", "lea") and set(sub.documents[0].counts) == {"mentions", "lea"}
    assert np.array_equal(res_full.table, res_sub.table)


def test_processes_give_the_same_result_as_serial(tmp_path):
    key, resp = corpus(tmp_path)
    a = score_coref(key, resp, SerialExecutor(), keep_records=True)[1]
    with ProcessExecutor(2) as ex:
        b = score_coref(key, resp, ex, keep_records=True)[1]
    assert np.array_equal(a.table, b.table) and a.records == b.records and a.to_dict() == b.to_dict()


def test_bootstrap_against_a_naive_loop(tmp_path):
    key, resp = corpus(tmp_path)
    _, result = score_coref(key, resp)
    rows = [list(r) for r in result.table]
    n, samples, seed = len(rows), 200, 7
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(samples):
        idx = rng.integers(0, n, size=n)
        values.append(_prf([sum(rows[i][j] for i in idx) for j in range(12)]))
    expect = (np.percentile(values, 2.5), np.percentile(values, 97.5))
    got = result.bootstrap(samples, seed, 0.95)["f1"]
    assert got == pytest.approx(expect, abs=1e-12)


def test_against_a_naive_paired_loop(tmp_path):
    key, resp = corpus(tmp_path)
    _, resp_b = corpus(tmp_path, OTHER, tag="b")
    _, a = score_coref(key, resp)
    _, b = score_coref(key, resp_b)
    ra, rb = [list(r) for r in a.table], [list(r) for r in b.table]
    n, samples, seed = len(ra), 300, 3

    def f(rows, idx):
        return _prf([sum(rows[i][j] for i in idx) for j in range(12)])

    diff = f(ra, range(n)) - f(rb, range(n))
    rng = np.random.default_rng(seed)
    boot = []
    for _ in range(samples):
        idx = rng.integers(0, n, size=n)
        boot.append(f(ra, idx) - f(rb, idx))
    hits = 0
    for _ in range(samples):
        swap = rng.integers(0, 2, size=n) == 0
        xa = [rb[i] if swap[i] else ra[i] for i in range(n)]
        xb = [ra[i] if swap[i] else rb[i] for i in range(n)]
        hits += abs(f(xa, range(n)) - f(xb, range(n))) >= abs(diff) - 1e-12
    other = sum(v <= 0 for v in boot) if diff > 0 else sum(v >= 0 for v in boot)
    t = a.compare(b, samples, seed, 0.95)["f1"]
    assert diff != 0
    assert t["difference"] == pytest.approx(diff, abs=1e-12)
    assert t["ci"] == pytest.approx((np.percentile(boot, 2.5), np.percentile(boot, 97.5)), abs=1e-12)
    assert t["p_bootstrap"] == pytest.approx(min(1.0, 2 * other / samples))
    assert t["p_randomization"] == pytest.approx((hits + 1) / (samples + 1))


def test_formats_from_suffix_content_and_name(tmp_path):
    body = "#begin document (d1);\nt 0 0 a (0\nt 0 1 b 0)\nt 0 2 c (0)\n#end document\n"
    for name in ("k.conll", "k.txt", "k"):
        (tmp_path / name).write_text(body)
        assert [d.id for d in read_documents(tmp_path / name)] == ["(d1);"]
    line = json.dumps({"doc_key": "d1", "clusters": [[[0, 1], [2, 2]]]}) + "\n"
    (tmp_path / "r.data").write_text(line)
    (tmp_path / "r.jsonl").write_text(line)
    for path, fmt in ((tmp_path / "r.data", "auto"), (tmp_path / "r.jsonl", "auto"),
                      (tmp_path / "r.data", "jsonlines"), (tmp_path / "r.data", "jsonl")):
        docs = read_documents(path, fmt)
        assert [d.id for d in docs] == ["d1"] and len(docs[0].clusters) == 1
    with pytest.raises(InputError):  # named conll: read as conll, whatever the content
        read_documents(tmp_path / "r.jsonl", "conll")


def test_scico_topics_read_as_documents():
    folder = shared_path("coref", "scico-handmade")
    docs = read_documents(folder / "gold.jsonl")
    assert [d.id for d in docs] == ["1", "2", "3"]
    assert all(d.clusters for d in docs)


def test_hierarchy_corpus_result():
    folder = shared_path("coref", "scico-handmade")
    warned: list[str] = []
    h, result = score_hierarchy(str(folder / "gold.jsonl"), str(folder / "system.jsonl"), keep_records=True,
                                warn=warned.append)
    assert len(warned) == 1 and "cluster 99" in warned[0]
    c = h._sum("hierarchy")
    assert [list(r) for r in result.table] == [[t.hierarchy.r_num, t.hierarchy.r_den, t.hierarchy.p_num,
                                               t.hierarchy.p_den] for t in h.topics]
    r, p, f = h.prf("hierarchy")
    s = result.summary()
    assert (s["recall"], s["precision"], s["f1"]) == pytest.approx((c.r_num / c.r_den, c.p_num / c.p_den, f))
    assert s["macro_f1"] == pytest.approx(h.macro_f1("hierarchy"))
    assert [str(rec["id"]) for rec in result.records] == ["1", "2", "3"]


def test_empty_key_is_an_error(tmp_path):
    (tmp_path / "empty.conll").write_text("")
    with pytest.raises(InputError, match="nothing to score"):
        score_coref(str(tmp_path / "empty.conll"), str(tmp_path / "empty.conll"))


def test_import_loads_no_engine():
    from test_package import loaded_after

    heavy = ("numpy", "scipy", "highspy", "penman", "mrkit.align", "mrkit.align._kernel")
    assert loaded_after("import mrkit.coref, mrkit.metrics.coref, mrkit.pipeline.coref", heavy) == []


def test_registry_guesses_coreference_formats():
    from mrkit.codecs.registry import COREF_CODECS, guess_coref_format

    docs = ("conll", "jsonl", "scico")
    assert guess_coref_format("a.conll", None, docs) == "conll"
    assert guess_coref_format("a.jsonl", '{"doc_key": 1, "clusters": []}', docs) == "jsonl"
    assert guess_coref_format("a.jsonl", '{"id": 1, "tokens": [], "mentions": []}', docs) == "scico"
    assert guess_coref_format("a.jsonl", "not json", docs) == "jsonl"  # the reader says what is wrong
    assert guess_coref_format("a.txt", "\n#begin document x\n", docs) == "conll"
    assert guess_coref_format("a", '{"clusters": [[[0, 0]]], "doc_key": "d"}', docs) == "jsonl"
    assert guess_coref_format("a", "", docs) is None
    assert guess_coref_format("c.xml", None, ("msamr", "chains")) == "msamr"
    assert guess_coref_format("c", "<document>", ("msamr", "chains")) == "msamr"
    assert set(docs) <= set(COREF_CODECS)
