"""Acceptance of the HTML report in headless Chromium (Debian's ``chromium``; skipped where
/usr/bin/chromium is absent): the Little Prince study page loads with no console error and
no network request, the pair view of a chosen pair shows its matched and unmatched triples,
and the screenshots are not blank."""

from __future__ import annotations

import struct
import zlib

import pytest
from conftest import run_mrkit, shared_path

chromium = pytest.importorskip("chromium")  # tests/report/chromium.py, beside this file

pytestmark = pytest.mark.skipif(not chromium.available(), reason="no /usr/bin/chromium")

LP = "amr/parseeval-little-prince"


def _png_colours(png: bytes, sample: int = 4000) -> int:
    """How many distinct colours a sample of the PNG's pixels has (RGB or RGBA, 8 bit)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, _, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    step = max(1, width * height // sample)
    seen = set()
    for k in range(0, width * height, step):
        y, x = divmod(k, width)
        seen.add(rows[y][x * bpp:x * bpp + 3])
    return len(seen)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = shared_path(LP)
    out = tmp_path_factory.mktemp("report") / "lp.html"
    proc = run_mrkit("report", str(d / "gold.amr"), str(d / "bart.amr"), str(d / "t5.amr"), "-o", str(out),
                     "--bootstrap", "200")
    assert proc.returncode == 0, proc.stderr
    return out


def test_little_prince_report_in_chromium(report, tmp_path):
    with chromium.Page(report) as page:
        page.settle()
        assert page.evaluate("document.querySelectorAll('#pairs-body tr').length") == 100  # first page of 200
        top = page.screenshot()
        # pair 3 (lpp_1943.761, "For at least his work has some meaning ."), by a click on its row
        page.evaluate("document.querySelector('#pairs-body tr[data-pair=\"2\"]').click()")
        page.settle()
        assert page.evaluate("location.hash") == "#pair-3"
        assert "lpp_1943.761" in page.evaluate("document.querySelector('#pairview h2').textContent")
        missed = page.evaluate("[...document.querySelectorAll('#pv-missed li')].map(e => e.textContent)")
        extra = page.evaluate("[...document.querySelectorAll('#pv-extra li')].map(e => e.textContent)")
        matched = page.evaluate("[...document.querySelectorAll('#pv-matched li')].map(e => e.textContent)")
        # gold (vx0 / cause-01 :ARG0 (vx1 / mean-01 :ARG1 (vx2 / work-01 :ARG0 (vx3 / he))
        #       :degree (vx4 / some) :mod (vx5 / at-least)))                           12 triples
        # bart (vx0 / mean-01 :ARG1 (vx1 / work-01 :ARG0 (vx2 / he)) :mod (vx3 / at-least))  8 triples
        # best mapping by hand: gold vx1..vx5 minus vx4 onto bart vx0..vx3: 7 matched (smatchpp: 7)
        assert len(matched) == 7 and len(missed) == 5 and len(extra) == 1
        assert "vx0 :instance cause-01" in missed and "vx4 :instance some" in missed
        assert "TOP :top vx0/mean-01" in extra
        assert "vx1/mean-01 :mod vx5/at-least" in matched
        # both PENMAN texts and both drawings carry marks of both kinds
        for sel in ("#pv-gold", ".side:first-child svg"):
            assert page.evaluate(f"document.querySelectorAll('{sel} .m1').length") > 0
            assert page.evaluate(f"document.querySelectorAll('{sel} .m0').length") > 0
        # the t5 tab shows the other system's alignment
        page.evaluate("document.querySelector('#pv-tabs button[data-sys=\"1\"]').click()")
        page.settle()
        assert "t5" in page.evaluate("document.querySelector('.pv-score').textContent")
        pair = page.screenshot()
        # sorting and filtering the table
        page.evaluate("document.querySelector('#pairs th[data-sort=\"f0\"]').click()")
        first = page.evaluate("document.querySelector('#pairs-body tr td:nth-child(5)').textContent")
        assert float(first) == pytest.approx(0.0, abs=0.2)  # the worst bart pair first
        page.evaluate("const q = document.getElementById('pairs-q'); q.value = 'lpp_1943.761';"
                      "q.dispatchEvent(new Event('input'))")
        assert page.evaluate("document.querySelectorAll('#pairs-body tr').length") == 1
        assert page.errors == []
        assert page.requests == []
    (tmp_path / "top.png").write_bytes(top)
    assert _png_colours(top) > 20 and _png_colours(pair) > 20


def test_mrp_report_shows_anchors_in_chromium(tmp_path):
    d = shared_path("mrp", "score-fixtures")
    out = tmp_path / "eds.html"
    proc = run_mrkit("report", str(d / "lpps.mrp"), str(d / "eds" / "lpps.peking.mrp"), "--framework", "eds",
                     "-o", str(out), "--bootstrap", "100")
    assert proc.returncode == 0, proc.stderr
    with chromium.Page(out) as page:
        page.settle()
        page.evaluate("window.mrkitReport.open(0)")
        page.settle()
        assert "eds 102990" in page.evaluate("document.querySelector('#pairview h2').textContent")
        # the gold graph's "very much" is one node (_very+much_a_1), the system's two: its label
        # and anchor are missed, and the sentence shows that span unmatched, the rest matched
        missed = page.evaluate("[...document.querySelectorAll('#pv-missed li')].map(e => e.textContent)")
        assert "2 :label _very+much_a_1" in missed
        assert any(t.startswith("2/_very+much_a_1 :anchor") for t in missed)
        spans = page.evaluate("[...document.querySelectorAll('.side:first-child p.anchors span.m0')]"
                              ".map(e => e.textContent)")
        assert "very much" in " ".join(spans)
        assert page.evaluate("document.querySelectorAll('.side:first-child p.anchors span.m1').length") > 5
        assert page.errors == [] and page.requests == []
        assert _png_colours(page.screenshot()) > 20
