"""The compiled triples of one PENMAN block (features/_triples.c ``block_triples``, through
:func:`mrkit.features.triples.block_triples`) are exactly the general path's
``triples(parse_block(...)[0], keep)`` -- variables, instances, attributes, relations and
tops, in the same order -- and the block's id is the graph's: on every block of the shared
AMR files, the robustness files and generated graphs.  Whatever the compiled reader does not
take gives None (the caller then parses the block)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from penman_graphs import graphs
from mrkit.codecs.penman import iter_blocks, parse_block
from mrkit.errors import InputError
from mrkit.features.triples import _block_triples, block_triples, triples
from mrkit.model.amr import NON_INVERTED_OF

pytestmark = pytest.mark.skipif(_block_triples() is None, reason="compiled reader not built")

KEEPS = (NON_INVERTED_OF, frozenset())


def _fields(t):
    return t.variables, t.instances, t.attributes, t.relations, t.tops


def check_file(path) -> tuple[int, int]:
    """(blocks read by the compiled reader, blocks left to the general one)."""
    fast = slow = 0
    index = 0
    for start, text in iter_blocks(str(path), str(path)):
        try:
            graphs = parse_block(start, text, str(path), index)
        except InputError:
            graphs = None
        for keep in KEEPS:
            got = block_triples(text, keep)
            if got is None:
                slow += 1
                continue
            fast += 1
            assert graphs is not None and len(graphs) == 1, (path, start)
            assert _fields(got[1]) == _fields(triples(graphs[0], keep)), (path, start)
            assert (str(index + 1) if got[0] is None else got[0]) == graphs[0].id
        index += len(graphs) if graphs else 1
    return fast, slow


def _amr_files(base):
    return sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in (".amr", ".txt", ".penman")
                  and "README" not in p.name)


def test_every_shared_amr_file_reads_to_the_same_triples():
    files = _amr_files(shared_path("amr"))
    assert len(files) > 20
    fast = 0
    for path in files:
        try:
            fast += check_file(path)[0]
        except InputError:  # a file the general reader refuses as a whole (not UTF-8...)
            continue
    assert fast > 40_000  # not vacuous: the compiled reader takes the common case


def test_robustness_files_read_to_the_same_triples():
    files = _amr_files(shared_path("robustness"))
    assert files
    for path in files:
        try:
            check_file(path)
        except InputError:
            continue


def test_unusual_blocks_are_left_to_the_general_reader():
    assert block_triples("(a / b) (c / d)") is None  # two graphs
    assert block_triples("(a / b :x)") is None  # an error
    assert block_triples("(a / b :ARG0 (a / c))") is None  # a variable defined twice
    # a node with no role before it (a crash, then triples of a malformed graph, before
    # session 28): penman says "expected a role or ')' but found '('"
    assert block_triples("(a / b (c / d))") is None
    assert block_triples("(a / b :x (e / f) (c / d))") is None
    assert block_triples("(a / b :x (e / f) :y (c / d))") is not None
    gid, t = block_triples("# ::id x1\n(w / Want-01 :ARG0 (b / boy) :ARG1-of (g / go-02 :ARG0 b)"
                           " :polarity - :polarity -)")
    assert gid == "x1"
    assert t.variables == ["w", "b", "g"]
    assert t.instances == [(0, "want-01"), (1, "boy"), (2, "go-02")]
    assert t.attributes == [(0, "polarity", "-")]
    assert t.relations == [(0, "arg0", 1), (2, "arg1", 0), (2, "arg0", 1)]
    assert t.tops == [0]
    assert block_triples("(c / consist-01 :consist-of (d / dog))")[1].relations == [(0, "consist-of", 1)]
    assert block_triples("(c / consist-01 :consist-of (d / dog))", frozenset())[1].relations == [(1, "consist", 0)]


# ------------------------------------------------------------------ generated graphs

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(extra=4))
def test_generated_graphs_read_to_the_same_triples(text):
    graphs_ = parse_block(1, text, "g.amr", 0)
    for keep in KEEPS:
        got = block_triples(text, keep)
        if got is None:
            continue
        assert len(graphs_) == 1
        assert _fields(got[1]) == _fields(triples(graphs_[0], keep))
        assert ("1" if got[0] is None else got[0]) == graphs_[0].id
