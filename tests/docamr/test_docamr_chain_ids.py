"""Chain ids that are node names of the document graph (robustness finding F8): an MS-AMR
``relationid="d"`` or a chain JSON id ``s1.l`` was an internal error (``duplicate node id
'd'``); the chain node now gets a fresh name, the chain id stays as read."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.codecs.docgraphs import read_document_graphs, write_document_graphs
from mrkit.codecs.msamr import read_chain_json, read_msamr
from mrkit.codecs.penman import loads
from mrkit.docamr.build import build, chain_node_names, document_graph
from mrkit.metrics.document.docsmatch import docsmatch_pair
from mrkit.model.document import Chain, Document

REPS = ("no-merge", "merge-ne", "docamr", "merge-all")

SENTENCES = """# ::id a
# ::snt The dog barks at home .
(b / bark-01 :ARG0 (d / dog) :location (h / house))

# ::id b
# ::snt It sleeps at home .
(s / sleep-01 :ARG0 (i / it) :location (h / house))
"""

CHAINS = {"document": "doc",
          "chains": [{"id": "d", "mentions": [[0, "d"], [1, "i"]], "implicit": [[1, "s", "ARG2"]]},
                     {"id": "s1.b", "mentions": [[0, "b"], [1, "s"]]},
                     {"id": "d-2", "mentions": [[0, "h"], [1, "h"]]}],
          "bridges": [{"kind": "set-member", "parent": "d", "children": ["d-2"]}]}


def _files(tmp_path, chains=CHAINS):
    amr, js = tmp_path / "s.amr", tmp_path / "c.json"
    amr.write_text(SENTENCES)
    js.write_text(json.dumps(chains))
    return amr, js


def test_clashing_ids_get_fresh_names(tmp_path):
    amr, js = _files(tmp_path)
    doc = read_chain_json(js, loads(SENTENCES))
    assert [c.id for c in doc.chains] == ["d", "s1.b", "d-2"]  # the chain ids stay
    g = document_graph(doc)
    # by hand: "d-2" is free and kept; "d" is the root, "d-2" taken -> "d-3";
    # "s1.b" is sentence 1's variable b -> "s1.b-2"
    chains = {v for v, n in g.nodes.items() if n.label == "coref-entity"}
    assert chains == {"d-3", "s1.b-2", "d-2"}
    assert g.nodes["d"].label == "document" and g.nodes["s1.b"].label == "bark-01"
    edges = {(e.source, e.label, e.target) for e in g.edges}
    assert {("s1.d", "coref-of", "d-3"), ("s2.i", "coref-of", "d-3"), ("s2.s", "ARG2", "d-3"),
            ("s1.b", "coref-of", "s1.b-2"), ("s2.s", "coref-of", "s1.b-2"),
            ("s1.h", "coref-of", "d-2"), ("s2.h", "coref-of", "d-2"),
            ("d-2", "subset-of", "d-3")} <= edges
    assert g.nodes["d-3"].provenance == frozenset({0, 1})


def test_chain_node_names_unit():
    doc = Document("x", [], [Chain("d", []), Chain("a b", []), Chain("a_b", []), Chain("x)", []),
                             Chain("", []), Chain("p=q", [])])
    assert chain_node_names(doc, {"d"}) == {"d": "d-2", "a b": "a_b-2", "a_b": "a_b", "x)": "x_",
                                            "": "chain", "p=q": "p_q"}


@pytest.mark.parametrize("rep", REPS)
@pytest.mark.parametrize("flipped", [False, True])
def test_every_representation_builds_and_scores_one(tmp_path, rep, flipped):
    amr, js = _files(tmp_path)
    out = tmp_path / "o.amr"
    r = run_mrkit("docamr", "build", str(amr), "--chains", str(js), "-r", rep,
                  *(["--flipped"] if flipped else []), "-o", str(out))
    assert r.returncode == 0, r.stderr
    g = read_document_graphs(out)[0]
    p = docsmatch_pair(g, g)
    assert p.matched == p.gold == p.system > 0 and p.certified
    r = run_mrkit("docamr", "stats", "--graphs", str(out))
    assert r.returncode == 0 and "internal error" not in r.stderr


@pytest.mark.parametrize("cid", ["d", "s1.l", "s2.ii", "a b", "x)"])
def test_msamr_relationid_like_a_node_name(tmp_path, cid):
    base = shared_path("docamr", "msamr-samples")
    xml = (base / "wikipedia.welsh.xml").read_text()
    assert 'relationid="rel-1"' in xml
    mine = tmp_path / "welsh.xml"
    mine.write_text(xml.replace('relationid="rel-1"', f'relationid="{cid}"'))
    ref = read_msamr(base / "wikipedia.welsh.xml", base / "welsh.amr.txt")[0]
    doc = read_msamr(mine, base / "welsh.amr.txt")[0]
    assert [c.id for c in doc.chains] == ["rel-0", cid]
    fresh = {"d": "d-2", "s1.l": "s1.l-2", "s2.ii": "s2.ii-2", "a b": "a_b", "x)": "x_"}[cid]
    for rep in REPS:
        for flipped in (False, True):
            want, got = build(ref, rep, flipped), build(doc, rep, flipped)
            # the same graph as with relationid="rel-1", that node renamed
            rn = {"rel-1": fresh}

            def norm(g, rn):
                return ({(rn.get(v, v), n.label, tuple(map(str, n.properties)), n.provenance)
                         for v, n in g.nodes.items()},
                        sorted((rn.get(e.source, e.source), e.label, rn.get(e.target, e.target)) for e in g.edges))

            assert norm(got, {}) == norm(want, rn), (rep, flipped)
            write_document_graphs([got], tmp_path / "o.amr")
            back = read_document_graphs(tmp_path / "o.amr")[0]  # written and read back
            assert set(back.nodes) == set(got.nodes)
    for cmd in (["build", "-o", str(tmp_path / "cli.amr")], ["stats"]):
        r = run_mrkit("docamr", cmd[0], str(base / "welsh.amr.txt"), "--xml", str(mine), *cmd[1:])
        assert r.returncode == 0 and "internal error" not in r.stderr, r.stderr
