"""Triple extraction with the AMR conventions."""

from __future__ import annotations

from mrkit.model.amr import is_inverted, normalize_relation
from mrkit.features.triples import triples
from mrkit.codecs.penman import loads


def test_inverted_roles():
    assert is_inverted("ARG0-of") and is_inverted(":mod-of")
    assert not is_inverted("consist-of") and not is_inverted(":prep-out-of")
    assert not is_inverted("prep-on-behalf-of") and not is_inverted("ARG0")
    assert normalize_relation("b", "ARG0-of", "a") == ("a", "arg0", "b")
    assert normalize_relation("a", "consist-of", "b") == ("a", "consist-of", "b")


def test_triples_hand_counted():
    (g,) = loads('(a / Want-01 :ARG0 (b / boy) :ARG1-of (c / cause-01 :ARG0 b) '
                 ':consist-of (d / dog :quant 2) :polarity - :mod 1 :name (n / name :op1 "Li Na"))')
    t = triples(g)
    got = set(t.as_strings())
    assert ("a", "instance", "want-01") in got            # lower-cased
    assert ("c", "arg1", "a") in got                       # de-inverted
    assert ("a", "consist-of", "d") in got                 # not an inversion
    assert ("a", "mod", "1") in got                        # constant attribute kept
    assert ("n", "op1", "li na") in got                    # unquoted, whole string
    assert ("a", "polarity", "-") in got
    assert ("TOP", "a", "top") in got
    # 5 instances + 4 attributes (quant, polarity, mod, op1) + 5 relations + 1 top
    assert len(t) == 15 and len(got) == 15


def test_duplicate_triples_count_once():
    (g,) = loads("(a / x :ARG0 (b / y) :ARG0 b :mod 1 :mod 1 :ARG0-of b)")
    t = triples(g)
    # instances a, b; attribute mod 1 once; relation (a ARG0 b) once, (b ARG0 a) once; top
    assert len(t.relations) == 2 and len(t.attributes) == 1 and len(t) == 6
