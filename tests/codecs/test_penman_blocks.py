"""iter_blocks (chunks cut by one pass, compiled or regex) gives exactly the blocks of the
line-by-line reader (_blocks over _decoded_lines), and the same error for bytes that
are not UTF-8, whatever the chunk size."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.codecs import penman as P
from mrkit.errors import InputError

LINES = ["(a / b)", "# only a comment", "  \u00a0(x)", "  :ARG0 (c / d)", "# ::id x", "", " ", "\t", "\r", "  \r", "\x0c", "\u00a0", "\u2028",
         "x\u2028y", "é (x / y)", "\x85", "  # c"]


def _old(data: bytes):
    try:
        return list(P._blocks(P._decoded_lines(io.BytesIO(data), "f"))), None
    except InputError as exc:
        return None, str(exc)


def _new(data: bytes, chunk: int, compiled: bool, monkeypatch, content_only: bool = False):
    monkeypatch.setattr(P, "BLOCK_CHUNK", chunk)
    if not compiled:
        monkeypatch.setattr(P, "_compiled", None)
    out = []
    try:
        for blocks in P.iter_block_lists(io.BytesIO(data), "f", content_only=content_only):
            assert blocks  # no empty lists
            out.extend(blocks)
    except InputError as exc:
        return out, str(exc)
    return out, None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=25), st.booleans(), st.booleans(),
       st.sampled_from([None, b"\xff", b"\xc3", b"\xe2\x82"]), st.integers(0, 30))
def test_chunked_blocks_equal_line_by_line_blocks(lines, bom, newline_at_end, bad, where):
    text = "\n".join(lines) + ("\n" if newline_at_end else "")
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    if bad is not None:
        cut = min(where * 3, len(data))
        while cut < len(data) and (data[cut] & 0xC0) == 0x80:  # not inside a character
            cut += 1
        data = data[:cut] + bad + data[cut:]
    blocks, error = _old(data)
    mp = pytest.MonkeyPatch()
    try:
        for chunk in (1, 5, 64, 1 << 20):
            for compiled in (True, False):
                got, got_error = _new(data, chunk, compiled, mp)
                mp.undo()
                if bom and error is not None and error.startswith("f:1:"):
                    # the line-by-line reader named the byte and column after the byte
                    # order mark wrongly (utf-8-sig counts positions after it): same line
                    assert got_error is not None and got_error.startswith("f:1: not UTF-8 text")
                    continue
                assert got_error == error, (chunk, compiled)
                if error is None:
                    assert got == blocks, (chunk, compiled)
                    got, _ = _new(data, chunk, compiled, mp, content_only=True)
                    mp.undo()
                    assert got == [b for b in blocks if P._CONTENT.search(b[1])], (chunk, compiled)
    finally:
        mp.undo()
