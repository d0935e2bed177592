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
    assert (c.top, c.mod_domain, c.roles) == ("concept", True, "dereify-smatchpp")
    assert score("(a / dog)", "(a / cat)", c) == (0, 2, 2)


def test_bad_values():
    with pytest.raises(ValueError):
        Conventions(top="root")
    with pytest.raises(ValueError):
        Conventions(roles="both")


STD_GOLD = "(d / dog :location (h / house))\n\n(x / go-02 :cause (y / rain-01))\n"
STD_SYSTEM = ("(d / dog :ARG1-of (b / be-located-at-91 :ARG2 (h / house)))\n\n"
              "(x / go-02 :ARG1-of (c / cause-01 :ARG0 (y / rain-01)))\n")


def test_dereify_tables_penman_and_smatchpp():
    # penman's table dereifies be-located-at-91 and cause-01; smatchpp's has no :cause
    pairs = list(zip(loads(STD_GOLD), loads(STD_SYSTEM)))

    def counts(conv):
        from mrkit.align import AlignConfig

        out = []
        for g, s in pairs:
            m, ng, ns, _ = aligned_counts(conv.triples(triples(conv.graph(g), conv.keep)),
                                          conv.triples(triples(conv.graph(s), conv.keep)), AlignConfig())
            out.append((m, ng, ns))
        return out

    assert counts(Conventions(roles="dereify")) == [(4, 4, 4), (4, 4, 4)]
    assert counts(Conventions(roles="dereify-smatchpp")) == [(4, 4, 4), (3, 4, 6)]


def test_standardize_equals_smatchpp(tmp_path):
    # smatchpp (PyPI, in a separate benchmark venv) on these two files:
    #   python -m smatchpp -a system.amr -b gold.amr -solver ilp -graph_type amr \
    #       -score_type micro -output_format json   -> F1 77.78, Precision 70.0, Recall 87.5
    from mrkit.pipeline.amr_variants import variant_smatch_files

    (tmp_path / "g.amr").write_text(STD_GOLD)
    (tmp_path / "s.amr").write_text(STD_SYSTEM)
    r = variant_smatch_files(str(tmp_path / "g.amr"), str(tmp_path / "s.amr"), conventions=Conventions.standardized())
    assert r.table.sum(axis=0).tolist() == [7, 8, 10]
    assert round(100 * r.precision, 2) == 70.0 and round(100 * r.recall, 2) == 87.5


def test_standardize_equals_smatchpp_on_little_prince():
    # smatchpp -a t5.amr -b gold.amr -solver ilp -graph_type amr -score_type micro
    #   -> F1 74.18, Precision 73.86, Recall 74.50 (bart.amr: 73.92, 73.55, 74.29)
    from conftest import shared_path
    from mrkit.pipeline.amr_variants import variant_smatch_files

    base = shared_path("amr", "parseeval-little-prince")
    for parser, want in (("t5", (74.18, 73.86, 74.50)), ("bart", (73.92, 73.55, 74.29))):
        r = variant_smatch_files(str(base / "gold.amr"), str(base / f"{parser}.amr"),
                                 conventions=Conventions.standardized())
        assert tuple(round(100 * x, 2) for x in (r.f1, r.precision, r.recall)) == want
