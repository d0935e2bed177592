"""Collector.add_many: the same table, ids, certificates and records as add() pair by pair,
across block boundaries."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.aggregate.corpus import Collector
from mrkit.aggregate.resampling import prf_reduce

ROW = st.tuples(st.integers(0, 50), st.integers(0, 60), st.integers(0, 60))


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(ROW, max_size=40), cut=st.lists(st.integers(1, 9), min_size=1, max_size=8),
       block=st.sampled_from([4, 7, 1 << 16]), records=st.booleans())
def test_add_many_is_add_pair_by_pair(rows, cut, block, records):
    one = Collector("smatch", prf_reduce, 3, certified=True, keep_records=records)
    many = Collector("smatch", prf_reduce, 3, certified=True, keep_records=records)
    one.BLOCK = many.BLOCK = block
    ids = [f"p{k}" for k in range(len(rows))]
    certs = [k % 3 != 0 for k in range(len(rows))]
    recs = [{"id": i, "k": k} if k % 2 else None for k, i in enumerate(ids)]
    for i, r, c, rec in zip(ids, rows, certs, recs):
        one.add(i, r, c, rec if records else None)
    at, k = 0, 0
    while at < len(rows):
        n = cut[k % len(cut)]
        many.add_many(ids[at:at + n], rows[at:at + n], bytes(certs[at:at + n]),
                      recs[at:at + n] if records else None)
        at, k = at + n, k + 1
    a, b = one.result(), many.result()
    assert a.ids == b.ids and a.records == b.records
    assert [tuple(r) for r in a.table.tolist()] == [tuple(r) for r in b.table.tolist()]
    assert a.certified.tolist() == b.certified.tolist()
    assert type(a._raw("table")) is type(b._raw("table")) and len(one._rows) == len(many._rows)
