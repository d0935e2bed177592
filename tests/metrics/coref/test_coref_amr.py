"""Coreference over AMR variables: system chains mapped through the Smatch alignment."""

from __future__ import annotations

import copy
import json

import pytest

from conftest import shared_path
from mrkit.codecs.penman import read_penman
from mrkit.metrics.coref.amr import coref_over_variables, variable_maps
from mrkit.model.document import Mention
from mrkit.codecs.msamr import read_chain_json, read_msamr


@pytest.fixture(scope="module")
def little_prince():
    folder = shared_path("docamr", "msamr-samples")
    return read_msamr(folder / "pp_001.xml", folder / "pp.amr.txt")[0]


def _renamed(doc):
    """The same document with every variable renamed (x0, x1, ...), chains included."""
    other = copy.deepcopy(doc)
    maps = []
    for g in other.sentences:
        ren = {v: f"x{k}" for k, v in enumerate(g.nodes)}
        g.nodes = {ren[v]: n for v, n in g.nodes.items()}
        for v, n in g.nodes.items():
            n.id = v
        for e in g.edges:
            e.source, e.target = ren[e.source], ren[e.target]
        g.tops = [ren[t] for t in g.tops]
        maps.append(ren)
    for c in other.chains:
        c.mentions = [Mention(m.sentence, maps[m.sentence][m.variable]) for m in c.mentions]
    other.implicit = [type(r)(r.chain, r.sentence, maps[r.sentence][r.variable], r.role) for r in other.implicit]
    return other


def test_self_comparison_is_perfect(little_prince):
    result = coref_over_variables(little_prince, little_prince)
    assert all(f == 1.0 for _, _, _, f in result.table_rows())
    # 39 <mention>s, (sentence 1, b2) twice (rel-0 and another chain: the first is kept),
    # plus 1 implicit role
    assert result.counts("mentions").r_den == 38 + 1


def test_renamed_variables_are_aligned(little_prince):
    system = _renamed(little_prince)
    aligned = coref_over_variables(little_prince, system)
    assert all(f == 1.0 for _, _, _, f in aligned.table_rows())
    by_name = coref_over_variables(little_prince, system, align=False)
    assert by_name.counts("mentions").r_num == 0


def test_dropped_mention_costs_one_link(little_prince):
    system = _renamed(little_prince)
    longest = max(system.chains, key=lambda c: len(c.mentions))
    longest.mentions = longest.mentions[:-1]
    result = coref_over_variables(little_prince, system, implicit=False)
    seen, links = set(), 0
    for c in little_prince.chains:  # repeated mention (1, b2): first occurrence kept
        kept = [m for m in c.mentions if m not in seen]
        seen.update(kept)
        links += max(len(kept) - 1, 0)
    muc = result.counts("muc")
    assert (muc.r_num, muc.r_den, muc.p_num, muc.p_den) == (links - 1, links, links - 1, links - 1)
    m = result.counts("mentions")
    assert (m.r_num, m.r_den, m.p_den) == (38 - 1, 38, 38 - 1)


def test_different_graphs_of_the_comptest_sample(tmp_path):
    folder = shared_path("docamr", "msamr-samples")
    gold_graphs = read_penman(folder / "comptest_gold.txt")
    sys_graphs = read_penman(folder / "comptest_sys.txt")
    # gold: the city of sentence 1 and the cat of sentence 4 (0-based 0 and 3) corefer;
    # the system links the city to the chasing event instead of the cat
    (tmp_path / "g.json").write_text(json.dumps({"chains": [{"id": "a", "mentions": [[0, "c"], [3, "c2"]]}]}))
    (tmp_path / "s.json").write_text(json.dumps({"chains": [{"id": "a", "mentions": [[0, "c"], [3, "c"]]}]}))
    gold = read_chain_json(tmp_path / "g.json", gold_graphs)
    system = read_chain_json(tmp_path / "s.json", sys_graphs)
    maps = variable_maps(gold, system)
    assert maps[3]["c"] == "c" and maps[3]["c2"] == "c2"  # chase-01 -> catch-01, cat -> cat
    result = coref_over_variables(gold, system)
    assert result.prf("muc") == (0.0, 0.0, 0.0)
    m = result.counts("mentions")
    assert (m.r_num, m.r_den, m.p_den) == (1, 2, 2)


def test_cli_amr_option(capsys):
    from mrkit.cli import main

    folder = shared_path("docamr", "msamr-samples")
    xml, amr = str(folder / "pp_001.xml"), str(folder / "pp.amr.txt")
    assert main(["coref", xml, xml, "--amr", amr, amr, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["conll"]["f1"] == 1.0 and out["scores"]["mentions"]["counts"]["r_den"] == 39
