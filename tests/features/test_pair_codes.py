"""The int64 codes of many pairs of PENMAN blocks (features/_triples.c ``pair_codes``,
through :func:`mrkit.features.triples.pair_codes`) hold exactly the triples of
:func:`mrkit.features.triples.block_triples` -- the same numbers of nodes, instances,
attributes, relations and tops, in the same order, with every string replaced by a number:
equal numbers exactly for equal strings (``""`` is 0, a role is ``":" + role``) -- and the
gold block's id; a pair with a block ``block_triples`` leaves to the general path is
refused.  On every shared AMR file (each block against the next), the robustness files and
generated graphs.  The same codes from the files' bytes (``pair_codes_units``: blocks as
byte ranges) as from the decoded blocks."""

from __future__ import annotations

from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from penman_graphs import graphs
from mrkit.codecs.penman import iter_blocks
from mrkit.errors import InputError
from mrkit.features.triples import _pair_codes, block_triples, pair_codes, pair_codes_units
from mrkit.model.amr import NON_INVERTED_OF

pytestmark = pytest.mark.skipif(_pair_codes() is None, reason="compiled reader not built")

KEEPS = (NON_INVERTED_OF, frozenset())


def decode(codes: bytes, pairs: int) -> list:
    """Per pair (gold, system), each None (refused) or (n, instances, attributes,
    relations, tops) with string numbers."""
    a = array("q")
    a.frombytes(codes)
    p, out = 0, []
    for _ in range(pairs):
        pair = []
        for _side in (0, 1):
            n, ni, na, nr, nt = a[p:p + 5]
            p += 5
            inst = [tuple(a[p + 2 * k:p + 2 * k + 2]) for k in range(ni)]
            p += 2 * ni
            attr = [tuple(a[p + 3 * k:p + 3 * k + 3]) for k in range(na)]
            p += 3 * na
            rel = [tuple(a[p + 3 * k:p + 3 * k + 3]) for k in range(nr)]
            p += 3 * nr
            tops = list(a[p:p + nt])
            p += nt
            pair.append(None if n < 0 else (n, inst, attr, rel, tops))
        out.append(pair)
    assert p == len(a)
    return out


def check(golds: list[str], systems: list[str], keep) -> int:
    """Compare pair_codes with block_triples; the number of pairs coded."""
    ids, codes, refused = pair_codes(golds, systems, keep)
    decoded = decode(codes, len(golds))
    number: dict[str, int] = {"": 0}   # string -> its number, checked to be a bijection
    taken: dict[int, str] = {0: ""}

    def same(s: str, x: int):
        assert number.setdefault(s, x) == x, (s, x)
        assert taken.setdefault(x, s) == s, (s, x)

    coded = 0
    for k, (g, s) in enumerate(zip(golds, systems)):
        tg, ts = block_triples(g, keep), block_triples(s, keep)
        if tg is None or ts is None:
            assert k in refused and decoded[k] == [None, None] and ids[k] is None
            continue
        assert k not in refused
        coded += 1
        assert ids[k] == tg[0]
        for (_, t), d in zip((tg, ts), decoded[k]):
            n, inst, attr, rel, tops = d
            assert n == len(t.variables) and tops == t.tops
            assert [i for i, _ in inst] == [i for i, _ in t.instances]
            assert [(i, j) for i, _, j in rel] == [(i, j) for i, _, j in t.relations]
            for (_, c), (_, x) in zip(t.instances, inst):
                same(c, x)
            for (i, r, v), (_, xr, xv) in zip(t.attributes, attr):
                same(":" + r, xr)
                same(v, xv)
            for (_, r, _), (_, xr, _) in zip(t.relations, rel):
                same(":" + r, xr)
            assert [i for i, _, _ in attr] == [i for i, _, _ in t.attributes]
    return coded


def _amr_files(base):
    return sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in (".amr", ".txt", ".penman")
                  and "README" not in p.name)


def _blocks(path) -> list[str]:
    return [text for _, text in iter_blocks(str(path), str(path))]


def test_every_shared_amr_file_codes_to_the_same_triples():
    files = _amr_files(shared_path("amr"))
    assert len(files) > 20
    coded = 0
    for path in files:
        blocks = _blocks(path)
        if len(blocks) < 2:
            continue
        for keep in KEEPS:
            coded += check(blocks[:-1], blocks[1:], keep)
    assert coded > 10_000


def test_robustness_files_code_to_the_same_triples():
    base = shared_path("robustness")
    files = sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in (".amr", ".txt", ".penman"))
    assert files
    for path in files:
        try:
            blocks = _blocks(path)
        except Exception:  # unreadable files are the block cutter's business
            continue
        if blocks:
            for keep in KEEPS:
                check(blocks, blocks[::-1], keep)


