"""code_pairs_units (a chunk of pairs coded from the files' bytes, without the GIL) and
smatch_stages (the engine's first stage over the chunk) against code_pair and smatch_stage
pair by pair: the same ids, triple counts, codes and scores on every shared AMR file and on
generated text, Unicode and malformed UTF-8 included (issue 14, ``smatch -j 2`` on threads)."""

from __future__ import annotations

import math
import os
from array import array
from pathlib import Path

import pytest

pytest.importorskip("mrkit.features._triples")
pytest.importorskip("mrkit.align._kernel")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mrkit.align import _kernel  # noqa: E402
from mrkit.codecs.penman_units import unit_texts, unit_windows  # noqa: E402
from mrkit.features import _triples  # noqa: E402
from mrkit.model.inverted_roles import NON_INVERTED_OF  # noqa: E402

KEEP = tuple(sorted(NON_INVERTED_OF))
STAGE = (3e8, 4, 0)
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "amr"


def _expected(golds: list[str], systems: list[str], k0: int):
    """Per pair: (id, n_gold, n_system, codes bytes) of code_pair, or None when refused."""
    out = []
    for k, (g, s) in enumerate(zip(golds, systems)):
        c = _triples.code_pair(g, s, KEEP)
        out.append(None if c is None else (str(k0 + k + 1) if c[0] is None else c[0], c[1], c[2], bytes(c[3])))
    return out


def _got(gbuf: bytes, gunits: bytes, sbuf: bytes, sunits: bytes, k0: int, gbase: int = 0, sbase: int = 0):
    ids, counts, codes, offsets, refused = _triples.code_pairs_units(gbuf, gbase, gunits, sbuf, sbase, sunits,
                                                                     KEEP, k0)
    n = len(gunits) // 24
    cnt, off = array("q"), array("q")
    cnt.frombytes(counts)
    off.frombytes(offsets)
    raw = memoryview(codes).cast("B")
    out = []
    for k in range(n):
        if k in refused:
            assert off[k] == off[k + 1] and ids[k] is None and cnt[k] == cnt[n + k] == 0
            out.append(None)
        else:
            out.append((ids[k], cnt[k], cnt[n + k], bytes(raw[8 * off[k]:8 * off[k + 1]])))
    return out, codes, offsets


def _units_of(texts: list[str]) -> tuple[bytes, bytes]:
    """A buffer of the blocks one after the other (a blank line between) and their units."""
    buf = bytearray()
    units = array("q")
    line = 1
    for t in texts:
        raw = t.encode("utf-8", "surrogatepass")
        units.extend((len(buf), len(buf) + len(raw), line))
        buf += raw + b"\n\n"
        line += t.count("\n") + 2
    return bytes(buf), units.tobytes()


def _check_stages(codes, offsets, expected):
    scores = array("d")
    scores.frombytes(_kernel.smatch_stages(codes, offsets, *STAGE))
    assert len(scores) == len(expected)
    for k, e in enumerate(expected):
        if e is None:
            assert math.isnan(scores[k])
            continue
        want = _kernel.smatch_stage(e[3], *STAGE)
        if want is None:
            assert math.isnan(scores[k])
        else:
            assert scores[k] == want


def _files():
    if not SHARED.is_dir():
        return []
    return sorted(p for p in SHARED.rglob("*") if p.is_file() and p.suffix in (".txt", ".amr", ".penman")
                  and _has_graphs(p))


def _has_graphs(path: Path) -> bool:
    """A file of PENMAN graphs (the folders' READMEs and score outputs are not)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return text.count("\n(") + text.startswith("(") >= 2


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/amr is absent")
@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(SHARED)))
def test_every_shared_file_pairs_as_code_pair(path):
    """Each file against itself shifted by one graph (graph k with graph k + 1): different
    graphs, the files' own comments, ids, Unicode and unusual blocks."""
    try:
        units = b"".join(unit_windows(str(path), str(path)))
    except Exception:  # the scanner declines the file: the general path reads it
        pytest.skip("the scanner declines this file")
    n = len(units) // 24
    if n < 2:
        pytest.skip("fewer than two graphs")
    raw = path.read_bytes()
    texts = [t for _, t in unit_texts(str(path), str(path), units)]
    for k0, (gu, su, golds, systems) in enumerate([(units[:-24], units[24:], texts[:-1], texts[1:]),
                                                    (units, units, texts, texts)]):
        expected = _expected(golds, systems, 7 * k0)
        got, codes, offsets = _got(raw, gu, raw, su, 7 * k0)
        assert got == expected
        _check_stages(codes, offsets, expected)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/amr is absent")
