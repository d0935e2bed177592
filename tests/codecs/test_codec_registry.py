"""codecs/registry.py: formats from suffixes and from the first bytes of a file."""

from __future__ import annotations

from mrkit.codecs.registry import detect_format, sniff_format


def test_sniff_format_tells_mrp_from_penman():
    assert sniff_format(b'{"id": "1", "nodes": []}') == "mrp"
    assert sniff_format(b"\xef\xbb\xbf\n  (a / b)") == "amr"
    assert sniff_format(b"# ::id x\n(a / b)") == "amr"
    assert sniff_format(b"#::snt Hi\n") == "amr"
    assert sniff_format(b"#20001001\n1\tPierre") == "sdp"  # a '#' comment, then a numbered token line
    assert sniff_format(b"#SDP 2015\n") == "sdp"
    assert sniff_format(b"{e3:\n e3:_rain_v_1<3:9>[]\n}") == "eds"
    assert sniff_format(b"<root>") == "ucca"
    assert sniff_format(b"# a comment only") is None
    assert sniff_format(b"") is None and sniff_format(b"hello") is None


def test_detect_format_suffix_first_then_content(tmp_path):
    mrp = tmp_path / "graphs.data"
    mrp.write_text('{"id": "1"}\n')
    pen = tmp_path / "graphs"
    pen.write_text("(a / b)\n")
    assert detect_format(str(mrp)) == "mrp" and detect_format(str(pen)) == "amr"
    assert detect_format(str(tmp_path / "x.mrp")) == "mrp"  # the suffix says, no reading
    assert detect_format(str(tmp_path / "missing")) is None
    assert detect_format("-", b'{"id": 1}') == "mrp" and detect_format("-", b"") is None
