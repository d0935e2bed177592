"""The relabellings and triple subsets of the subscores (features/subscores.py), by hand."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from mrkit.codecs.penman import loads
from mrkit.features import subscores as fs
from mrkit.features.triples import triples

G1 = loads("""(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)""")[0]


def test_unlabeled_renames_every_role_and_keeps_written_direction():
    t = fs.unlabeled(loads("(a / alpha :ARG0-of (b / beta) :polarity -)")[0])
    assert sorted(t.as_strings()) == sorted([
        ("a", "instance", "alpha"), ("b", "instance", "beta"),
        ("a", "label", "b"),  # written a :ARG0-of b: not inverted
        ("a", "label", "-"), ("TOP", "a", "top")])


def test_unlabeled_counts_a_repeated_triple_once():
    t = fs.unlabeled(loads('(d / date-entity :day 5 :month 5)')[0])
    assert len(t) == 3  # instance, (d label 5) once, top


def test_strip_sense():
    assert fs.strip_sense("go-02") == "go-01"
    assert fs.strip_sense("have-org-role-91") == "have-org-role-01"
    assert fs.strip_sense("boy") == "boy"
    assert fs.strip_sense("date-entity") == "date-entity"


def test_no_wsd_only_concepts():
    t = fs.no_wsd(triples(G1))
    assert ("g", "instance", "go-01") in t.as_strings()
    assert ("w", "polarity", "-") in t.as_strings()


def test_reentrancies_subset_by_hand():
    t = fs.reentrancies(triples(G1))
    # b has two incoming relations: both, the instances of w, b, g, one top on w
    assert sorted(t.as_strings()) == sorted([
        ("w", "arg0", "b"), ("g", "arg0", "b"),
        ("w", "instance", "want-01"), ("b", "instance", "boy"), ("g", "instance", "go-02"),
        ("TOP", "w", "top")])


def test_reentrancy_through_an_inverted_role():
    g = loads("(a / a1 :ARG0 (b / b1) :ARG1-of (c / c1 :ARG2 b))")[0]
    # (c ARG1 a) is a's only incoming edge; b gets (a ARG0 b) and (c ARG2 b)
    t = fs.reentrancies(triples(g))
    assert sorted(x for x in t.as_strings() if x[1] != "instance") == sorted(
        [("a", "arg0", "b"), ("c", "arg2", "b"), ("TOP", "a", "top")])


def test_no_reentrancy_is_empty():
    assert len(fs.reentrancies(triples(loads("(a / a1 :ARG0 (b / b1))")[0]))) == 0


def test_srl_subset_by_hand():
    t = fs.srl(triples(G1))
    assert sorted(t.as_strings()) == sorted([
        ("w", "arg0", "b"), ("w", "arg1", "g"), ("g", "arg0", "b"),
        ("w", "instance", "want-01"), ("b", "instance", "boy"), ("g", "instance", "go-02"),
        ("TOP", "w", "top")])


def test_srl_attribute_and_top_on_its_holder():
    g = loads('(a / a1 :mod (b / b1 :ARG1 "x"))')[0]
    t = fs.srl(triples(g))
    assert sorted(t.as_strings()) == sorted([("b", "arg1", "x"), ("b", "instance", "b1"), ("TOP", "b", "top")])


def test_multisets_by_hand():
    g = loads('(p / person :wiki "Q" :name (n / name :op1 "A") :ARG0-of (s / say-01 :polarity -))')[0]
    assert fs.concepts(g) == Counter({"person": 1, "name": 1, "say-01": 1})
    assert fs.named_entities(g) == Counter({"person": 1})
    assert fs.negations(g) == Counter({"say-01": 1})
    assert fs.wikification(g) == Counter({"Q": 1})
    assert fs.multiset_counts(Counter("aab"), Counter("abbc")) == (2, 3, 4)


_concept = st.sampled_from(["dog", "cat", "go-01", "go-02", "want-01"])


@settings(max_examples=50, deadline=None)
@given(st.lists(_concept, min_size=1, max_size=6), st.lists(_concept, min_size=1, max_size=6))
def test_multiset_counts_bounded(a, b):
    m, g, s = fs.multiset_counts(Counter(a), Counter(b))
    assert 0 <= m <= min(g, s) and g == len(a) and s == len(b)
    assert fs.multiset_counts(Counter(b), Counter(a)) == (m, s, g)