def test_a_piece_of_a_file_at_its_offset():
    """Buffers that start inside the file (the chunks' pieces): units in file offsets."""
    path = SHARED / "little-prince" / "amr-bank-struct-v1.6.txt"
    units = b"".join(unit_windows(str(path), str(path)))[24 * 10:24 * 60]
    a = memoryview(units).cast("q")
    raw = path.read_bytes()
    piece = raw[a[0]:a[-2]]
    texts = [t for _, t in unit_texts(str(path), str(path), units)]
    got, _, _ = _got(piece, units, piece, units, 10, a[0], a[0])
    assert got == _expected(texts, texts, 10)


CHARS = st.sampled_from(["a", "b", "-", "0", "é", "ß", "β", "İ", "Σ", "日", "\u00a0", "\u0085", "\u2028", "😀",
                         '"', "\\", " ", "#", ":", "~"])
WORD = st.text(CHARS, min_size=1, max_size=6)


@st.composite
def blocks(draw):
    comment = draw(st.lists(st.sampled_from(["# ::snt ", "# ::id ", "# ::zh ", "#"]).flatmap(
        lambda head: WORD.map(lambda w: head + w)), max_size=3))
    concept = draw(st.sampled_from(["dog", "Chase-01", "ß", "β-gal", "日本", "İstanbul", "x"]))
    const = draw(WORD)
    quoted = draw(st.booleans())
    role = draw(st.sampled_from([":ARG0", ":mod", ":ARG1-of", ":consist-of", ":name", ":op1", ":Wiki"]))
    value = ('"' + const.replace("\\", "\\\\").replace('"', '\\"') + '"') if quoted else const
    graph = draw(st.sampled_from([
        f"(a / {concept} {role} {value})",
        f"(a / {concept}\n   {role} (b / {concept}-x :polarity -)\n   :ARG2 a)",
        f"(a / {concept} {role} b~e.1 :quant 3)",
        f"(a / {concept}",
        "()",
    ]))
    return "\n".join(comment + [graph])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(blocks(), blocks()), min_size=1, max_size=6), st.integers(0, 10 ** 6))
def test_generated_blocks_pair_as_code_pair(pairs, k0):
    golds = [g for g, _ in pairs]
    systems = [s for _, s in pairs]
    gbuf, gunits = _units_of(golds)
    sbuf, sunits = _units_of(systems)
    expected = _expected(golds, systems, k0)
    got, codes, offsets = _got(gbuf, gunits, sbuf, sunits, k0)
    assert got == expected
    _check_stages(codes, offsets, expected)


BAD_UTF8 = [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80",
            b"\xc3", b"\xe2\x82", b"\x80", b"\xff", b"\xf0\x9f\x98"]


@pytest.mark.parametrize("bad", BAD_UTF8, ids=lambda b: b.hex())
@pytest.mark.parametrize("where", ["comment", "constant", "id"])
def test_bytes_that_are_not_utf8_are_refused(bad, where):
    """Bytes the strict UTF-8 decoder rejects: the pair is refused (the general path then
    reports the error), wherever they are; the other pairs are coded as code_pair codes them."""
    good = "# ::id g1\n(a / dog :mod (b / big))"
    raw = {"comment": b"# ::snt x" + bad + b"y\n(a / dog)", "constant": b'(a / dog :name "x' + bad + b'")',
           "id": b"# ::id x" + bad + b"\n(a / dog)"}[where]
    gbuf = good.encode() + b"\n\n" + raw + b"\n\n" + good.encode()
    n1 = len(good.encode())
    gunits = array("q", [0, n1, 1, n1 + 2, n1 + 2 + len(raw), 3, n1 + 4 + len(raw), 2 * n1 + 4 + len(raw), 5])
    ids, counts, codes, offsets, refused = _triples.code_pairs_units(gbuf, 0, gunits.tobytes(), gbuf, 0,
                                                                     gunits.tobytes(), KEEP, 0)
    assert refused == [1]
    assert ids[0] == ids[2] == "g1" and ids[1] is None
    want = _triples.code_pair(good, good, KEEP)
    off = array("q")
    off.frombytes(offsets)
    raw_codes = memoryview(codes).cast("B")
    assert bytes(raw_codes[8 * off[0]:8 * off[1]]) == bytes(want[3])
    assert bytes(raw_codes[8 * off[2]:8 * off[3]]) == bytes(want[3])


