"""aggregate/corpus.py: the one result shape (summary, micro/macro, certified share, rows,
to_dict, to_frame, bootstrap/compare) and the Collector, against hand counts."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mrkit.aggregate import corpus as corpus_mod
from mrkit.aggregate.corpus import Collector, CorpusResult
from mrkit.aggregate.resampling import bootstrap, mean_reduce, paired_test, prf_reduce

# (id, matched, gold, system, certified)
PAIRS = [("a", 3, 4, 5, True), ("b", 0, 2, 0, False), ("c", 5, 5, 5, True), ("d", 0, 0, 0, True)]


def smatch_like(keep_records=False) -> CorpusResult:
    c = Collector("smatch", prf_reduce, 3, certified=True, keep_records=keep_records)
    for pid, m, g, s, cert in PAIRS:
        c.add(pid, (m, g, s), cert, {"id": pid, "matched": m, "gold": g, "system": s, "note": f"n{pid}",
                                     "nested": [1, 2]} if keep_records else None)
    return c.result({"flavor": "smatch"})


def test_summary_is_micro_with_macro_and_certified_share_by_hand():
    r = smatch_like()
    s = r.summary()
    # hand counts: matched 8, gold 11, system 10
    assert s["pairs"] == 4
    assert s["precision"] == pytest.approx(8 / 10)
    assert s["recall"] == pytest.approx(8 / 11)
    assert s["f1"] == pytest.approx(16 / 21)
    # pair F1: 6/9, 0 (gold 2, system 0), 1, 1 (empty vs empty)
    assert s["macro_f1"] == pytest.approx((6 / 9 + 0 + 1 + 1) / 4)
    assert s["certified"] == 3 and s["certified_share"] == pytest.approx(0.75)
    assert list(s) == ["pairs", "precision", "recall", "f1", "macro_f1", "certified", "certified_share"]
    assert r.f1 == s["f1"] and r.precision == s["precision"] and r.recall == s["recall"]
    assert r.ids == ["a", "b", "c", "d"]


def test_macro_average_is_the_mean_of_the_pair_statistics():
    c = Collector("wlk", mean_reduce, 2, average="macro")
    for pid, score in (("x", 0.2), ("y", 0.5), ("z", 0.8)):
        c.add(pid, (score, 1.0))
    r = c.result()
    s = r.summary()
    assert s == {"pairs": 3, "f1": pytest.approx(0.5), "macro_f1": pytest.approx(0.5)}
    assert "precision" not in s and "certified" not in s
    assert r.precision is None and r.certified_share is None
    d = r.to_dict()
    assert d["average"] == "macro" and d["metric"] == "wlk"
    # macro bootstrap: the mean of the resampled pair scores, by a naive loop
    idx = np.random.default_rng(3).integers(0, 3, size=(200, 3))
    means = [np.mean([(0.2, 0.5, 0.8)[i] for i in row]) for row in idx]
    want = (np.percentile(means, 2.5), np.percentile(means, 97.5))
    assert r.bootstrap(200, seed=3)["f1"] == pytest.approx(want)


def test_macro_average_of_prf_pairs():
    c = Collector("m", prf_reduce, 3, average="macro")
    c.add("p", (1, 2, 4))   # P 1/4, R 1/2, F 1/3
    c.add("q", (3, 3, 3))   # 1, 1, 1
    s = c.result().summary()
    assert s["precision"] == pytest.approx((0.25 + 1) / 2)
    assert s["recall"] == pytest.approx((0.5 + 1) / 2)
    assert s["f1"] == pytest.approx((1 / 3 + 1) / 2) == s["macro_f1"]


def test_empty_corpus():
    r = Collector("smatch", prf_reduce, 3, certified=True).result()
    s = r.summary()
    assert s["pairs"] == 0 and s["f1"] == 1.0  # nothing against nothing, prf's convention
    assert math.isnan(s["macro_f1"])
    assert s["certified"] == 0 and s["certified_share"] == 1.0
    assert r.rows() == [] and r.bootstrap(100) == {}


def test_bootstrap_and_compare_use_the_one_resampling_module():
    r = smatch_like()
    table = np.array([[m, g, s] for _, m, g, s, _ in PAIRS], dtype=float)
    assert r.bootstrap(300, seed=7, level=0.9) == bootstrap(table, prf_reduce, 300, 7, 0.9)
    c = Collector("smatch", prf_reduce, 3)
    for pid, m, g, s, _ in PAIRS:
        c.add(pid, (max(m - 1, 0), g, s))
    other = c.result()
    other_table = np.array([[max(m - 1, 0), g, s] for _, m, g, s, _ in PAIRS], dtype=float)
    assert r.compare(other, 250, seed=2) == paired_test(table, other_table, prf_reduce, 250, 2)
    assert r.compare(other, 250, seed=2)["f1"]["difference"] == pytest.approx(16 / 21 - 2 * 6 / 21)


def test_compare_refuses_different_pairs():
    r = smatch_like()
    c = Collector("smatch", prf_reduce, 3)
    for pid in ("a", "b", "x", "d"):
        c.add(pid, (1, 1, 1))
    with pytest.raises(ValueError, match="pair 3 is 'c' for one system and 'x' for the other"):
        r.compare(c.result(), 10)
    c2 = Collector("smatch", prf_reduce, 3)
    c2.add("a", (1, 1, 1))
    with pytest.raises(ValueError, match="4 and 1 pairs"):
        r.compare(c2.result(), 10)


def test_rows_without_records():
    rows = smatch_like().rows()
    assert [r["pair"] for r in rows] == [1, 2, 3, 4]
    assert rows[0] == {"pair": 1, "id": "a", "precision": pytest.approx(0.6), "recall": pytest.approx(0.75),
                       "f1": pytest.approx(6 / 9), "certified": True}
    assert rows[1]["certified"] is False and rows[1]["f1"] == 0.0
    assert rows[3]["f1"] == 1.0
    assert all(type(v) in (int, float, bool, str) for row in rows for v in row.values())


def test_rows_with_records_keep_scalar_fields_and_drop_nested_ones():
    rows = smatch_like(keep_records=True).rows()
    assert rows[0]["matched"] == 3 and rows[0]["note"] == "na" and "nested" not in rows[0]
    assert rows[0]["f1"] == pytest.approx(6 / 9)
    # numpy scalars in records become plain numbers
    c = Collector("x", prf_reduce, 3, keep_records=True)
    c.add("p", (1, 2, 2), record={"id": "p", "n": np.int64(5), "w": np.float32(0.5)})
    row = c.result().rows()[0]
    assert type(row["n"]) is int and type(row["w"]) is float


def test_to_dict_shape_and_json():
    r = smatch_like(keep_records=True)
    d = r.to_dict()
    assert list(d) == ["metric", "summary", "flavor"]
    assert d["metric"] == "smatch" and d["summary"] == r.summary() and d["flavor"] == "smatch"
    assert "per_pair" not in d and "average" not in d
    d = r.to_dict(per_pair=True)
    assert d["per_pair"] == r.records and d["per_pair"][0]["note"] == "na"
    json.dumps(d)  # plain types all the way down
    # without records, per_pair is the flat rows
    assert smatch_like().to_dict(per_pair=True)["per_pair"] == smatch_like().rows()


def test_to_frame():
    pd = pytest.importorskip("pandas")
    frame = smatch_like().to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["id"]) == ["a", "b", "c", "d"] and len(frame) == 4


def test_to_frame_without_pandas_says_so(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_pandas(name, *a, **k):
        if name == "pandas":
            raise ImportError("no pandas")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="pip install pandas"):
        smatch_like().to_frame()


# ------------------------------------------------------------------ Collector

def test_collector_flushes_in_blocks_and_keeps_order(monkeypatch):
    monkeypatch.setattr(Collector, "BLOCK", 4096)
    rng = np.random.default_rng(0)
    rows = rng.integers(0, 9, size=(10_000, 3)).astype(float)
    c = Collector("smatch", prf_reduce, 3, certified=True)
    for i, row in enumerate(rows):
        c.add(f"p{i}", tuple(row), i % 3 == 0)
    assert len(c) == 10_000
    # flushed into blocks of 4096 rows, never a list of 10,000 tuples
    assert [len(b) for b in c._rows] == [4096, 4096] and len(c._pending) == 10_000 - 8192
    r = c.result()
    assert np.array_equal(r.table, rows)
    assert r.ids[:2] == ["p0", "p1"] and r.ids[-1] == "p9999"
    assert r.n_certified == len(range(0, 10_000, 3))
    assert r.records is None  # not kept unless asked
    s = rows.sum(axis=0)
    assert r.f1 == pytest.approx(2 * s[0] / (s[1] + s[2]))


def test_collector_extend_and_result_twice():
    c = Collector("smatch", prf_reduce, 3, keep_records=True)
    c.extend([("a", (1, 2, 2), None, {"id": "a", "x": 1}), ("b", (2, 2, 2))])
    r1 = c.result()
    assert r1.records == [{"id": "a", "x": 1}, {"id": "b"}]
    c.add("c", (0, 1, 1))
    r2 = c.result()
    assert r2.pairs == 3 and r1.pairs == 2


def test_collector_refuses_a_row_of_the_wrong_width():
    c = Collector("smatch", prf_reduce, 3)
    with pytest.raises(ValueError, match="a row of 2 statistics, expected 3"):
        c.add("a", (1, 2))


def test_detail_is_copied_beside_the_summary():
    detail = {"tuples": {"f1": 0.5}}
    c = Collector("mrp", prf_reduce, 3)
    c.add("g", (1, 2, 2))
    r = c.result(detail)
    detail["late"] = 1
    assert "late" not in r.to_dict()
    assert corpus_mod.MEASURES == ("precision", "recall", "f1")


# ------------------------------------------------------------------ small tables in plain Python

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=600))
def test_pairwise_sum_has_the_bits_of_numpy(values):
    """The plain-Python mean of a small table is numpy's: the same pairwise summation."""
    assert corpus_mod.pairwise_sum(values) == float(np.sum(np.asarray(values, dtype=np.float64)))
    if values:
        assert corpus_mod.pairwise_sum(values) / len(values) == float(np.mean(np.asarray(values)))


