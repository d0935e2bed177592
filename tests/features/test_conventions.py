"""The Smatch conventions (features/conventions.py): each option changes the number in the
documented way; values computed by hand in the comments."""

from __future__ import annotations

import pytest

from mrkit.codecs.penman import loads
from mrkit.features.conventions import Conventions
from mrkit.metrics.amr.subscores import aligned_counts
from mrkit.features.triples import triples


def score(gold: str, system: str, conv: Conventions) -> tuple:
    g, s = loads(gold)[0], loads(system)[0]
    m, ng, ns, ok = aligned_counts(conv.triples(triples(conv.graph(g), conv.keep)),
                                   conv.triples(triples(conv.graph(s), conv.keep)), conv_config())
    assert ok
    return m, ng, ns


def conv_config():
    from mrkit.align import AlignConfig

    return AlignConfig()


def test_default_changes_nothing():
    assert Conventions().is_default
    g = loads("(a / dog)")[0]
    assert Conventions().graph(g) is g


def test_top_style():
    # (a / dog) vs (a / cat): classic TOP matches (roots aligned) -> 1 of 2; the
    # concept-bearing top (a, top, dog) vs (a, top, cat) does not -> 0 of 2
    assert score("(a / dog)", "(a / cat)", Conventions()) == (1, 2, 2)
    assert score("(a / dog)", "(a / cat)", Conventions(top="concept")) == (0, 2, 2)
    assert score("(a / dog)", "(b / dog)", Conventions(top="concept")) == (2, 2, 2)


def test_mod_domain():
    # gold (s :domain d) vs system (d :mod s): instances 2 match; classic: relation and
    # top (s vs d) do not -> 2/4; read as (d :mod s), the relation matches -> 3/4
    gold, system = "(s / small :domain (d / dog))", "(d / dog :mod (s / small))"
    assert score(gold, system, Conventions()) == (2, 4, 4)
    assert score(gold, system, Conventions(mod_domain=True)) == (3, 4, 4)


def test_reify_and_dereify():
    # gold: dog, house, (d location h), top = 4; system: dog, be-located-at-91, house,
    # (b ARG1 d), (b ARG2 h), top = 6; 3 match (two instances, top)
    gold = "(d / dog :location (h / house))"
    system = "(d / dog :ARG1-of (b / be-located-at-91 :ARG2 (h / house)))"
    assert score(gold, system, Conventions()) == (3, 4, 6)
    assert score(gold, system, Conventions(roles="dereify")) == (4, 4, 4)
    assert score(gold, system, Conventions(roles="reify")) == (6, 6, 6)


def test_standardize_is_the_three():
    c = Conventions.standardized()
    assert (c.top, c.mod_domain, c.roles) == ("concept", True, "dereify")
    assert score("(a / dog)", "(a / cat)", c) == (0, 2, 2)


def test_bad_values():
    with pytest.raises(ValueError):
        Conventions(top="root")
    with pytest.raises(ValueError):
        Conventions(roles="both")
