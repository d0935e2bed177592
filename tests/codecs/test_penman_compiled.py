"""The compiled PENMAN reader (src/mrkit/codecs/_penman.c) against its references (issue 14).

The Python reader (``MRKIT_PURE_PENMAN=1``) is the reference for every outcome: on the same
text both give equal graphs -- ids, metadata, source lines, node / edge / property order,
alignments, quoted flags, extras -- or the same InputError message, on every shared corpus
file, on the robustness files, on generated graphs and on mutations of them. The penman
library is the reference for what a well-formed file means: its triples and metadata equal
the ones of mrkit's graphs.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import penman
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHARED
from mrkit.codecs import penman as codec
from mrkit.errors import InputError

compiled = pytest.importorskip("mrkit.codecs._penman", reason="the compiled PENMAN reader is not built")


# ---------------------------------------------------------------------------- helpers

def snapshot(g) -> tuple:
    """Everything a Graph holds, with every order made visible (dict equality ignores it)."""
    def ordered(d):
        return [(k, ordered(v) if isinstance(v, dict) else v) for k, v in d.items()]

    nodes = [(v, n.id, n.label, [(p.key, p.value, p.quoted) for p in n.properties], n.anchors,
              n.provenance, ordered(n.extra)) for v, n in g.nodes.items()]
    edges = [(e.source, e.target, e.label, e.attributes, e.normal, ordered(e.extra)) for e in g.edges]
    return (g.id, nodes, edges, g.tops, g.text, ordered(g.metadata), g.framework, g.source_file,
            g.source_line, ordered(g.extra))


def outcome(monkeypatch, pure: bool, read) -> tuple:
    if pure:
        monkeypatch.setenv("MRKIT_PURE_PENMAN", "1")
    else:
        monkeypatch.delenv("MRKIT_PURE_PENMAN", raising=False)
    try:
        graphs = read()
    except InputError as exc:
        return ("error", str(exc))
    return ("graphs", [snapshot(g) for g in graphs])


def same_outcome(monkeypatch, read) -> tuple:
    python = outcome(monkeypatch, True, read)
    fast = outcome(monkeypatch, False, read)
    assert fast == python
    return python


def shared_files(*parts: str) -> list[Path]:
    root = SHARED.joinpath(*parts)
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def ids(paths):
    return [str(p.relative_to(SHARED)) for p in paths]


CORPUS = shared_files("amr") + shared_files("docamr")
ROBUSTNESS = shared_files("robustness")


# ---------------------------------------------------------------------------- the switch

def test_the_compiled_reader_is_used_by_default_and_the_switch_turns_it_off(monkeypatch):
    calls = []
    real = compiled.read_block

    def spy(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(codec._compiled, "read_block", spy)
    monkeypatch.delenv("MRKIT_PURE_PENMAN", raising=False)
    assert len(codec.loads("(a / b)\n\n(c / d)\n")) == 2
    assert len(calls) == 2
    monkeypatch.setenv("MRKIT_PURE_PENMAN", "1")
    assert len(codec.loads("(a / b)\n")) == 1
    assert len(calls) == 2


def test_unreadable_blocks_fall_back_to_the_python_messages():
    # the compiled reader declines (None); the Python reader then raises its own error
    for text in ["(a / b", "(a)", "(a / b) x", "(a / b :ARG0)", "()", '(a / b :c "x)',
                 "(a / b :c d~e.1234567890)", "(a / b :c (a / d))", "(a / b ~ )", "hello",
                 "(a / b :)", "(a / b\n# c\n)"]:
        assert compiled.read_block(text, 1, 0, "f") is None, text
        with pytest.raises(InputError):
            codec.loads(text)
    assert compiled.read_block("# only a comment\n# ::id x\n", 1, 0, "f") == []


def test_known_values_read_by_the_compiled_path(monkeypatch):
    monkeypatch.delenv("MRKIT_PURE_PENMAN", raising=False)
    text = ('# ::id g1 ::snt Hi "there"\n# ::tok Hi\n(w / want-01~e.2 :ARG0 (b / boy)\n'
            '   :ARG1~e.1 b :name "a \\"q\\" \\\\ z"~e.3,4 :wiki - :mod "é x")\n')
    [g] = codec.loads(text, "t")
    assert g.id == "g1" and g.source_file == "t" and g.source_line == 1
    assert list(g.metadata.items()) == [("snt", 'Hi "there"'), ("id", "g1"), ("tok", "Hi")]
    assert g.text == 'Hi "there"'
    assert [(n.id, n.label) for n in g.nodes.values()] == [("w", "want-01"), ("b", "boy")]
    assert g.nodes["w"].extra == {"alignment": [2], "property_alignments": {0: [3, 4]}}
    assert [(p.key, p.value, p.quoted) for p in g.nodes["w"].properties] == [
        ("name", 'a "q" \\ z', True), ("wiki", "-", False), ("mod", "é x", True)]
    assert [(e.source, e.target, e.label, e.extra) for e in g.edges] == [
        ("w", "b", "ARG0", {}), ("w", "b", "ARG1", {"alignment": [1]})]
    assert g.tops == ["w"]


# ---------------------------------------------------------------------------- shared files

@pytest.mark.skipif(not CORPUS, reason="shared data not available")
@pytest.mark.parametrize("path", CORPUS, ids=ids(CORPUS))
def test_shared_corpus_files_read_the_same(monkeypatch, path):
    same_outcome(monkeypatch, lambda: codec.read_penman(path))


@pytest.mark.skipif(not ROBUSTNESS, reason="shared data not available")
@pytest.mark.parametrize("path", ROBUSTNESS, ids=ids(ROBUSTNESS))
def test_robustness_files_read_the_same(monkeypatch, path):
    # every file, PENMAN or not: the same graphs or the same message
    same_outcome(monkeypatch, lambda: codec.read_penman(path))


def _unquote(target: str, role: str = "") -> tuple[str, bool]:
    # a constant's quotes are a flag in mrkit; a concept keeps them in its label
    if role != ":instance" and len(target) >= 2 and target[0] == target[-1] == '"':
        return re.sub(r"\\(.)", r"\1", target[1:-1]), True
    return target, False


def _canonical(s: str, role: str, t: str, quoted: bool) -> tuple:
    # the penman library states some inverted edges de-inverted (depending on the layout);
    # both sides are compared with every ':x-of' edge stated as ':x'
    return (t, role[:-3], s, quoted) if role.endswith("-of") else (s, role, t, quoted)


def penman_reference(text: str) -> tuple[list, list]:
    """(triples, metadata) of every graph as the penman library reads it."""
    from penman.models.noop import NoOpModel

    out_triples, out_meta = [], []
    for g in penman.iterdecode(text, model=NoOpModel()):
        out_triples.append(Counter(_canonical(s, r, *_unquote(t, r)) for s, r, t in g.triples))
        out_meta.append(dict(g.metadata))
    return out_triples, out_meta


def mrkit_triples(g) -> Counter:
    c = Counter()
    for n in g.nodes.values():
        c[_canonical(n.id, ":instance", n.label, False)] += 1
        for p in n.properties:
            c[_canonical(n.id, ":" + p.key, p.value, p.quoted)] += 1
    for e in g.edges:
        c[_canonical(e.source, ":" + e.label, e.target, False)] += 1
    return c


PENMAN_FILES = [p for p in CORPUS if p.suffix in (".amr", ".txt")]


@pytest.mark.skipif(not PENMAN_FILES, reason="shared data not available")
@pytest.mark.parametrize("path", PENMAN_FILES, ids=ids(PENMAN_FILES))
def test_triples_and_metadata_equal_the_penman_library(monkeypatch, path):
    monkeypatch.delenv("MRKIT_PURE_PENMAN", raising=False)
    try:
        graphs = codec.read_penman(path)
    except InputError:
        pytest.skip("not a well-formed PENMAN file for mrkit")
    triples, meta = penman_reference(path.read_text(encoding="utf-8-sig"))
    assert len(graphs) == len(triples)
    assert [mrkit_triples(g) for g in graphs] == triples
    assert [g.metadata for g in graphs] == meta


# ---------------------------------------------------------------------------- generated graphs

SYMBOL = st.text(st.sampled_from("abcxyz-0123456789_.+'é中😀"), min_size=1, max_size=6).filter(
    lambda s: not s.startswith("#"))
STRING_BODY = st.text(st.sampled_from('ab ~:/()#"\\é😀\t'), max_size=8)
ALIGN = st.one_of(st.just(""), st.builds(lambda p, ix: "~" + p + ",".join(map(str, ix)),
                                         st.sampled_from(["", "e.", "e", "a."]),
                                         st.lists(st.integers(0, 999), min_size=1, max_size=3)))
ROLE = st.sampled_from([":ARG0", ":ARG1", ":ARG0-of", ":mod", ":wiki", ":op1", ":name", ":x~", ":q"])
SPACE = st.sampled_from([" ", "  ", "\n  ", "\t", " \u00a0", "\n", "\r\n "])


def _quote(body: str) -> str:
    return '"' + body.replace("\\", "\\\\").replace('"', '\\"') + '"'


ASCII_SPACE = st.sampled_from([" ", "  ", "\n  ", "\t", "\n", "\r\n "])


@st.composite
def graph_text(draw, space=SPACE) -> str:
    """One PENMAN graph: a random tree written depth-first, with constants, quoted strings,
    alignments and re-entrant references to variables (defined before or after)."""
    variables = [f"v{k}" for k in range(draw(st.integers(1, 8)))]
    out = []
    open_count = 0
    placed = 0
    sp = lambda: draw(space)  # noqa: E731

    def node():
        nonlocal open_count, placed
        concept = draw(st.one_of(SYMBOL, STRING_BODY.map(_quote)))
        out.append(f"({variables[placed]}{sp()}/{sp()}{concept}{draw(ALIGN)}")
        placed += 1
        open_count += 1

    node()
    while open_count:
        choice = draw(st.integers(0, 5))
        if choice == 0 or (choice == 1 and placed == len(variables)):
            out.append(")")
            open_count -= 1
            continue
        role = draw(ROLE).replace("~", draw(ALIGN) or "")
        out.append(f"{sp()}{role}{draw(ALIGN)}{sp()}")
        if choice == 1:
            node()
        elif choice == 2:
            out.append(draw(st.sampled_from(variables)))  # a reference, maybe to a later variable
        elif choice == 3:
            out.append(_quote(draw(STRING_BODY)) + draw(ALIGN))
        else:
            out.append(draw(st.one_of(SYMBOL, st.just("-"))) + draw(ALIGN))
    meta = draw(st.lists(st.tuples(st.sampled_from(["id", "snt", "tok", "x", ""]),
                                   st.text(st.sampled_from("ab :é\t"), max_size=6)), max_size=3))
    lines = []
    if meta:
        lines.append("#" + "".join(f" ::{k} {v}" for k, v in meta))
    if draw(st.booleans()):
        lines.append("# a plain comment :: with colons")
    return "\n".join(lines + ["".join(out)])


@st.composite
def document(draw) -> str:
    graphs = draw(st.lists(graph_text(), min_size=1, max_size=3))
    seps = draw(st.lists(st.sampled_from(["\n\n", "\n", "\n \n", "\n\n\n"]),
                         min_size=len(graphs), max_size=len(graphs)))
    head = draw(st.sampled_from(["", "# AMR release (generated)\n\n", "\n"]))
    return head + "".join(g + s for g, s in zip(graphs, seps))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(document())
def test_generated_graphs_read_the_same(monkeypatch, text):
    same_outcome(monkeypatch, lambda: codec.loads(text, "gen.amr"))


STRAY = st.sampled_from(list('()/:~"#\\ \n\te.1,') + ["x", "é", "😀", "\u2028", "\x0b", "\x85", "(a / b)",
                                                      ":ARG0", "~e.", "\u00a0", "\r", "\x00"])


@st.composite
def mutated(draw) -> str:
    text = draw(document())
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 3))
        at = draw(st.integers(0, len(text)))
        if kind == 0:  # truncation
            text = text[:at]
        elif kind == 1:  # insertion of stray text
            text = text[:at] + draw(STRAY) + text[at:]
        elif kind == 2:  # deletion
            text = text[:at] + text[at + draw(st.integers(1, 3)):]
        else:  # replacement
            text = text[:at] + draw(STRAY) + text[at + 1:]
    return text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(mutated())
def test_mutated_graphs_give_the_same_outcome(monkeypatch, text):
    same_outcome(monkeypatch, lambda: codec.loads(text, "mut.amr"))


@pytest.mark.parametrize("text", [
    "(a / b :c (d / e :f (g / h)))",
    "(a / b)(c / d)",
    "(a / b) # trailing comment\n(c / d)",
    "(a / b :op1 \"x\\\"y\" :op2 \"\\\\\")",
    "(a / b :c~e.1 d~2 :e \"s\"~e.3,4,5)",
    "(a / b:c d)",
    "(a / b :c\u00a0d)",
    "(a / b :c d\u2028:e f)",
    "(a / b :c d\x0b:e f\x1c:g h)",
    "(a / b :c d\r:e f\r\n:g h)",
    "(a / b~e.1,2, :c d)",
    "(a / b :c d~e.01,002)",
    "(a / b :c d ~e.1)",
    "(a /\n b\n :c\n ~e.2\n d)",
    "# ::id x ::snt a ::b c\n# ::id y\n(a / b)",
    "# ::snt   spaced  \t\n# ::k\n# ::\n(a / b)",
    "# ::a:::b x\n(a / b)",
    "(a / \"quoted concept\"~e.1 :c a)",
    "(a / b :c (d / e :f a) :g d)",
    "(a / b :c #x)",
    "(a / b :c d#e)",
    "(a / b :c d~e1)",
    "(a / b :c d~E.1)",
    "(a / b :c \"d~1\")",
    "(a / b :c \"d\"~1a)",
])
def test_edge_cases_read_the_same(monkeypatch, text):
    same_outcome(monkeypatch, lambda: codec.loads(text, "edge.amr"))


def test_deep_nesting_is_data_not_recursion(monkeypatch):
    depth = 100_000
    text = "".join(f"(n{k} / c :ARG0 " for k in range(depth)) + "(z / end)" + ")" * depth
    monkeypatch.delenv("MRKIT_PURE_PENMAN", raising=False)
    [g] = codec.loads(text)
    assert len(g.nodes) == depth + 1 and len(g.edges) == depth
    assert compiled.read_block(text[:-1], 1, 0, "f") is None  # one ')' short: Python reports it


def test_huge_numbers_do_not_allocate():
    # an alignment index or a line count is never used as a size
    assert compiled.read_block("(a / b~e.99999999999999999999999999)", 1, 0, "f") is None
    [g] = compiled.read_block("(a / b~e.999999999)", 10**15, 0, "f")
    assert g.nodes["a"].extra["alignment"] == [999999999] and g.source_line == 10**15


def penman_alignments(g) -> dict:
    """{canonical triple: token indices} of the concept and constant alignments of a
    penman-library graph."""
    from penman import surface

    return {_canonical(s, r, *_unquote(t, r)): list(a.indices) for (s, r, t), a in surface.alignments(g).items()}


def mrkit_alignments(g) -> dict:
    out = {}
    for n in g.nodes.values():
        if "alignment" in n.extra:
            out[_canonical(n.id, ":instance", n.label, False)] = n.extra["alignment"]
        for k, align in n.extra.get("property_alignments", {}).items():
            p = n.properties[k]
            out[_canonical(n.id, ":" + p.key, p.value, p.quoted)] = align
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(graph_text(space=ASCII_SPACE))  # the library's whitespace is not Python's str whitespace
def test_generated_graphs_mean_what_the_penman_library_reads(monkeypatch, text):
    # the compiled path against the library: triples, metadata and alignments of every
    # graph mrkit accepts (triples written twice are left out of the alignment check:
    # the library keeps the alignment of one of them)
    from penman.models.noop import NoOpModel

    monkeypatch.delenv("MRKIT_PURE_PENMAN", raising=False)
    try:
        [g] = codec.loads(text)
    except InputError:
        return
    [ref] = penman.iterdecode(text, model=NoOpModel())
    triples = mrkit_triples(g)
    assert triples == Counter(_canonical(s, r, *_unquote(t, r)) for s, r, t in ref.triples)
    assert g.metadata == ref.metadata
    once = {t for t, k in triples.items() if k == 1}
    ours = {t: a for t, a in mrkit_alignments(g).items() if t in once}
    theirs = {t: a for t, a in penman_alignments(ref).items() if t in once}
    assert ours == theirs
