"""The compiled scanner's fast path against its reference (codecs/_cut.c, issue 14).

``_cut.scan`` (ASCII lines found 64 bytes at a time, UTF-8 validated only from a line's
first byte that is not ASCII, graph text searched 16 bytes at a time for '"', '#', '(' and
')', "::id" looked for once per piece) must give exactly what ``_cut.scan_reference`` (the
scanner as first written, every line read byte by byte) gives: ``==`` on the units, the
state tuple and the status of every call, for any split of the input into pieces (the
state carries from one call to the next), with ``graphs`` true and false, and with
``vector`` false too (the byte loops that builds without SSE2 run).

Inputs: every file under ../shared/data/amr and ../shared/data/robustness, whole and cut
into pieces at line ends; hypothesis-generated PENMAN-like text (graphs, comments with
``::id``, strings with escapes, ``::id`` and parentheses inside, several graphs per block,
graphs closing mid-line followed by '(' or '#', stray ')', every ASCII whitespace, blank
lines of whitespace, a byte order mark, valid and invalid non-ASCII bytes, lines without a
final newline), and arbitrary bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED

_cut = pytest.importorskip("mrkit.codecs._cut", reason="the compiled scanner is not built")


def _calls(fn, pieces: list[bytes], graphs: bool, *extra) -> list[tuple[bytes, tuple, int]]:
    """(units, state, status) of each call over the pieces, as penman_units calls it: the
    offset of each piece in the file, the state of the previous call, ``final`` for the last
    piece; a call with a status other than 0 is the last."""
    out, state, offset = [], None, 0
    for i, piece in enumerate(pieces):
        units, state, status = fn(piece, offset, state, i == len(pieces) - 1, graphs, *extra)
        out.append((units, state, status))
        offset += len(piece)
        if status:
            break
    return out


def _same(pieces: list[bytes], label: str = "") -> None:
    for graphs in (True, False):
        ref = _calls(_cut.scan_reference, pieces, graphs)
        for vector in (True, False):
            got = _calls(_cut.scan, pieces, graphs, vector)
            assert got == ref, (label, graphs, vector, [len(p) for p in pieces])


def _at_line_ends(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut after the lines numbered in ``cuts`` (every piece but the last ends with
    '\\n'; an empty piece where two cuts meet, or at the end as a reader meeting the end of
    the file after a full window gives it)."""
    parts = data.split(b"\n")
    lines = [line + b"\n" for line in parts[:-1]] + [parts[-1]]
    pieces, prev = [], 0
    for c in sorted(min(c, len(lines)) for c in cuts):
        pieces.append(b"".join(lines[prev:c]))
        prev = c
    pieces.append(b"".join(lines[prev:]))
    return pieces


def _shared_files() -> list[Path]:
    files = []
    for sub in ("amr", "robustness"):
        root = SHARED / sub
        if root.exists():
            files += sorted(p for p in root.rglob("*") if p.is_file())
    return files


@pytest.mark.shared_data
def test_shared_files_whole_and_in_pieces():
    files = _shared_files()
    if not files:
        pytest.skip("shared data not available")
    rng = random.Random(14)
    for path in files:
        data = path.read_bytes()
        _same([data], str(path))
        n = data.count(b"\n")
        for _ in range(3):
            cuts = [rng.randint(0, n + 1) for _ in range(rng.randint(1, 40))]
            _same(_at_line_ends(data, cuts), str(path))
        _same(_at_line_ends(data, list(range(n + 1))), str(path))  # a line per piece


def test_the_shared_files_are_cut_in_place():
    """Not a fixture-only check: the fast path runs on real corpora (the units and the
    status of LP hold several hundred graphs; nothing declined)."""
    path = SHARED / "amr" / "little-prince" / "amr-bank-struct-v1.6.txt"
    if not path.exists():
        pytest.skip("shared data not available")
    units, _, status = _cut.scan(path.read_bytes(), 0, None, True, True)
    assert status == 0 and len(units) // 24 == 1562


GRAPH_PARTS = [
    "(a / b)", "(a / b\n  :ARG0 (c / d))", "(x / say-01 :ARG1 \"a (quoted) #text\" :polarity -)",
    "(a / b :op1 \"q\\\"x)\")", "(a / b\n:ARG1 (c / d\n :mod (e / f)))", "(e / é\n  :wiki -)",
    "(a / b~e.1 :ARG0~e.2 (c / d~e.3))", "(n / name :op1 \"::id x\" :op2 \"\\::id\")",
    "(s / see-01 :ARG0 (p / person :name (n / name :op1 \"Zoë\" :op2 \"中文\")))",
    "(a / b :ARG1 (c / d :ARG2 (e / f :ARG3 (g / h :ARG4 (i / j :ARG5 (k / l))))))",
    "(a / b :mod \"\\\\\" :op1 \"x ::id y\")", "(a / b\t:ARG0\x0b(c / d))\x0c",
    "(a / b :ARG0 (c / d)) (e / f)", "(a / b) # ::id tail", "(a / b))", "(a / b", "(a / \"open",
    "(a / b #x)", "stray text", ")", "(a / b :ARG0 ::id)", "(a /  b)\u3000(c / d)", "(a / b)\x85# c",
    "  (a / b\r\n  :ARG0 (c / d))\r", "(a / b :op1 \"" + "long " * 9 + "\")",
    "(" + "v / verb-01 :ARG0 " * 4 + "(x / y)" + ")" * 4,
]
COMMENT_PARTS = [
    "# ::id g{n}", "# ::snt a sentence ::id x{n}", "# plain comment", "# ::id", "# ::id  spaced{n}",
    "# ::id a ::id b{n}", "# ::id q::r", "#::id tight{n}", "# ::zh 中文句子{n}", "# ::snt é ::id é{n}",
    "\t# ::id tab{n}", "# ::id\t{n}", "# ::save-date Sat Jun 1 ::file lpp_1943_{n}.txt",
]
SEPARATORS = ["\n", "\n", "\n\n", "\n \n", "", " ", "\n\t\n", "\n\r\n", "\n\x0b\x0c\x1c\n", "\n\u3000\n",
              "\n# trailing ::id t\n", "\n# trailing\n", "\r\n", "\n\n\n"]