def test_refused_and_empty():
    ids, codes, refused = pair_codes(["(x / y)", "(x / y) (z / w)", "# ::id a\n(a / b :ARG0-of (c / d))"],
                                     ["(x / y :mod \":mod\")", "(x / y)", "(q / b)"])
    assert refused == [1] and ids == [None, None, "a"]
    assert pair_codes([], [], NON_INVERTED_OF)[1] == b""
    with pytest.raises(ValueError):
        pair_codes(["(x / y)"], [], NON_INVERTED_OF)


def test_variables_of_other_graphs_are_constants_here():
    """Variable names are interned once per call (session 28): a name that is a variable
    of another graph of the call, before or after, is a constant in a graph that does not
    define it; a name defined twice in one graph is still refused; long names and names
    that end where the block ends (no whole 8-byte word after them) read the same."""
    golds = ["(x / a :mod (long-variable-name-1 / b))", "(q / a :mod x :ARG0 long-variable-name-1)",
             "(x / a :ARG0 (x / b))", "(x2 / VeryLongConceptNameWithCapitals-01 :mod X)", "(X / a :mod x)"]
    systems = ["(x / a :mod x)", "(x / a :mod q)", "(q / a)", "(x2 / b :mod x2)", "(X / A :mod X)"]
    for keep in KEEPS:
        assert check(golds, systems, keep) == 4
    ids, codes, refused = pair_codes(golds, systems, NON_INVERTED_OF)
    assert refused == [2]
    d = decode(codes, len(golds))
    assert len(d[1][0][2]) == 2 and d[1][0][3] == []   # gold 1: x and long-variable-name-1 are constants
    assert d[0][1][3] == [(0, d[0][1][3][0][1], 0)]   # system 0: x names its own node


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(graphs(extra=4), graphs(extra=4)), min_size=1, max_size=5))
def test_generated_graphs_code_to_the_same_triples(pairs):
    for keep in KEEPS:
        check([a for a, _ in pairs], [b for _, b in pairs], keep)


# ---------------------------------------------------------------- from the files' bytes


def _units_and_texts(path):
    """(the file's bytes, its units (int64 triples), the decoded block texts)."""
    from mrkit.codecs.penman_units import unit_pieces

    data = path.read_bytes()
    units = b"".join(u for _, _, u in unit_pieces(path, str(path), False))
    a = memoryview(units).cast("q")
    texts = [data[a[i]:a[i + 1]].decode("utf-8") for i in range(0, len(a), 3)]
    return data, units, texts


def check_units(data: bytes, gunits: bytes, sunits: bytes, gtexts: list, stexts: list, keep):
    """pair_codes_units of byte ranges == pair_codes of their decoded texts."""
    got = pair_codes_units((data, 0, gunits), (data, 0, sunits), keep)
    assert got == pair_codes(gtexts, stexts, keep)
    return got


def test_units_code_as_the_decoded_blocks_on_every_shared_file():
    from mrkit.codecs.penman_units import CutDeclined

    root = shared_path()
    files = _amr_files(root / "amr") + sorted(p for p in (root / "robustness").rglob("*") if p.is_file()
                                               and p.suffix in (".amr", ".txt", ".penman"))
    coded = 0
    for path in files:
        try:
            data, units, texts = _units_and_texts(path)
        except (CutDeclined, InputError):
            continue
        if len(texts) < 2:
            continue
        for keep in KEEPS:
            ids, codes, refused = check_units(data, units[:-24], units[24:], texts[:-1], texts[1:], keep)
            coded += len(ids) - len(refused)
    assert coded > 20_000


def test_units_with_an_offset_and_bytes_that_are_not_ascii():
    blocks = ["(a / b :ARG0 (c / γ-Protein :mod \"Ωmega\"))\n", "# ::id é1\n(x / y :ARG0-of (z / w))\n",
              "(p / q :polarity -)\n", "(a / b)(c / d)\n"]
    data = b"\xef\xbb\xbfhead\n" + "\n".join(blocks).encode("utf-8")
    at, triples = data.index(b"(a"), []
    for text in blocks:
        raw = text.encode("utf-8")
        triples += [at, at + len(raw), 0]
        at += len(raw) + 1
    units = array("q", triples).tobytes()
    rev = array("q", [x for i in range(len(triples) - 3, -1, -3) for x in triples[i:i + 3]]).tobytes()
    for keep in KEEPS:
        want = pair_codes(blocks, blocks[::-1], keep)
        assert want[2] == [0, 3]   # "(a / b)(c / d)": two graphs, refused
        assert pair_codes_units((data, 0, units), (data, 0, rev), keep) == want
        assert pair_codes_units((data[5:], 5, units), (memoryview(data), 0, rev), keep) == want
    with pytest.raises(ValueError):
        pair_codes_units((data[10:], 10, units), (data, 0, rev), NON_INVERTED_OF)   # outside its piece
    with pytest.raises(ValueError):
        pair_codes_units((data, 0, units), (data, 0, rev[:-24]), NON_INVERTED_OF)
    assert pair_codes_units((b"", 0, b""), (b"", 0, b""), NON_INVERTED_OF) == ([], b"", [])
    # bytes that are not UTF-8 (the scanner never hands them out): refused, not an error
    bad = b"(a / \xff)\n"
    assert pair_codes_units((bad, 0, array("q", [0, len(bad), 1]).tobytes()),
                            (bad, 0, array("q", [0, len(bad), 1]).tobytes()), NON_INVERTED_OF)[2] == [0]