def _summary_through_numpy(rows, certified, reduce):
    table = np.asarray(rows, dtype=np.float64).reshape(-1, 3)
    return CorpusResult("m", table, reduce, [str(i) for i in range(len(rows))],
                        np.asarray(certified, dtype=bool)).summary()


counts = st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)).map(
    lambda t: (min(t[0], t[1], t[2]), t[1], t[2]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(st.tuples(counts, st.booleans()), max_size=300))
def test_a_small_table_summarises_without_numpy_to_the_same_bits(items, monkeypatch):
    """A Collector that never filled a block keeps Python rows (RowTable); with integer
    counts and prf_reduce its summary is plain Python, equal bit for bit to the numpy way."""
    monkeypatch.setattr(corpus_mod, "numpy_loaded", lambda: False)  # as in a process without numpy
    c = Collector("m", prf_reduce, 3, certified=True)
    for i, (row, cert) in enumerate(items):
        c.add(str(i), row, cert)
    r = c.result()
    assert isinstance(r._raw("table"), corpus_mod.RowTable) and r._plain() is not None
    got = r.summary()
    assert isinstance(r._raw("table"), corpus_mod.RowTable)  # the summary did not need numpy
    want = _summary_through_numpy([row for row, _ in items], [cert for _, cert in items], prf_reduce)
    assert got.keys() == want.keys()
    for k in got:
        assert got[k] == want[k] or (math.isnan(got[k]) and math.isnan(want[k])), k
    assert r.column_sums() == tuple(float(x) for x in np.asarray(r.table).sum(axis=0))
    # the public attributes are numpy arrays, as for a large corpus
    assert isinstance(r.table, np.ndarray) and r.table.shape == (len(items), 3)
    assert isinstance(r.certified, np.ndarray) and r.certified.dtype == bool


def test_a_small_table_of_fractions_takes_the_numpy_way():
    c = Collector("m", prf_reduce, 3)
    c.add("a", (0.5, 2, 1))
    c.add("b", (1.25, 3, 2))
    r = c.result()
    assert r._plain() is None
    assert r.f1 == pytest.approx(2 * 1.75 / 8)
    assert r.table.shape == (2, 3) and r.table[1, 0] == 1.25 and np.asarray(r.table).dtype == np.float64


def test_a_large_table_is_a_numpy_array(monkeypatch):
    monkeypatch.setattr(Collector, "BLOCK", 4096)
    c = Collector("m", prf_reduce, 3, certified=True)
    for i in range(5000):
        c.add(str(i), (1, 2, 2), True)
    r = c.result()
    assert isinstance(r.table, np.ndarray) and r.summary()["f1"] == 0.5 and r.certified_share == 1.0
