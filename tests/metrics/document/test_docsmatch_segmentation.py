"""Document Smatch when the system segments the text into other sentences than the gold
(issue 17: what no tool scores yet): sentences aligned by their text."""

from __future__ import annotations

import json

from conftest import run_mrkit
from mrkit.codecs.docgraphs import read_document_graphs, write_document_graphs
from mrkit.codecs.penman import loads
from mrkit.docamr.build import build
from mrkit.metrics.amr.smatch import smatch_pair
from mrkit.metrics.document.docsmatch import docsmatch_pair
from mrkit.metrics.document.segmentation import align_sentences
from mrkit.model.document import Document

GOLD = """# ::snt The boy slept .
(s / sleep-01 :ARG0 (b / boy))

# ::snt He woke .
(w / wake-01 :ARG0 (h / he))

# ::snt He ate an apple .
(e / eat-01 :ARG0 (h / he) :ARG1 (a / apple))
"""

# the system joins the first two sentences (and adds a word: its text differs)
SYSTEM = """# ::snt The boy slept . He woke up .
(a / and :op1 (s / sleep-01 :ARG0 (b / boy)) :op2 (w / wake-01 :ARG0 b))

# ::snt He ate an apple .
(e / eat-01 :ARG0 (h / he) :ARG1 (a / apple))
"""


def doc_graph(text, tmp_path, name):
    g = build(Document(name, loads(text)), "no-merge")
    write_document_graphs([g], tmp_path / f"{name}.amr")
    return tmp_path / f"{name}.amr"


def test_align_sentences_by_text():
    gold = ["The boy slept .", "He woke .", "He ate an apple ."]
    assert align_sentences(gold, ["The boy slept . He woke .", "He ate an apple ."]) == [[0, 1], [2]]
    assert align_sentences(gold, ["The boy slept . He woke up .", "He ate an apple ."]) == [[0, 1], [2]]
    # a split sentence maps both halves to the one gold sentence
    assert align_sentences(["A b c d ."], ["A b", "c d ."]) == [[0], [0]]
    assert align_sentences(["A b ."], ["A b .", "Z z z z z z z z z ."]) == [[0], []]


def test_differently_segmented_system_scores_as_unconstrained(tmp_path):
    g = read_document_graphs(doc_graph(GOLD, tmp_path, "gold"))[0]
    s = read_document_graphs(doc_graph(SYSTEM, tmp_path, "sys"))[0]
    by_index = docsmatch_pair(g, s)
    by_text = docsmatch_pair(g, s, align_sentences=True)
    assert by_text.sentence_alignment == [[0, 1], [2]]
    free = smatch_pair(g, s)
    assert by_text.certified and free.certified
    # the text alignment allows every pairing the true optimum uses; by index sentence 2 of
    # the system (eat) may only go to gold sentence 2 (wake)
    assert by_text.matched == free.matched > by_index.matched


def test_cli_reports_the_alignment(tmp_path):
    gold, system = doc_graph(GOLD, tmp_path, "gold"), doc_graph(SYSTEM, tmp_path, "sys")
    r = run_mrkit("docsmatch", str(gold), str(system), "--align-sentences")
    assert r.returncode == 0, r.stderr
    assert "Sentence alignment, system -> gold: 1->1,2 2->3" in r.stdout
    j = json.loads(run_mrkit("docsmatch", str(gold), str(system), "--align-sentences", "--json").stdout)
    assert j["sentence_alignment"] == [[[1, [1, 2]], [2, [3]]]]


def test_cli_without_text_exit_2(tmp_path):
    bare = tmp_path / "bare.amr"
    bare.write_text("(d / document :snt1 (s / sleep-01 :ARG0 (b / boy)))\n")
    r = run_mrkit("docsmatch", str(bare), str(bare), "--align-sentences")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "::snt" in r.stderr


def test_same_segmentation_scores_as_by_index():
    from conftest import shared_path
    from mrkit.codecs.msamr import read_msamr

    base = shared_path("docamr", "msamr-samples")
    doc = read_msamr(base / "pp_001.xml", base / "pp.amr.txt")[0]
    g, s = build(doc, "docamr"), build(doc, "no-merge")
    a, b = docsmatch_pair(g, s), docsmatch_pair(g, s, align_sentences=True)
    assert b.sentence_alignment == [[k] for k in range(19)]
    assert (a.matched, a.gold, a.system) == (b.matched, b.gold, b.system) and b.certified
