"""coval's NP-only and minimum-span evaluation (data/coval_parse_options.README): coval's
values on hand-made CoNLL-2012 files with parse bits; coval's mention trees and minimum
spans worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_mrkit
from mrkit.cli import main
from mrkit.codecs.conll import read_conll
from mrkit.metrics.coref.mina import MinSpan, ParseTrees, apply_parse_options, mention_tree, min_span
from mrkit.model.clusters import pair_documents, span
from mrkit.pipeline.coref import score_pairs

DATA = Path(__file__).parent / "data"
ORACLE = json.loads((DATA / "coval_parse_options.json").read_text())
CASES = sorted(k for k in ORACLE if k.startswith("parsed.response"))


def _options(name):
    opts = dict(p.split("=") for p in name.split("|")[1:])
    return dict(keep_singletons=opts["keep_singletons"] == "True", np_only=opts["NP_only"] == "True",
                min_span=opts["min_span"] == "True")


def _score(response, **options):
    keys = read_conll(DATA / "parsed.key", tokens=True)
    return score_pairs(pair_documents(keys, read_conll(DATA / response)), **options)[0]


@pytest.mark.parametrize("name", CASES)
def test_equals_coval(name):
    result = _score("parsed.response", **_options(name))
    for metric, expected in ORACLE[name].items():
        assert result.prf(metric) == pytest.approx(expected, abs=1e-12), metric


@pytest.mark.parametrize("name", sorted(k for k in ORACLE if k.startswith("parsed_collision")))
def test_min_span_collision(name):
    """Two response mentions with one minimum span: mention identification as coval; the
    other metrics differ only where coval keeps both (min span, singletons kept; README)."""
    options = _options(name)
    result = _score("parsed_collision.response", **options)
    for metric, expected in ORACLE[name].items():
        if metric == "mentions" or not (options["min_span"] and options["keep_singletons"]):
            assert result.prf(metric) == pytest.approx(expected, abs=1e-12), metric


def _rows(*items):
    return [tuple(i.split("/")) for i in items]


def test_mention_tree_by_hand():
    # "The big dog of my neighbour": (TOP(S(NP(NP* * *) (PP* (NP* *))) -- the mention's lines only
    tree = mention_tree(_rows("The/DT/(TOP(S(NP(NP*", "big/JJ/*", "dog/NN/*)", "of/IN/(PP*", "my/PRP$/(NP*",
                              "neighbour/NN/*)))"), 0)
    assert tree.tag == "TOP"
    np = tree.children[0].children[0]
    assert [c.tag for c in np.children] == ["NP", "PP"]
    assert np.children[0].children[0].tag == "The big dog" and np.children[0].children[0].index == 2
    # MINA: no valid tag at the top two levels -> first NP met, shallowest content terminal
    assert min_span(tree, []) == {("The big dog", 2)}


def test_min_span_of_a_conjunction_and_fallback():
    tree = mention_tree(_rows("the/DT/(NP(NP*", "shop/NN/*)", "and/CC/*", "the/DT/(NP*", "town/NN/*))"), 8)
    # "and" (CC) is no minimum span; each top-level NP has its own
    assert min_span(tree, []) == {("the shop", 9), ("the town", 12)}
    # only punctuation: the whole mention, positions from 0 (coval's fallback)
    assert min_span(mention_tree(_rows(",/,/(NP*)"), 3), [","]) == {(",", 0)}


def test_np_only_drops_vps_and_small_clusters():
    doc = read_conll(DATA / "parsed.key", tokens=True)[0]
    trees = ParseTrees(doc)
    # the VP "chased him because he barked" (12-16) and "That" (32): one left -> dropped
    out = apply_parse_options([[span(12, 16), span(32, 32)], [span(0, 5), span(15, 15)]], trees, np_only=True)
    assert out == [[span(0, 5), span(15, 15)]]
    both = apply_parse_options([[span(0, 5)]], trees, min_spans=True)
    assert both == [[MinSpan(0, frozenset({("The big dog", 2)}))]]


def test_cli_np_only_min_span(capsys):
    key, resp = str(DATA / "parsed.key"), str(DATA / "parsed.response")
    assert main(["coref", key, resp, "--min-span", "--np-only", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = ORACLE["parsed.response|NP_only=True|min_span=True|keep_singletons=True"]
    assert out["scores"]["muc"]["f1"] == pytest.approx(expected["muc"][2])
    assert out["options"]["np_only"] and out["options"]["min_span"]


@pytest.mark.parametrize("extra, message", [
    (["--min-span", "--remove-nested"], "not supported"),
    (["--min-span", "--partial-heads"], "choose one"),
])
def test_cli_option_conflicts(extra, message):
    r = run_mrkit("coref", str(DATA / "parsed.key"), str(DATA / "parsed.response"), *extra)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_a_file_without_parse_column_is_one_line_error(tmp_path):
    key = tmp_path / "k.conll"
    key.write_text("#begin document d\nt 0 0 a (0)\n#end document\n")
    out = tmp_path / "o.json"
    r = run_mrkit("coref", str(key), str(key), "--np-only", "-o", str(out))
    assert r.returncode == 2 and "no parse column 5" in r.stderr and "k.conll:2" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not out.exists()


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_bits = st.text(alphabet="()*NPVS,-", min_size=1, max_size=8)
_words = st.sampled_from(["the", "dog", ",", "3", "%", "-LRB-", "U.S."])
_pos = st.sampled_from(["DT", "NN", "CC", "IN", ",", "CD"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_words, _pos, _bits), min_size=1, max_size=6), st.integers(0, 5))
def test_any_parse_bits_give_a_tree_or_none_and_a_min_span(rows, start):
    """Malformed parse bits (unbalanced, no '*') never raise: coval's reader is lenient,
    and so is mrkit's (the minimum span then falls back to the whole mention)."""
    tree = mention_tree(rows, start)
    found = min_span(tree, [w for w, _, _ in rows])
    assert tree is None and found is None or found