def test_unicode_ids_and_labels_match_the_str_reading():
    texts = ["# ::id Straße-1 \n(a / straße :name \"Ünïcödé\")", "# ::id 日本-1\n(a / dog :mod \"β😀\")",
             "(a / İstanbul :mod b)",
             "# ::id é\u00a0\n(a / b)", "# ::zh 当我还只有六岁的时候\n# ::id lp_1\n(a / dog :ARG0-of (b / bark-01))"]
    gbuf, gunits = _units_of(texts)
    got, codes, offsets = _got(gbuf, gunits, gbuf, gunits, 0)
    expected = _expected(texts, texts, 0)
    assert got == expected
    assert [e[0] for e in expected[:3]] == ["Straße-1", "日本-1", "3"]
    _check_stages(codes, offsets, expected)


def test_bad_arguments():
    with pytest.raises(ValueError):
        _triples.code_pairs_units(b"(a / b)", 0, array("q", [0, 7, 1]).tobytes(), b"", 0, b"", KEEP, 0)
    with pytest.raises(ValueError):
        _triples.code_pairs_units(b"(a / b)", 0, array("q", [0, 9, 1]).tobytes(), b"(a / b)", 0,
                                  array("q", [0, 7, 1]).tobytes(), KEEP, 0)
    with pytest.raises(ValueError):
        _kernel.smatch_stages(b"\x00" * 8, array("q", [0, 1]).tobytes(), *STAGE)
    with pytest.raises(ValueError):
        _kernel.smatch_stages(b"", b"\x00" * 7, *STAGE)
    assert _kernel.smatch_stages(b"", array("q", [0]).tobytes(), *STAGE) == b""


def test_empty_graphs_score_zero_like_smatch_stage():
    texts = ["(a / b)"]
    gbuf, gunits = _units_of(texts)
    got, codes, offsets = _got(gbuf, gunits, gbuf, gunits, 0)
    _check_stages(codes, offsets, _expected(texts, texts, 0))


if os.environ.get("MRKIT_PURE_PENMAN"):  # pragma: no cover
    pytestmark = pytest.mark.skip("compiled reader off")


@pytest.mark.parametrize("bad", [None] + BAD_UTF8, ids=lambda b: "utf8" if b is None else b.hex())
def test_pair_codes_units_decodes_utf8_as_the_str_reading(bad):
    """The coded metrics' reader (pair_codes_units) decodes UTF-8 blocks in C too: the same
    ids, codes and refused pairs as pair_codes of the decoded blocks; bytes that are not
    UTF-8 refuse their pair."""
    texts = ["# ::id Straße-1 \n(a / straße :name \"Ünïcödé\")", "# ::id 日本-1\n(a / dog :mod \"β😀\")",
             "# ::zh 当我还只有六岁的时候\n# ::id lp_1\n(a / dog :ARG0-of (b / bark-01))", "(a / İstanbul :mod b)"]
    raw = [t.encode() for t in texts]
    if bad is not None:
        raw[2] = raw[2].replace("六".encode(), bad)
    buf, units = b"", array("q")
    for r in raw:
        units.extend((len(buf), len(buf) + len(r), 1))
        buf += r + b"\n\n"
    ids, codes, refused = _triples.pair_codes_units(buf, 0, units.tobytes(), buf, 0, units.tobytes(), KEEP)
    blocks = []
    for r in raw:
        try:
            blocks.append(r.decode("utf-8"))
        except UnicodeDecodeError:
            blocks.append(None)
    unreadable = {k for k, b in enumerate(blocks) if b is None}
    want_ids, want_codes, want_refused = _triples.pair_codes([b or "" for b in blocks], [b or "" for b in blocks],
                                                              KEEP)
    assert refused == sorted(set(want_refused) | unreadable)
    assert [ids[k] for k in range(len(raw)) if k not in unreadable] == [
        want_ids[k] for k in range(len(raw)) if k not in unreadable]
    assert ids[:2] == ["Straße-1", "日本-1"]
    if bad is None:
        assert bytes(codes) == bytes(want_codes) and refused == want_refused
