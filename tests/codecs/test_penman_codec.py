"""PENMAN reading and writing through the penman library."""

from __future__ import annotations

import io

import pytest

from mrkit.features.triples import triples
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


# ------------------------------------------------------------------ malformed input (issue 12)

@pytest.mark.parametrize("text, line, graph, words", [
    # a node without a concept (the penman library logs and accepts these; smatch.py
    # 1.0.4 refuses them as ill-formatted)
    ("(a /)\n", 1, "1", "no concept"),
    ("()\n", 1, "1", "empty node"),
    ("(a / b\n   :ARG0 (c))\n", 2, "1", "'c' has no concept"),
    ("# ::id g\n(a / b :ARG0 (c /\n))\n", 2, "g", "'c' has no concept"),
    ("(a / b :ARG0)\n", 1, "1", "has no value"),
    ("(a / b :ARG0 :ARG1 (c / d))\n", 1, "1", "has no value"),
    ("(a / b : c)\n", 1, "1", "role without a name"),
    # truncated graphs and unbalanced parentheses
    ("(a / b\n   :ARG0 (c / d\n", 2, "1", "not closed"),
    ("(a / b))\n", 1, "1", "unexpected text after the graph"),
    # stray text between or after graphs in one block (was silently dropped)
    ("(a / b)\nstray words\n(c / d)\n", 2, "1", "unexpected text after the graph"),
    ("# ::id first\n(a / b) junk\n", 2, "first", "unexpected text after the graph"),
    # an ::id further down the block is a later graph's, not this one's (read, the first
    # graph here is graph 1)
    ("(a b)\n(a / b)\n# ::id g3\n(a / b)\n", 1, "1", "'a' has no concept"),
    ("(a b)\n# ::id late\n", 1, "1", "'a' has no concept"),
    ("(a / b)\n(c d)\n# ::id g3\n(a / b)\n", 2, "2", "'c' has no concept"),
    ("(a / b / c)\n", 1, "1", "expected a role"),
    ("(a / b :ARG0 (c / d) (e / f))\n", 1, "1", "expected a role"),
    # duplicate variables
    ("(a / b :ARG0 (a / c))\n", 1, "1", "defined twice"),
    # alignment indices are bounded in length, not carried along
    ("(a / b~e.99999999999999)\n", 1, "1", "more than 9 digits"),
    ("(a / b :op1 \"x\"~e." + "9" * 5000 + ")\n", 1, "1", "more than 9 digits"),
])
def test_malformed_penman_is_one_line_naming_line_and_graph(text, line, graph, words):
    with pytest.raises(InputError) as exc:
        loads(text, name="g.amr")
    msg = str(exc.value)
    assert msg.startswith(f"g.amr:{line}, graph {graph}:"), msg
    assert words in msg and "\n" not in msg


def test_alignments_up_to_nine_digits_are_read():
    g, = loads("(a / b~e.123456789 :op1 \"x\"~e.2,3)\n")
    assert g.nodes["a"].extra["alignment"] == [123456789]
    assert g.nodes["a"].extra["property_alignments"] == {0: [2, 3]}


def test_invalid_utf8_names_the_line(tmp_path):
    f = tmp_path / "bad.amr"
    f.write_bytes(b"(a / b)\n\n(c / d\n   :ARG0 (e / caf\xe9))\n")
    with pytest.raises(InputError) as exc:
        list(iter_penman(f))
    assert str(exc.value).startswith(f"{f}:4: not UTF-8") and "0xe9" in str(exc.value)
    from mrkit.codecs.penman import read_blocks

    with pytest.raises(InputError, match=r":4: not UTF-8"):
        read_blocks(f)


def test_byte_order_mark_is_dropped(tmp_path):
    f = tmp_path / "bom.amr"
    f.write_bytes("\ufeff# ::id x\n(a / b)\n".encode("utf-8"))
    g, = iter_penman(f)
    assert g.id == "x" and list(g.nodes) == ["a"]


def test_comments_after_the_last_graph_of_a_block_are_ignored():
    gs = loads("(a / b)\n# a trailing comment\n\n(c / d)\n")
    assert [list(g.nodes) for g in gs] == [["a"], ["c"]]


def test_several_graphs_in_one_block_keep_their_own_ids_and_lines():
    gs = loads("# ::id one\n(a / b)\n# ::id two\n(c / d\n   :ARG0 (e / f))\n")
    assert [(g.id, g.source_line) for g in gs] == [("one", 1), ("two", 3)]
    with pytest.raises(InputError, match=r"^x:5, graph two: .*no concept"):
        loads("# ::id one\n(a / b)\n# ::id two\n(c / d\n   :ARG0 (e /))\n", name="x")


def _chain(depth: int) -> str:
    return "".join(f"(v{k} / x :ARG0 " for k in range(depth - 1)) + f"(v{depth - 1} / x" + ")" * depth + "\n"


def test_deep_nesting_is_read_and_written_without_recursion_limit():
    import sys

    depth = sys.getrecursionlimit() * 5
    g, = loads(_chain(depth))
    assert len(g.nodes) == depth and len(g.edges) == depth - 1
    assert [(e.source, e.target) for e in g.edges[:2]] == [("v0", "v1"), ("v1", "v2")]
    again, = loads(dumps([g]))
    assert sorted(triples(again).as_strings()) == sorted(triples(g).as_strings())


def test_long_chain_output_is_linear_in_its_length():
    from mrkit.model.graph import Edge, Graph, Node

    n = 3000
    g = Graph(id="chain")
    for k in range(n):
        g.nodes[f"x{k}"] = Node(f"x{k}", label="x")
    g.edges = [Edge(f"x{k}", f"x{k + 1}", "ARG0") for k in range(n - 1)]
    g.tops = ["x0"]
    text = dumps([g])
    assert len(text) < 400 * n  # penman's own layout would write 6 spaces per level: 27 MB
    again, = loads(text)
    assert len(again.nodes) == n and len(again.edges) == n - 1
    # written backwards from the last node: every edge inverted, still read back
    g.tops = [f"x{n - 1}"]
    again, = loads(dumps([g]))
    assert sorted(triples(again).as_strings()) == sorted(triples(g).as_strings())


def test_writer_refuses_what_the_reader_refuses():
    from mrkit.model.graph import Graph, Node

    g = Graph(id="u")
    g.nodes["a"] = Node("a")
    g.tops = ["a"]
    with pytest.raises(InputError, match="no label"):
        dumps([g])
    with pytest.raises(InputError, match="empty graph"):
        dumps([Graph(id="e")])


def test_format_matches_the_penman_library_on_ordinary_graphs():
    import penman

    from conftest import shared_path
    from mrkit.codecs.penman import format_tree, read_penman, to_tree

    gs = loads(RELEASE) + read_penman(shared_path("amr", "alt-metrics-handmade", "a.amr"))
    for g in gs:
        t = to_tree(g)
        for indent in (6, None):
            assert format_tree(t, indent) == penman.format(t, indent=indent)


@pytest.mark.parametrize("text", ["(a / b :ARG0)\n", "(a /)\n", "()\n", "(a / b)\n", "(a / b :ARG0 (c))\n"])
def test_the_penman_library_logs_nothing_even_at_debug_level(caplog, text):
    # penman 1.3 logs 'Missing target' / 'Missing concept' warnings (printed by Python's
    # last-resort handler before mrkit's own error line) and a debug line per graph
    import logging

    caplog.set_level(logging.DEBUG)
    try:
        dumps(loads(text))
    except InputError:
        pass
    assert [r for r in caplog.records if r.name.startswith("penman")] == []
