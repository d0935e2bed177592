"""The compiled scanner (codecs/_cut.c, codecs/penman_units.py) cuts a PENMAN file into the
units the Smatch pipeline pairs: without ``graphs`` exactly the content blocks of
``iter_block_lists``; with ``graphs`` one unit per graph even where graphs are not separated
by blank lines, each parsing to the graph, id, metadata and line number that today's
graph-by-graph reader (``iter_amr_graphs``: whole blocks) gives, and to the same error.

Differential: every PENMAN file of ../shared/data (amr, docamr, robustness) as it is, with
its blank lines removed, and with Windows line ends and no final newline as well; and
hypothesis-generated files (graphs on one or several lines, comments and ``::id`` lines
before, between and after graphs, a graph or comment following a ')' on its line, strings
holding parentheses and '#', stray text, errors)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from mrkit.codecs import penman_units as U
from mrkit.codecs.penman import iter_block_lists, parse_block
from mrkit.errors import InputError
from mrkit.pipeline.amr import iter_amr_graphs

pytestmark = pytest.mark.skipif(not U.available(), reason="compiled scanner not built")


def _key(g) -> tuple:
    nodes = sorted((n.id, n.label, tuple(n.properties)) for n in g.nodes.values())
    edges = [(e.source, e.target, e.label) for e in g.edges]
    return (g.id, g.source_line, tuple(sorted(g.metadata.items())), tuple(g.tops), tuple(nodes), tuple(edges))


def _reference(path: Path):
    """Graph by graph, as the general path reads them."""
    try:
        return [_key(g) for g in iter_amr_graphs(str(path), "amr")], None
    except InputError as exc:
        return None, str(exc)


def _by_units(path: Path):
    """Unit by unit, as the workers of the Smatch pipeline parse them; ``declined`` when the
    scanner hands the file back (the pipeline then reads it graph by graph)."""
    out, k, units, multi = [], 0, 0, 0
    try:
        for line, text in U.iter_units(path, str(path)):
            graphs = parse_block(line, text, str(path), k)
            k += len(graphs)
            units += 1
            multi += len(graphs) > 1
            out.extend(_key(g) for g in graphs)
    except U.CutDeclined:
        return "declined", None, units, multi
    except InputError as exc:
        return None, str(exc), units, multi
    return out, None, units, multi


def _check(path: Path, expect_cut: bool = False) -> str:
    ref, ref_err = _reference(path)
    got, got_err, units, multi = _by_units(path)
    if got == "declined":
        assert not expect_cut, f"{path}: scanner declined"
        return "declined"
    if ref_err is not None:
        assert got_err == ref_err, path
        return "error"
    assert got_err is None, (path, got_err)
    assert got == ref, path
    if expect_cut:
        assert multi == 0, f"{path}: {multi} units hold several graphs"
        assert units == len(ref)
    return "ok"


def _no_blank_lines(text: str) -> str:
    return re.sub(r"\n[ \t\r]*(?=\n)", "", text)


def _shared_penman() -> list[Path]:
    root = shared_path()
    files = []
    for sub in ("amr", "docamr", "robustness"):
        for p in sorted((root / sub).rglob("*")):
            if p.is_file() and p.suffix in (".amr", ".txt", ".penman") and p.stat().st_size < 4_000_000:
                files.append(p)
    return files


def test_blocks_mode_is_iter_block_lists(monkeypatch):
    monkeypatch.setattr(U, "WINDOW", 1 << 16)  # several windows per file: the state carries
    for p in _shared_penman():
        try:
            ref = [b for blocks in iter_block_lists(p, content_only=True) for b in blocks]
        except InputError:
            ref = None
        try:
            got = list(U.iter_units(p, graphs=False))
        except U.CutDeclined:
            got = None  # not UTF-8: the general reader reports it
        assert got == ref, p


def test_shared_files_without_blank_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(U, "WINDOW", 1 << 18)
    seen = {"ok": 0, "error": 0, "declined": 0}
    for p in _shared_penman():
        raw = p.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        seen[_check(p)] += 1
        variants = {"noblank": _no_blank_lines(text),
                    "noblank-crlf-nofinal": _no_blank_lines(text).replace("\n", "\r\n").rstrip("\r\n")}
        for name, body in variants.items():
            q = tmp_path / f"{p.stem}.{name}.amr"
            q.write_bytes(body.encode("utf-8"))
            seen[_check(q)] += 1
    assert seen["ok"] > 50 and seen["error"] >= 2  # the robustness files fail, the same way


def test_sick_joined_without_final_newline_is_cut(tmp_path):
    """SICK concatenated with `cat` (its last graph has no final newline, so the next
    copy's `# ::id` comment follows a ')' on the same line): one unit per graph."""
    src = shared_path("amr/bamboo/sick/main_src.test.amr").read_bytes()
    q = tmp_path / "joined.amr"
    q.write_bytes(src * 3)
    assert _check(q, expect_cut=True) == "ok"


