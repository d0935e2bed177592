"""Document coreference inputs: MS-AMR XML, chain JSON, pipeline clusters."""

from __future__ import annotations

import json
import warnings

import pytest

from conftest import shared_path
from mrkit.codecs.penman import loads
from mrkit.codecs.msamr import read_chain_json, read_msamr, write_chain_json
from mrkit.model.document import Bridge, ImplicitRole, Mention
from mrkit.docamr.pipeline import project_mention, read_pipeline
from mrkit.errors import InputError


def lpp():
    base = shared_path("docamr", "msamr-samples")
    return read_msamr(base / "pp_001.xml", base / "pp.amr.txt")[0]


def test_msamr_little_prince_counts():
    # numbers from the sample's README: 9 identity chains, 39 mentions + 1 implicit role,
    # 1 singleton, 2 set-member bridging relations
    doc = lpp()
    assert doc.id == "lpp_1943" and len(doc.sentences) == 19
    ident = [c for c in doc.chains if not c.singleton]
    assert len(ident) == 9
    assert sum(len(c.mentions) for c in doc.chains) == 39  # incl. the singleton
    assert doc.implicit == [ImplicitRole("rel-5", 9, "f", "ARG1")]
    assert [c.id for c in doc.chains if c.singleton] == ["singleton-8"]
    assert doc.bridges == [Bridge("set-member", "rel-3", ["singleton-8"]),
                           Bridge("set-member", "rel-3", ["rel-7"])]
    # lpp_1943.10 is the 10th sentence: index 9; its "I" is i2
    assert Mention(9, "i2") in doc.chain("rel-0").mentions


def test_chain_json_round_trip(tmp_path):
    doc = lpp()
    write_chain_json(doc, tmp_path / "c.json")
    back = read_chain_json(tmp_path / "c.json", doc.sentences)
    assert back.chains == doc.chains and back.bridges == doc.bridges and back.implicit == doc.implicit


SENTS = loads("(a / see-01 :ARG0 (b / boy))\n\n(c / sleep-01 :ARG0 (h / he))\n")


def _json(tmp_path, obj):
    p = tmp_path / "c.json"
    p.write_text(json.dumps(obj))
    return p


def test_chain_json_missing_variable(tmp_path):
    p = _json(tmp_path, {"chains": [{"id": "x", "mentions": [[0, "b"], [1, "zz"]]}]})
    with pytest.raises(InputError, match="variable 'zz'"):
        read_chain_json(p, SENTS)


def test_chain_json_missing_sentence(tmp_path):
    p = _json(tmp_path, {"chains": [{"id": "x", "mentions": [[0, "b"], [5, "h"]]}]})
    with pytest.raises(InputError, match="sentence 5"):
        read_chain_json(p, SENTS)


def test_single_mention_chain_warns(tmp_path):
    p = _json(tmp_path, {"chains": [{"id": "x", "mentions": [[0, "b"]]}]})
    with pytest.warns(UserWarning, match="single mention"):
        doc = read_chain_json(p, SENTS)
    assert doc.chains[0].mentions == [Mention(0, "b")]


def test_malformed_xml_names_line(tmp_path):
    x = tmp_path / "bad.xml"
    x.write_text("<document>\n<sentences docid='d'>\n<amr id='a'>\n</document>\n")
    amr = tmp_path / "a.amr"
    amr.write_text("# ::id a\n(a / b)\n")
    with pytest.raises(InputError) as e:
        read_msamr(x, amr)
    assert "malformed XML" in str(e.value) and e.value.line == 4


def test_xml_mention_missing_variable(tmp_path):
    x = tmp_path / "m.xml"
    x.write_text("<document><sentences docid='d'><amr id='a' order='1'/><amr id='b' order='2'/></sentences>\n"
                 "<relations><identity><identchain relationid='rel-0'>\n"
                 "<mention id='a' variable='x'/>\n<mention id='b' variable='nope'/>\n"
                 "</identchain></identity></relations></document>\n")
    amr = tmp_path / "a.amr"
    amr.write_text("# ::id a\n(x / boy)\n\n# ::id b\n(y / he)\n")
    with pytest.raises(InputError) as e:
        read_msamr(x, amr)
    assert e.value.line == 4 and "'nope'" in str(e.value)


def test_pipeline_projection_ibm_example(tmp_path):
    amr = shared_path("docamr", "ibm-docamr-example", "doc_sen.amr")
    # tokens: s1 "Hailey is going to London tomorrow ." (7), s2 "She is planning ... London ." (10)
    clusters = [[[0, 0], [7, 7]], [[4, 4], [15, 15]], [[4, 4], [4, 4]]]
    jl = tmp_path / "c.jsonl"
    jl.write_text(json.dumps({"doc_key": "ex", "clusters": clusters}) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc, = read_pipeline(amr, jl)
    # Hailey -> person p (its name n has the same span but is lower); London -> city c;
    # the third cluster stays inside one sentence and is dropped
    assert [c.mentions for c in doc.chains] == [[Mention(0, "p"), Mention(1, "s")],
                                                [Mention(0, "c"), Mention(1, "c")]]


def test_project_mention_shortest_then_highest():
    spans = {"a": (0, 9), "b": (2, 4), "c": (2, 4), "d": (3, 3)}
    depth = {"a": 0, "b": 1, "c": 2, "d": 3}
    assert project_mention(spans, depth, 3, 3) == "d"
    assert project_mention(spans, depth, 2, 3) == "b"
    assert project_mention(spans, depth, 0, 5) == "a"
    assert project_mention(spans, depth, 8, 12) is None
