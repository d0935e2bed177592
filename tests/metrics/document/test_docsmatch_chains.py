"""CoNLL-family coreference metrics between two document graphs, mentions matched through
the certified document alignment (issue 17: what no tool computes yet)."""

from __future__ import annotations

import pytest

from conftest import run_mrkit, shared_path
from mrkit.codecs.penman import loads
from mrkit.docamr.build import build
from mrkit.metrics.document.chains import graph_entities
from mrkit.metrics.document.docsmatch import docsmatch_pair
from mrkit.model.document import Chain, Document, Mention

SENTS = "(s / see-01 :ARG0 (b / boy) :ARG1 (g / girl))\n\n(e / eat-01 :ARG0 (c / child))\n"


def graph(*mentions):
    return build(Document("d", loads(SENTS), [Chain("rel-0", [Mention(k, v) for k, v in mentions])]), "no-merge")


def test_hand_computed_metrics():
    # gold {boy, child}, system {girl, child}; the alignment maps every node to its twin
    r = docsmatch_pair(graph((0, "b"), (1, "c")), graph((0, "g"), (1, "c")))
    assert r.certified
    ch = r.chains
    # key {b0, c1}, response {g0, c1}:
    # MUC: each entity split in two by the other: (2 - 2) / 1 = 0 both ways
    assert (ch["muc"].recall, ch["muc"].precision) == (0.0, 0.0)
    # B3: b0 0, c1 1/2 -> recall 1/4; g0 0, c1 1/2 -> precision 1/4
    assert ch["bcub"].recall == pytest.approx(0.25) and ch["bcub"].precision == pytest.approx(0.25)
    # CEAFe: phi = 2 * 1 / (2 + 2) = 1/2 over one entity each side
    assert ch["ceafe"].f1 == pytest.approx(0.5)
    # LEA: the one link of each side is not resolved by the other
    assert ch["lea"].f1 == 0.0


def test_entities_of_merged_nodes_count_per_sentence():
    g = build(Document("d", loads("(s / see-01 :ARG0 (i / i))\n\n(r / run-02 :ARG0 (i / i))\n"),
                       [Chain("rel-0", [Mention(0, "i"), Mention(1, "i")])]), "docamr")
    # the all-pronoun chain is one node 'i' of both sentences: one entity, two mentions
    assert graph_entities(g) == [[("rel-0", 0), ("rel-0", 1)]]


def test_self_score_and_cli_line():
    base = shared_path("docamr", "ibm-docamr-outputs-lpp")
    gold = str(base / "lpp_1-19.docAMR.amr")
    r = run_mrkit("docsmatch", gold, gold)
    assert r.returncode == 0, r.stderr
    assert ("Coreference chains (mentions matched through the alignment): MUC 1.0000  B3 1.0000  "
            "CEAFe 1.0000  LEA 1.0000  CoNLL-F1 1.0000") in r.stdout


def test_ceafe_equals_the_coref_metric():
    """The compiled-assignment CEAFe of the chain metrics equals metrics.coref's (scipy)."""
    import random

    from mrkit.metrics.coref.metrics import ceafe as coref_ceafe
    from mrkit.metrics.coref.overlap import Overlap
    from mrkit.metrics.document.chains import ceafe

    rng = random.Random(7)
    for _ in range(40):
        mentions = list(range(rng.randint(2, 30)))

        def clusters():
            rng.shuffle(mentions)
            out, i = [], 0
            while i < len(mentions):
                k = rng.randint(1, 5)
                out.append(mentions[i:i + k])
                i += k
            return out

        o = Overlap.of(clusters(), clusters())
        a, b = ceafe(o), coref_ceafe(o)
        assert a.r_den == b.r_den and a.p_den == b.p_den and a.r_num == pytest.approx(b.r_num, abs=1e-9)