def test_parts_of_a_buffer_are_tested_for_ascii_on_their_own_bytes():
    """pair_codes_units looks for bytes that are not ASCII only where its units lie (the
    read-ahead of ``score`` codes parts of a window that holds the whole file): every part
    of a buffer whose other blocks are not ASCII -- ASCII blocks only, one that is not,
    units out of order -- codes as the decoded texts of its blocks."""
    blocks = ["(a / b :ARG0 (c / γ-Protein))\n", "(x / y :ARG0-of (z / w))\n", "(p / q :polarity -)\n",
              "# ::id é4\n(m / n :mod \"Ωmega\")\n", "(w / want-01 :ARG0 (b / boy))\n", "(e / é)\n"]
    data = "\n".join(blocks).encode("utf-8")
    spans, at = [], 0
    for text in blocks:
        raw = text.encode("utf-8")
        spans.append((at, at + len(raw)))
        at += len(raw) + 1
    parts = [[1, 2], [1, 2, 4], [2, 3], [4, 3, 2], [0, 1], [4], [5, 1], [2, 4, 1]]
    for keep in KEEPS:
        for part in parts:
            units = array("q", [x for k in part for x in (*spans[k], 1)]).tobytes()
            texts = [blocks[k] for k in part]
            assert pair_codes_units((data, 0, units), (data, 0, units), keep) == pair_codes(texts, texts, keep), part


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(graphs(extra=4), graphs(extra=4)), min_size=1, max_size=5))
def test_generated_graphs_code_from_bytes_as_from_text(pairs):
    texts = [t for pair in pairs for t in pair]
    data, triples, at = b"", [], 0
    for t in texts:
        raw = (t + "\n").encode("utf-8")
        triples.append((at, at + len(raw)))
        data += raw + b"\n"
        at += len(raw) + 1
    g = array("q", [x for s, e in triples[0::2] for x in (s, e, 1)]).tobytes()
    s = array("q", [x for s, e in triples[1::2] for x in (s, e, 1)]).tobytes()
    for keep in KEEPS:
        check_units(data, g, s, [t + "\n" for t in texts[0::2]], [t + "\n" for t in texts[1::2]], keep)


# ---------------------------------------------------------------- without the GIL


def test_units_coded_on_two_threads_at_once_as_on_one():
    """pair_codes_units lets go of the GIL (issue 14: the coded path codes two halves of a
    batch on two threads): calls running at the same time on other threads, on ASCII
    blocks and on blocks that are not ASCII (which take the GIL back), with ids, refused
    pairs and inverted roles, give what one call at a time gives."""
    from mrkit.runtime.threads import both

    blocks = ["# ::id a1\n(a / b :ARG0 (c / d) :ARG1-of (e / f))\n", "(a / b :ARG0 (c / γ-Protein :mod \"Ω\"))\n",
              "# ::snt x\n# ::id é2\n(x / y :ARG0-of (z / w))\n", "(p / q :polarity -)\n", "(a / b)(c / d)\n",
              "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :consist-of g))\n"] * 40
    data, triples, at = b"", [], 0
    for text in blocks:
        raw = text.encode("utf-8")
        triples += [at, at + len(raw), 0]
        data += raw + b"\n"
        at += len(raw) + 1
    units = array("q", triples).tobytes()
    rev = array("q", [x for i in range(len(triples) - 3, -1, -3) for x in triples[i:i + 3]]).tobytes()
    half = len(units) // 2 // 24 * 24
    for keep in KEEPS:
        runs = [((data, 0, units[:half]), (data, 0, rev[:half])), ((data, 0, units[half:]), (data, 0, rev[half:]))]
        want = [pair_codes_units(*r, keep) for r in runs]
        assert want[0][2] and want[0][0][0] == "a1"  # refused pairs and ids, not vacuous
        for _ in range(20):
            assert list(both(lambda: pair_codes_units(*runs[0], keep), lambda: pair_codes_units(*runs[1], keep))) \
                == want
