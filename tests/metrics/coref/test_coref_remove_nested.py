"""``--remove-nested`` against coval's remove_nested on its own test cases (every TC
key/response pair of coval-tests) and on a hand-made document with nested coreferent
mentions (data/nested.key, data/nested.response), singletons kept and removed.  Oracle:
data/coval_remove_nested.json, from the driver in data/coval_remove_nested.README."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import shared_path
from mrkit.model.clusters import remove_nested_mentions, span
from mrkit.pipeline.coref import score_files

DATA = Path(__file__).parent / "data"
# TC-A-8 and TC-A-9 repeat a mention in the response: coval keeps both copies, the
# reference scorer (and mrkit) the first; they differ with or without remove_nested.
REPEATED = ("TC-A-8.response", "TC-A-9.response")


def _cases():
    oracle = json.loads((DATA / "coval_remove_nested.json").read_text())
    return sorted(oracle.items())


@pytest.mark.parametrize("case,expected", _cases(), ids=[k for k, _ in _cases()])
def test_equals_coval(case, expected):
    pair, keep, nested = case.split("|")
    if pair in REPEATED:
        pytest.skip("repeated response mention: coval departs from the reference scorer")
    keep, nested = keep.endswith("True"), nested.endswith("True")
    if pair.startswith("nested"):
        key, resp = DATA / "nested.key", DATA / "nested.response"
    else:
        folder = shared_path("coref", "coval-tests")
        key, resp = folder / (pair.rsplit("-", 1)[0] + ".key"), folder / pair
    r = score_files(key, resp, keep_singletons=keep, remove_nested=nested)
    for m, v in expected.items():
        assert r.prf(m) == pytest.approx(tuple(v), abs=1e-12), m


def test_the_handmade_case_is_changed_by_the_option():
    a = score_files(DATA / "nested.key", DATA / "nested.response", remove_nested=True)
    b = score_files(DATA / "nested.key", DATA / "nested.response")
    assert a.prf("muc") != b.prf("muc")


def test_coval_rules_by_hand():
    s = span
    # (0,0) inside (0,1) and (0,2), (0,1) inside (0,2): removed 3 times from a cluster of 3
    # -> not "one left": the cluster keeps (0,2) only
    assert remove_nested_mentions([[s(0, 0), s(0, 1), s(0, 2)]]) == [[s(0, 2)]]
    # one nested mention in a pair: "one left" -> dropped without singletons, unchanged with
    assert remove_nested_mentions([[s(0, 3), s(1, 2)]], keep_singletons=False) == []
    assert remove_nested_mentions([[s(0, 3), s(1, 2)]], keep_singletons=True) == [[s(0, 3), s(1, 2)]]
    assert remove_nested_mentions([[s(0, 1), s(3, 4)]]) == [[s(0, 1), s(3, 4)]]
