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


# Robustness finding F9: the reader printed Python exception names ("malformed chain JSON
# (ValueError: too many values to unpack ...)") and read a sentence index 1.9 or true as 1.
GOOD = {"id": "x", "mentions": [[0, "b"], [1, "h"]]}


@pytest.mark.parametrize("chain,needle", [
    ({"id": "x", "mentions": [[0, "b"], [1.9, "h"]]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": [[0, "b"], [True, "h"]]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": [[0, "b"], [1.0, "h"]]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": [[0, "b"], ["1", "h"]]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": [[0, "b"], [1, "h", "extra"]]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": [[0, "b"], [1, 7]]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": [[0, "b"], 5]}, 'mention 2 must be [sentence, variable]'),
    ({"id": "x", "mentions": None}, '"mentions" must be a list'),
    ({**GOOD, "implicit": [[1, "c"]]}, 'implicit role 1 must be [sentence, variable, role]'),
    ({**GOOD, "implicit": [[False, "c", "ARG1"]]}, 'implicit role 1 must be [sentence, variable, role]'),
    ({**GOOD, "singleton": "no"}, '"singleton" must be true or false'),
])
def test_chain_json_malformed_chain_names_file_and_chain(tmp_path, chain, needle):
    p = _json(tmp_path, {"chains": [chain]})
    with pytest.raises(InputError) as e:
        read_chain_json(p, SENTS)
    msg = str(e.value)
    assert msg.startswith(f"{p}, chain x: ") and needle in msg, msg
    assert "Error" not in msg and "unpack" not in msg


@pytest.mark.parametrize("obj,needle", [
    ({"chains": [None]}, "chain 1 must be an object"),
    ({"chains": [GOOD, 3]}, "chain 2 must be an object"),
    ({"chains": [{"id": [1], "mentions": []}]}, 'chain 1: "id" must be a string or an integer'),
    ({"chains": [{"id": True, "mentions": []}]}, 'chain 1: "id" must be a string or an integer'),
    ({"chains": [GOOD], "bridges": None}, '"bridges" must be a list'),
    ({"chains": [GOOD], "bridges": [None]}, "bridge 1 must be an object"),
    ({"chains": [GOOD], "bridges": [{"kind": "set-member"}]}, "bridge 1 must be an object"),
    ({"chains": [GOOD], "bridges": [{"kind": "set-member", "parent": "x", "children": "x"}]},
     "bridge 1 must be an object"),
    ({"chains": [GOOD], "document": {"a": 1}}, '"document" must be a string or an integer'),
])
def test_chain_json_malformed_document(tmp_path, obj, needle):
    p = _json(tmp_path, obj)
    with pytest.raises(InputError) as e:
        read_chain_json(p, SENTS)
    msg = str(e.value)
    assert msg.startswith(f"{p}: ") and needle in msg, msg
    assert "Error" not in msg


def test_chain_json_integer_ids_still_read(tmp_path):
    p = _json(tmp_path, {"chains": [{"id": 1, "mentions": [[0, "b"], [1, "h"]]},
                                    {"id": 2, "mentions": [[0, "a"], [1, "c"]]}],
                         "bridges": [{"kind": "set-member", "parent": 1, "children": [2]}]})
    doc = read_chain_json(p, SENTS)
    assert [c.id for c in doc.chains] == ["1", "2"] and doc.bridges == [Bridge("set-member", "1", ["2"])]


def test_chain_json_float_sentence_cli(tmp_path):
    from conftest import run_mrkit

    amr = tmp_path / "s.amr"
    amr.write_text("(a / see-01 :ARG0 (b / boy))\n\n(c / sleep-01 :ARG0 (h / he))\n")
    p = _json(tmp_path, {"chains": [{"id": "x", "mentions": [[0, "b"], [1.9, "h"]]}]})
    out = tmp_path / "o.amr"
    r = run_mrkit("docamr", "build", str(amr), "--chains", str(p), "-o", str(out))
    assert r.returncode == 2 and not out.exists()  # was read as sentence 1, exit 0
    assert r.stderr.strip() == (f"mrkit: {p}, chain x: mention 2 must be [sentence, variable]: an integer "
                                'sentence index (0-based) and a variable name, not [1.9, "h"]')


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