GRAPHS = ["(a / b)", "(a / b\n  :ARG0 (c / d))", "(x / say-01 :ARG1 \"a (quoted) #text\" :polarity -)",
          "(a / b :op1 \"q\\\"x)\")", "(a / b\n:ARG1 (c / d\n :mod (e / f)))", "(a / b :ARG0 a)",
          "(e / é\n  :wiki -)", "(a / b~e.1 :ARG0~e.2 (c / d~e.3))"]
BROKEN = ["(a / b", "(a / b))", "(a b)", "(a / b :ARG0)", "stray text", "(a / b #x)", "(a / \"open)"]
COMMENTS = ["# ::id g{n}", "# ::snt a sentence ::id x{n}", "# plain comment", "# ::id", "# ::id  spaced{n}",
            "# ::id a ::id b{n}", "# ::id q::r", "#::id tight{n}"]


@st.composite
def penman_files(draw):
    parts = []
    for n in range(draw(st.integers(1, 6))):
        pre = draw(st.lists(st.sampled_from(COMMENTS), max_size=2))
        graph = draw(st.sampled_from(GRAPHS + BROKEN) if draw(st.integers(0, 9)) == 0 else st.sampled_from(GRAPHS))
        lines = [c.format(n=n) for c in pre] + [graph]
        sep = draw(st.sampled_from(["\n", "\n", "\n\n", "\n \n", "", " ", "\n# trailing ::id t\n", "\n# trailing\n"]))
        parts.append("\n".join(lines) + sep)
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=penman_files(), window=st.sampled_from([8, 64, 1 << 20]))
def test_generated_files(text, window, tmp_path, monkeypatch):
    monkeypatch.setattr(U, "WINDOW", window)
    p = tmp_path / "g.amr"
    p.write_bytes(text.encode("utf-8"))
    _check(p)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.lists(st.sampled_from(list(" \t\r\x0b\x0c\x1c#(a)") + ["        ", "é", "\x85", "\u3000"]),
                              max_size=12).map("".join), max_size=25),
       window=st.sampled_from([1, 8, 64, 1 << 20]))
def test_blocks_mode_of_generated_lines(lines, window, tmp_path):
    """Blocks only (graphs false, the coded path's scan): the blocks of iter_block_lists
    for lines of spaces, tabs, other whitespace, '#', text and non-ASCII characters, in
    windows of every size (pieces that are all ASCII take the scanner's tight loop, the
    others its general one, and the state carries from one to the other)."""
    p = tmp_path / "g.amr"
    p.write_bytes("\n".join(lines).encode("utf-8"))
    try:
        ref = [b for blocks in iter_block_lists(p, content_only=True) for b in blocks]
    except InputError:
        ref = None
    got = []
    for piece, offset, units in U.unit_pieces(p, str(p), False, window):
        a = memoryview(units).cast("q")
        for i in range(0, len(a), 3):
            got.append((a[i + 2], bytes(piece[a[i] - offset:a[i + 1] - offset]).decode("utf-8")))
    assert got == ref


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 8), pre=st.sampled_from(["", "# ::id g{k}\n", "# ::id g{k}\n# ::snt s\n"]),
       join=st.sampled_from(["\n", "\r\n", "", " "]), final=st.booleans(), window=st.sampled_from([16, 1 << 20]))
def test_clean_graphs_are_cut_one_per_unit(n, pre, join, final, window, tmp_path, monkeypatch):
    """Well-formed graphs one after the other (no blank line; a comment or the next graph
    right after a ')'), with ids before each or none at all: never declined, one unit each."""
    monkeypatch.setattr(U, "WINDOW", window)
    text = join.join(pre.format(k=k) + GRAPHS[k % len(GRAPHS)] for k in range(n)) + ("\n" if final else "")
    p = tmp_path / "c.amr"
    p.write_bytes(text.encode("utf-8"))
    assert _check(p, expect_cut=True) == "ok"


def test_not_utf8_is_declined(tmp_path):
    p = tmp_path / "bad.amr"
    p.write_bytes(b"(a / b)\n\n# \xff\n(c / d)\n")
    with pytest.raises(U.CutDeclined):
        list(U.iter_units(p))


def test_first_graph_without_id_before_one_with_id_is_declined(tmp_path):
    """Read whole by penman.py's Python parser (the fallback of the compiled reader), the
    block's first graph takes the first ``# ::id`` of the block, the later graph's: cut, it
    could not.  The scanner hands such a file back to the graph-by-graph path."""
    p = tmp_path / "ids.amr"
    p.write_text("(a / b)\n# ::id second\n(c / d)\n", encoding="utf-8")
    with pytest.raises(U.CutDeclined):
        list(U.iter_units(p))


