"""Coreference metrics: hand-computed values and invariants (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mrkit.metrics.coref import CorefDocument, score_clusters, score_documents
from mrkit.metrics.coref.metrics import METRICS
from mrkit.model.clusters import dedupe, prepare


def test_hand_computed_example():
    # key {a b c} {d e}, response {a b} {c d e}
    key = [["a", "b", "c"], ["d", "e"]]
    resp = [["a", "b"], ["c", "d", "e"]]
    s = score_clusters(key, resp)
    assert (s["muc"].r_num, s["muc"].r_den, s["muc"].p_den) == (2, 3, 3)
    # B3 recall: a,b 2/3 each, c 1/3, d,e 2/2 -> 11/3 over 5
    assert s["bcub"].r_num == pytest.approx(11 / 3) and s["bcub"].r_den == 5
    # CEAFm: {abc}-{ab} 2 + {de}-{cde} 2 = 4
    assert s["ceafm"].r_num == 4
    # CEAFe: phi4 = 2*2/5 + 2*2/5 = 1.6 over 2 entities
    assert s["ceafe"].r_num == pytest.approx(1.6) and s["ceafe"].r_den == 2
    # LEA recall: {abc}: 3 * (1 link of 3) + {de}: 2 * 1 = 3 over 5
    assert s["lea"].r_num == pytest.approx(3.0) and s["lea"].p_num == pytest.approx(2 * 1 + 3 * (1 / 3))
    # BLANC: C_k {ab ac bc de}, C_r {ab cd ce de}: 2 common; N: 10 - 4 = 6 each, common 4
    b = s["blanc"]
    assert (b.coref.r_num, b.coref.r_den, b.noncoref.r_num, b.noncoref.r_den) == (2, 4, 4, 6)


def test_repeated_mentions_keep_first_or_fail():
    doc = CorefDocument("d", [["a", "b"], ["b", "c"], ["c"]], "f.conll", 1, {"b": 7})
    assert dedupe(doc) == [["a", "b"], ["c"]]
    with pytest.raises(Exception, match="f.conll:7, document d: mention 'b' is repeated"):
        dedupe(doc, "error")


def test_singletons_removed_on_each_side_separately():
    key = CorefDocument("d", [["a", "b"], ["c"]])
    resp = CorefDocument("d", [["a"], ["b", "c"]])
    assert prepare(key, keep_singletons=False) == [["a", "b"]]
    assert prepare(resp, keep_singletons=False) == [["b", "c"]]
    r = score_documents([key], [resp], keep_singletons=False)
    m = r.counts("mentions")
    assert (m.r_num, m.r_den, m.p_den) == (1, 2, 2)


def test_micro_and_macro():
    keys = [CorefDocument("1", [["a", "b"]]), CorefDocument("2", [["a", "b", "c", "d"]])]
    resps = [CorefDocument("1", [["a", "b"]]), CorefDocument("2", [["a", "b"], ["c", "d"]])]
    micro = score_documents(keys, resps)
    macro = score_documents(keys, resps, average="macro")
    # MUC: doc1 1/1, doc2 recall 2/3 precision 2/2 -> micro recall 3/4
    assert micro.prf("muc")[0] == pytest.approx(3 / 4)
    assert macro.prf("muc")[0] == pytest.approx((1 + 2 / 3) / 2)
    assert macro.prf("muc")[2] == pytest.approx((1 + 0.8) / 2)


clusterings = st.lists(st.integers(0, 6), min_size=0, max_size=14)


def _clusters(assignment, offset=0):
    out: dict = {}
    for i, c in enumerate(assignment):
        if c >= 0:
            out.setdefault(c, []).append(i + offset)
    return list(out.values())


@settings(max_examples=150, deadline=None)
@given(clusterings, clusterings, st.integers(0, 4))
def test_swapping_key_and_response_swaps_recall_and_precision(a, b, shift):
    key, resp = _clusters(a), _clusters(b, shift)
    s, t = score_clusters(key, resp), score_clusters(resp, key)
    # BLANC's counts swap too; its special case (the key has one link type) is asymmetric
    sb, tb = s.pop("blanc"), t.pop("blanc")
    for part in ("coref", "noncoref"):
        x, y = getattr(sb, part), getattr(tb, part)
        assert (x.r_num, x.r_den, x.p_num, x.p_den) == (y.p_num, y.p_den, y.r_num, y.r_den)
    assert 0 <= sb.f1 <= 1
    for m in s:
        assert s[m].recall == pytest.approx(t[m].precision), m
        assert s[m].precision == pytest.approx(t[m].recall), m
        assert 0 <= s[m].recall <= 1 + 1e-12 and 0 <= s[m].precision <= 1 + 1e-12, m


@settings(max_examples=150, deadline=None)
@given(clusterings)
def test_identical_clusterings_score_one(a):
    key = _clusters(a)
    s = score_clusters(key, [list(c) for c in key])
    for m in METRICS:
        if s[m].r_den if m != "blanc" else (s[m].coref.r_den or s[m].noncoref.r_den):
            assert s[m].f1 == pytest.approx(1.0), m


@settings(max_examples=100, deadline=None)
@given(clusterings, clusterings)
def test_scores_do_not_depend_on_mention_names_or_order(a, b):
    key, resp = _clusters(a), _clusters(b)
    rename = {i: ("m", 100 - i) for i in range(20)}
    key2 = [[rename[m] for m in reversed(c)] for c in reversed(key)]
    resp2 = [[rename[m] for m in c] for c in resp[::-1]]
    s, t = score_clusters(key, resp), score_clusters(key2, resp2)
    for m in METRICS:
        assert (s[m].recall, s[m].precision) == pytest.approx((t[m].recall, t[m].precision)), m


def test_span_unpacks_and_prints_like_a_tuple():
    from mrkit.metrics.coref import span

    s = span(3, 7)
    assert tuple(s) == (3, 7) and (s.first, s.last) == (3, 7) and repr(s) == "(3, 7)"
    assert span(3, 7) == s and hash(span(3, 7)) == hash(s) and span(3, 8) != s and span(7, 3 + 4) != s
    assert sorted([span(4, 4), span(3, 9), span(3, 5)]) == [span(3, 5), span(3, 9), span(4, 4)]
    for bad in [(-1, 2), (5, 4), (0, 1 << 32)]:
        with pytest.raises(ValueError):
            span(*bad)


def test_column_and_jsonlines_mentions_are_the_same_spans(tmp_path):
    import json

    from mrkit.metrics.coref import read_conll, read_jsonlines

    col = tmp_path / "k.conll"
    col.write_text("#begin document d\nd 0 0 A (1\nd 0 1 B 1)|(2)\nd 0 2 C (1)\n#end document\n")
    js = tmp_path / "r.jsonl"
    js.write_text(json.dumps({"doc_key": "d", "clusters": [[[0, 1], [2, 2]], [[1, 1]]]}) + "\n")
    key, resp = read_conll(col), read_jsonlines(js)
    assert [sorted(map(tuple, c)) for c in key[0].clusters] == [[(0, 1), (2, 2)], [(1, 1)]]
    assert score_documents(key, resp).prf("muc")[2] == 1.0


def test_jsonlines_negative_span_is_an_input_error(tmp_path):
    from mrkit.metrics.coref import read_jsonlines
    from mrkit.errors import InputError

    js = tmp_path / "r.jsonl"
    js.write_text('{"doc_key": "d", "clusters": [[[-1, 0]]]}\n')
    with pytest.raises(InputError, match="r.jsonl:1, document d: span \\[-1, 0\\] is not a token span"):
        read_jsonlines(js)