@st.composite
def penman_like(draw) -> bytes:
    parts = []
    for n in range(draw(st.integers(1, 8))):
        pre = draw(st.lists(st.sampled_from(COMMENT_PARTS), max_size=3))
        graph = draw(st.sampled_from(GRAPH_PARTS))
        parts.append("\n".join([c.format(n=n) for c in pre] + [graph]) + draw(st.sampled_from(SEPARATORS)))
    data = "".join(parts).encode("utf-8")
    if draw(st.booleans()):
        data = data.replace(b"\n", b"\r\n")
    if draw(st.integers(0, 3)) == 0:
        data = b"\xef\xbb\xbf" + data
    if draw(st.booleans()):
        data = data.rstrip(b"\r\n")
    if draw(st.integers(0, 5)) == 0:  # a byte that is not UTF-8 (or a sequence that is) somewhere
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe0\x80\x80", b"\xf4\x90\x80\x80",
                                    b"\xc0\xaf", b"\xe2\x82", b"\xf0\x9f\x98\x80", b"\xc2\x85"]))
        data = data[:at] + bad + data[at:]
    return data


@settings(max_examples=600, deadline=None)
@given(data=penman_like(), cuts=st.lists(st.integers(0, 60), max_size=6))
def test_generated_penman(data, cuts):
    _same([data])
    _same(_at_line_ends(data, cuts))


FRAGMENTS = [b"(", b")", b"(a / b", b" :ARG0 ", b":op1 \"x\"", b"\"a (b) # c\"", b"\"esc \\\" q\"", b"\"::id s\"",
             b"\"\\::id\"", b"::id", b":", b"::", b"# ::id g1", b"#", b" ", b"\t", b"\r", b"\x0b", b"\x0c", b"\x1c",
             b"\x1f", b"\x00", b"\xc3\xa9", b"\xe3\x80\x80", b"\xc2\x85", b"\xc2\xa0", b"\xe4\xb8\xad\xe6\x96\x87",
             b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\\", b"\"", b"a" * 20, b" " * 17, b"x"]


@settings(max_examples=600, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=14).map(b"".join), max_size=20),
       final=st.booleans(), cuts=st.lists(st.integers(0, 25), max_size=5))
def test_generated_lines(lines, final, cuts):
    """Lines of fragments in any order: stray parentheses, quotes, colons, every
    whitespace, valid and invalid UTF-8, long runs (the 8-, 16- and 64-byte steps)."""
    data = b"\n".join(lines) + (b"\n" if final else b"")
    _same([data])
    _same(_at_line_ends(data, cuts))


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=300), cut=st.integers(0, 300))
def test_arbitrary_bytes_and_cuts(data, cut):
    """Any bytes, and a first piece that does not end at a line end (an unfinished line:
    both scanners leave it to the next call)."""
    _same([data])
    _same([data[:cut], data[cut:]])


def test_vector_argument_is_optional_and_state_checked():
    assert _cut.scan(b"(a / b)\n", 0, None, True, True)[0] == _cut.scan_reference(b"(a / b)\n", 0, None, True, True)[0]
    with pytest.raises(ValueError):
        _cut.scan(b"(a / b)\n", 0, (1, 2), True, True)


@pytest.mark.parametrize("indent", [0, 3, 8, 17])
def test_line_lengths_around_the_block_sizes(indent):
    """Graph, comment and blank lines of every length from 0 to 140 bytes (the 8-, 16-, 32-
    and 64-byte steps and their ends), at the end of a piece too (the bytes after the last
    one are not the scanner's to read: with PYTHONMALLOC=malloc, AddressSanitizer sees it)."""
    pad = b" " * indent
    for n in range(141):
        for line in (pad + b"(" * (n > 0) + b"x" * max(n - 2, 0) + b")" * (n > 1),
                     pad + b":ARG0 (" + b"y" * n, pad + b"# ::snt " + b"z" * n, pad + b"# " + b"w" * n + b" ::id q",
                     pad + b" " * n, pad + b"\"" + b"s" * n, pad + b"(a / \xc3\xa9" + b"e" * n + b")"):
            for data in (b"(a / b\n" + line, b"(a / b\n" + line + b"\n", line, b"# ::id k\n" + line + b"\n\n(c / d)"):
                _same([data], repr(line))
