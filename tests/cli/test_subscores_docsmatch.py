"""``mrkit docsmatch --subscores``: the sentence subscores' definitions on document graphs."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import shared_path
from mrkit.cli import main

DATA = Path(__file__).resolve().parents[1] / "metrics" / "amr" / "subscores_data"


def test_sentence_graphs_score_as_smatch_subscores(capsys):
    # not document graphs: no sentence constraint, the numbers of `mrkit smatch --subscores`
    # (hand-computed and amr-evaluation's in tests/metrics/amr/test_subscores.py)
    assert main(["docsmatch", str(DATA / "gold.amr"), str(DATA / "system.amr"), "--subscores", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    got = {k: (v["matched"], v["gold"], v["system"]) for k, v in d["subscores"].items()}
    assert got["reentrancies"] == (0, 6, 0) and got["srl"] == (5, 7, 8) and got["unlabeled"] == (12, 19, 18)
    assert d["subscores_certified"] == 3


def test_document_reentrancy_shares_the_sentence_definition(capsys):
    from mrkit.codecs.docgraphs import read_document_graphs
    from mrkit.features.subscores import reentrancies, reentrant_relations
    from mrkit.features.triples import triples
    from mrkit.metrics.document.docsmatch import docsmatch_pair

    d = shared_path("docamr", "ibm-docamr-outputs-lpp")
    gold, system = d / "lpp_1-19.docAMR.amr", d / "lpp_1-19.nocoref.amr"
    g, s = read_document_graphs(gold)[0], read_document_graphs(system)[0]
    tg = triples(g)
    # docsmatch's Reentrancy line counts exactly the relations of the Reentrancies subset
    assert docsmatch_pair(g, s).reentrancy.gold == len(reentrant_relations(tg))
    sub = reentrancies(tg)
    assert len(sub.relations) == len(reentrant_relations(tg)) and len(sub.tops) == 1
    assert main(["docsmatch", str(gold), str(system), "--subscores", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["subscores"]["reentrancies"]["gold"] == len(sub)
    assert out["reentrancy"]["gold"] == len(sub.relations)
    assert main(["docsmatch", str(gold), str(gold), "--subscores", "--json"]) == 0
    same = json.loads(capsys.readouterr().out)
    assert all(v["f1"] == 1.0 for v in same["subscores"].values())
