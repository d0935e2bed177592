"""PENMAN reading and writing through the penman library."""

from __future__ import annotations

import io

import pytest

from mrkit.amr import triples
from mrkit.codecs.penman import dumps, iter_penman, loads
from mrkit.errors import InputError

RELEASE = """# AMR release (generated on Fri Jan 1, 2021 at 00:00:00)

# ::id doc.1 ::date 2021
# ::snt The boy sleeps.
(s / sleep-01~e.2
   :ARG0 (b / boy~e.1))

# ::id doc.2
(p / person :name (n / name :op1 "New"~e.0 :op2 "York") :mod 1 :ARG0-of (l / like-01 :ARG1 p))
"""


def test_release_header_metadata_and_alignments():
    g1, g2 = loads(RELEASE)
    assert g1.id == "doc.1" and g1.text == "The boy sleeps."
    assert g1.metadata["snt"] == "The boy sleeps."
    assert g1.nodes["s"].label == "sleep-01"
    assert g1.nodes["s"].extra["alignment"] == [2]
    assert g1.source_line == 3 and g2.source_line == 8
    n = g2.nodes["n"]
    assert [(p.key, p.value, p.quoted) for p in n.properties] == [("op1", "New", True), ("op2", "York", True)]
    assert [(p.key, p.value, p.quoted) for p in g2.nodes["p"].properties] == [("mod", "1", False)]
    # edges are stored as written; re-entrancy p is an edge, not a constant
    assert [(e.source, e.label, e.target) for e in g2.edges] == [
        ("p", "name", "n"), ("p", "ARG0-of", "l"), ("l", "ARG1", "p")]


def test_streaming_from_file_object_and_graphs_without_blank_lines():
    gs = list(iter_penman(io.StringIO("(a / b)\n(c / d :ARG0 (e / f))\n"), name="x.amr"))
    assert [list(g.nodes) for g in gs] == [["a"], ["c", "e"]]


def test_round_trip_keeps_triples_and_quotes():
    gs = loads(RELEASE)
    again = loads(dumps(gs))
    for a, b in zip(gs, again):
        assert sorted(triples(a).as_strings()) == sorted(triples(b).as_strings())
        assert a.metadata == b.metadata
    assert '"New"' in dumps(gs) and ":mod 1" in dumps(gs)


@pytest.mark.parametrize("text, line, graph, words", [
    ("# ::id g1\n(a / b\n   :ARG0 (c / d)\n", 3, "g1", "malformed PENMAN"),
    ("(a / b)\n\n# ::id bad\n(x / y :ARG0 (x / z))\n", 3, "bad", "defined twice"),
    ("(a / b)\n\nthis is not a graph\n", 3, "2", "expected a PENMAN graph"),
])
def test_malformed_input_names_file_line_and_graph(text, line, graph, words):
    with pytest.raises(InputError) as exc:
        loads(text, name="sys.amr")
    msg = str(exc.value)
    assert msg.startswith(f"sys.amr:{line}, graph {graph}:") and words in msg
    assert "\n" not in msg


def test_missing_file():
    with pytest.raises(InputError, match="no-such.amr: cannot read"):
        list(iter_penman("no-such.amr"))
