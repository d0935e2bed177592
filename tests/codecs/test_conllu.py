"""CoNLL-U trees as graphs (the MRP 2019 UDPipe companion data) and as the token source
for anchoring.  Oracle: the organizers' own conversion ``tupa-test-files/udpipe.mrp``; the
same anchors come out of ``mtool --read conllu --write mrp`` (cfmrp/mtool @ 4cee3a2) on the
CoNLL-U text these tests write (mtool numbers nodes from 1, and makes range lines nodes)."""

from __future__ import annotations

import io
import json
import re

import pytest

from conftest import run_mrkit, shared_path

from mrkit.codecs.conllu import dumps_conllu, iter_conllu, read_token_map
from mrkit.codecs.mrp import read_mrp
from mrkit.codecs.registry import sniff_text
from mrkit.errors import InputError


def _norm(g):
    return (g.id, g.text, sorted(g.tops),
            sorted((k, n.label, tuple(n.properties), tuple((a.start, a.end) for a in n.anchors))
                   for k, n in g.nodes.items()),
            sorted((e.source, e.target, e.label) for e in g.edges))


@pytest.fixture(scope="module")
def udpipe():
    return read_mrp(shared_path("mrp", "tupa-test-files", "udpipe.mrp"))


def test_round_trip_of_the_companion_trees(udpipe):
    text = dumps_conllu(udpipe)
    back = list(iter_conllu(io.StringIO(text)))
    assert [_norm(g) for g in back] == [_norm(g) for g in udpipe]


def test_anchored_from_the_text_comment_as_the_organizers(udpipe):
    text = re.sub(r"\tTokenRange=\d+:\d+$", "\t_", dumps_conllu(udpipe), flags=re.M)
    assert "TokenRange" not in text
    back = list(iter_conllu(io.StringIO(text)))
    assert [_norm(g) for g in back] == [_norm(g) for g in udpipe]


HAND = """\
# sent_id = s1
1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_
1\tdo\tdo\tAUX\tVBP\tMood=Ind\t3\taux\t_\t_
2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_
3\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No
3.1\tgone\tgo\tVERB\tVBN\t_\t_\t_\t3:conj\t_
4\t!\t!\tPUNCT\t.\t_\t3\tpunct\t_\t_

"""


def test_hand_written_sentence():
    (g,) = iter_conllu(io.StringIO(HAND))
    assert g.id == "s1" and g.text == "don't go!" and g.framework == "conllu"
    assert list(g.nodes) == ["0", "1", "2", "3"]  # words only: no range line, no empty node
    assert [(a.start, a.end) for a in g.nodes["0"].anchors] == [(0, 5)]  # the multi-word token's span
    assert [(a.start, a.end) for a in g.nodes["1"].anchors] == [(0, 5)]
    assert [(a.start, a.end) for a in g.nodes["2"].anchors] == [(6, 8)]
    assert [(a.start, a.end) for a in g.nodes["3"].anchors] == [(8, 9)]
    assert g.tops == ["2"]
    assert sorted((e.source, e.target, e.label) for e in g.edges) == [
        ("2", "0", "aux"), ("2", "1", "advmod"), ("2", "3", "punct")]
    assert [(p.key, p.value) for p in g.nodes["0"].properties] == [
        ("lemma", "do"), ("upos", "AUX"), ("xpos", "VBP"), ("Mood", "Ind")]
    assert sniff_text(HAND) == "conllu"


@pytest.mark.parametrize("text, what", [
    ("# sent_id = x\n1\ta\ta\tX\tX\t_\t0\troot\t_\n\n", "10 tab-separated columns"),
    ("# sent_id = x\n1\ta\ta\tX\tX\t_\t7\troot\t_\t_\n\n", "head '7'"),
    ("# sent_id = x\nA\ta\ta\tX\tX\t_\t0\troot\t_\t_\n\n", "is not a number"),
    # a range past the sentence's words: refused before a list of its numbers is made
    # (1-10000000 took 1.5 GB and was accepted)
    ("# sent_id = x\n1-10000000\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n\n",
     "does not cover words"),
    ("# sent_id = x\n2-1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n\n", "does not cover words"),
    # a word number written twice was an internal error (duplicate node id)
    ("# sent_id = x\n1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n1\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n\n", "repeated:3"),
])
def test_malformed_lines_name_their_line(text, what):
    what, _, line = what.partition(":")  # the line named, when not the first word's (2)
    with pytest.raises(InputError, match=what) as info:
        list(iter_conllu(io.StringIO(text), name="bad.conllu"))
    assert info.value.line == int(line or 2) and info.value.graph == "x"


def test_companion_tokens_anchor_sdp(tmp_path):
    wsj = shared_path("mrp", "wsj-sample")
    udpipe = shared_path("mrp", "tupa-test-files", "udpipe.mrp")
    tokens = read_token_map(str(udpipe))
    assert tokens["20001001"].spans[:2] == ((0, 6), (7, 13))
    for source in (str(udpipe),):
        out = tmp_path / "dm.mrp"
        proc = run_mrkit("convert", str(wsj / "dm" / "wsj.sdp"), str(out), "--text", source)
        assert proc.returncode == 0, proc.stderr
        proc = run_mrkit("mrp", str(wsj / "dm" / "wsj.mrp"), str(out), "--json", "--mrp-only")
        assert proc.returncode == 0, proc.stderr
        data = json.loads(proc.stdout)
        assert data["summary"]["f1"] == 1.0 and data["overall"]["anchors"]["f"] == 1.0


def test_cli_reads_conllu_as_graphs(tmp_path, udpipe):
    path = tmp_path / "ud.conllu"
    path.write_text(dumps_conllu(udpipe), encoding="utf-8")
    proc = run_mrkit("analyze", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)["frameworks"]["conllu"]
    assert stats["graphs"] == 89 and stats["trees"] == 100.0 and stats["ordered"]
    bad = tmp_path / "bad.conllu"
    bad.write_text("# sent_id = 1\n1\tx\n\n")
    proc = run_mrkit("convert", str(bad), str(tmp_path / "o.mrp"))
    assert proc.returncode == 2 and "bad.conllu:2" in proc.stderr and not (tmp_path / "o.mrp").exists()