@pytest.mark.parametrize("window", [1, 300, 1 << 16])
def test_pieces_hold_their_units(window):
    """unit_pieces: the units of unit_windows, each within the bytes handed out with it
    (a unit that began in an earlier window too), whose text is the block of
    iter_block_lists."""
    for p in _shared_penman()[:12]:
        try:
            ref = [b for blocks in iter_block_lists(p, content_only=True) for b in blocks]
        except InputError:
            continue
        got = []
        for piece, offset, units in U.unit_pieces(p, str(p), False, window):
            a = memoryview(units).cast("q")
            for i in range(0, len(a), 3):
                assert offset <= a[i] <= a[i + 1] <= offset + len(piece)
                got.append((a[i + 2], bytes(piece[a[i] - offset:a[i + 1] - offset]).decode("utf-8")))
        assert got == ref, p


def _units_both_ways(p: Path, graphs: bool, window: int, first: int | None):
    """The units of unit_pieces with the bytes kept (each read joined to the rest of its
    line) and without (each read scanned in place): (units, error) for each.  The files
    are read, not mapped (the caller sets MRKIT_NO_MAP)."""
    assert os.environ.get("MRKIT_NO_MAP")
    out = []
    for keep in (True, False):
        got = bytearray()
        try:
            for _, _, units in U.unit_pieces(p, str(p), graphs, window, keep_bytes=keep, first=first):
                got += units
        except U.CutDeclined as exc:
            out.append((None, ("declined", exc.args)))
            continue
        out.append((bytes(got), None))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=penman_files(), graphs=st.booleans(), window=st.sampled_from([1, 2, 5, 8, 64, 1 << 20]),
       first=st.sampled_from([None, 1, 3, 16]))
def test_units_in_place_are_the_units_of_joined_reads(text, graphs, window, first, tmp_path, monkeypatch):
    """keep_bytes false scans each read in place and the line it cuts with the next read:
    the same units (and the same refusals) as the reads joined to the rest of their line,
    for reads of every size (lines longer than a read, no final newline, CRLF)."""
    monkeypatch.setenv("MRKIT_NO_MAP", "1")
    p = tmp_path / "g.amr"
    p.write_bytes(text.encode("utf-8"))
    kept, in_place = _units_both_ways(p, graphs, window, first)
    assert in_place == kept


@pytest.mark.parametrize("window", [7, 4096, 1 << 20])
def test_units_in_place_on_shared_files(window, monkeypatch):
    monkeypatch.setenv("MRKIT_NO_MAP", "1")
    for p in _shared_penman()[:40]:
        for graphs in (True, False):
            kept, in_place = _units_both_ways(p, graphs, window, None)
            assert in_place == kept, (p, graphs)


def _pieces(p: Path, graphs: bool, window: int, first: int | None, keep_bytes: bool, mapped: bool):
    """Every unit of unit_pieces with the text its piece holds for it (keep_bytes), the
    file mapped or read; or the refusal."""
    if mapped:
        os.environ.pop("MRKIT_NO_MAP", None)
    else:
        os.environ["MRKIT_NO_MAP"] = "1"
    out = []
    try:
        for piece, offset, units in U.unit_pieces(p, str(p), graphs, window, keep_bytes=keep_bytes, first=first):
            a = memoryview(units).cast("q")
            for i in range(0, len(a), 3):
                text = bytes(piece[a[i] - offset:a[i + 1] - offset]) if keep_bytes else None
                out.append((a[i], a[i + 1], a[i + 2], text))
    except U.CutDeclined as exc:
        return "declined", exc.args
    finally:
        os.environ.pop("MRKIT_NO_MAP", None)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=penman_files(), graphs=st.booleans(), keep_bytes=st.booleans(),
       window=st.sampled_from([1, 2, 5, 8, 64, 1 << 20]), first=st.sampled_from([None, 1, 3, 16]))
def test_mapped_pieces_are_the_read_pieces(text, graphs, keep_bytes, window, first, tmp_path):
    """A regular file is scanned through its mapping (windows cut at their last line end,
    pieces that are views of it): the same units, with the same text, and the same
    refusals as reading it, for windows of every size (lines longer than a window, no
    final newline, CRLF)."""
    p = tmp_path / "g.amr"
    p.write_bytes(text.encode("utf-8"))
    assert _pieces(p, graphs, window, first, keep_bytes, True) == _pieces(p, graphs, window, first, keep_bytes, False)


@pytest.mark.parametrize("window", [7, 4096, 1 << 20])
def test_mapped_pieces_on_shared_files(window):
    for p in _shared_penman()[:40]:
        for graphs in (True, False):
            for keep_bytes in (True, False):
                assert (_pieces(p, graphs, window, None, keep_bytes, True)
                        == _pieces(p, graphs, window, None, keep_bytes, False)), (p, graphs, keep_bytes)
