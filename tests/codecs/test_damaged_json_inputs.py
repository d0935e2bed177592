"""Damaged compressed MRP input and lone surrogate escapes in JSON input are input errors
naming the file and line (and graph, document or topic): before, a damaged ``.gz``/``.zip``
gave ``internal error: error: Error -3 ...`` or ``BadZipFile``, and ``"\\ud800"`` was read and
then failed every output with ``internal error: UnicodeEncodeError``."""

from __future__ import annotations

import gzip
import io
import json
import zipfile
import zlib

import pytest

from conftest import run_mrkit
from mrkit.codecs._files import json_lines, parse_json
from mrkit.codecs.coref_jsonl import read_jsonlines
from mrkit.codecs.mrp import _json_lines, iter_mrp
from mrkit.codecs.scico import read_scico
from mrkit.errors import InputError

GRAPH = {"id": "g1", "flavor": 0, "framework": "dm", "version": 1.0, "input": "dogs bark",
         "tops": [1], "nodes": [{"id": 0, "label": "dogs", "anchors": [{"from": 0, "to": 4}]},
                                {"id": 1, "label": "bark", "anchors": [{"from": 5, "to": 9}]}],
         "edges": [{"source": 1, "target": 0, "label": "ARG1"}]}


def _lines(n: int = 200) -> bytes:
    """``n`` distinct graphs: enough text for a compressed stream of several blocks."""
    return "".join(json.dumps(dict(GRAPH, id=f"g{i}", input=f"dogs bark {i}")) + "\n" for i in range(n)).encode()


def _one_line_error(proc, *needles) -> str:
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "internal error" not in lines[0] and "Traceback" not in proc.stderr
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------------ F2: damaged gzip / zip


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


def _bad_gzip(tmp_path):
    data = gzip.compress(_lines(), mtime=0)
    # a byte in the middle of the deflate stream (header: 10 bytes; trailer: 8)
    for at in range(len(data) // 2, len(data) - 8):
        bad = _flip(data, at)
        try:
            gzip.decompress(bad)
        except zlib.error:  # what the reader let through as an internal error
            path = tmp_path / "bad.mrp.gz"
            path.write_bytes(bad)
            return path
        except (OSError, EOFError):
            continue
    pytest.skip("no flipped byte gave a zlib error")


def _zip(tmp_path, name: str, compression: int) -> tuple:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        z.writestr("graphs.mrp", _lines())
    data = buf.getvalue()
    return tmp_path / name, data


def test_damaged_deflate_in_gzip(tmp_path):
    path = _bad_gzip(tmp_path)
    with pytest.raises(InputError) as err:
        list(iter_mrp(str(path)))
    assert err.value.file == str(path) and err.value.line is not None
    assert "damaged compressed data" in str(err.value)


def test_zip_with_a_broken_local_header(tmp_path):
    path, data = _zip(tmp_path, "bad-header.zip", zipfile.ZIP_DEFLATED)
    assert data[:4] == b"PK\x03\x04"
    path.write_bytes(b"PK\x03\x05" + data[4:])  # the member's local header; the central directory intact
    with pytest.raises(InputError) as err:
        list(iter_mrp(str(path)))
    assert err.value.file == str(path)
    assert "damaged zip archive" in str(err.value)


def test_zip_member_with_a_bad_crc(tmp_path):
    """A stored (uncompressed) member with one byte changed: only its CRC tells."""
    path, data = _zip(tmp_path, "bad-crc.zip", zipfile.ZIP_STORED)
    at = data.index(b'"label": "bark"') + 10
    path.write_bytes(data[:at] + b"p" + data[at + 1:])  # "bark" -> "park": still JSON, CRC wrong
    with pytest.raises(InputError) as err:
        list(iter_mrp(str(path)))
    assert err.value.file == str(path)
    assert "damaged compressed data" in str(err.value) and "CRC" in str(err.value)


def test_zip_member_with_damaged_deflate(tmp_path):
    path, data = _zip(tmp_path, "bad-deflate.zip", zipfile.ZIP_DEFLATED)
    start = 30 + len("graphs.mrp")  # the local header, then the deflate stream
    for at in range(start + 40, start + 400):
        path.write_bytes(_flip(data, at))
        try:
            list(iter_mrp(str(path)))
        except InputError as err:
            if "damaged compressed data" in str(err):
                assert err.file == str(path) and err.line is not None
                return
    pytest.fail("no flipped byte of the deflate stream was reported as damaged data")


@pytest.mark.parametrize("command", [["mrp", "{G}", "{X}"], ["validate", "{X}"], ["analyze", "{X}"],
                                     ["convert", "{X}", "{O}"]])
def test_commands_on_a_damaged_gzip(tmp_path, command):
    bad = _bad_gzip(tmp_path)
    good = tmp_path / "good.mrp"
    good.write_bytes(_lines())
    out = tmp_path / "out.mrp"
    args = [a.replace("{G}", str(good)).replace("{X}", str(bad)).replace("{O}", str(out)) for a in command]
    _one_line_error(run_mrkit(*args), f"mrkit: {bad}:")
    assert not out.exists()


# ------------------------------------------------------------------ F10: lone surrogate escapes


def test_lone_surrogate_found():
    from mrkit.codecs._files import lone_surrogate

    assert lone_surrogate(json.loads('{"a": ["x", {"b": "y\\ud800"}]}')) == "\\ud800"
    assert lone_surrogate(json.loads('{"k\\udfff": 1}')) == "\\udfff"  # in a key
    assert lone_surrogate(json.loads('["\\ud83d\\ude00", "caf\\u00e9"]')) is None  # a pair is one character


def test_parse_json_names_the_line_of_the_escape():
    text = '{\n "a": 1,\n "b": "\\uDC00"\n}'
    with pytest.raises(InputError) as err:
        parse_json(text, "chains.json", 1)
    assert (err.value.file, err.value.line) == ("chains.json", 3)
    assert "lone surrogate escape \\udc00" in str(err.value)


def test_json_lines(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": "\\ud83d\\ude00"}\n\n{"a": "\\ud800 "}\n')
    with pytest.raises(InputError) as err:
        list(json_lines(str(path)))
    assert err.value.line == 3


def _mrp_line(**changes) -> str:
    return json.dumps(dict(GRAPH, **changes))


@pytest.mark.parametrize("fast", [False, True])
def test_mrp_reader(fast):
    """The standard library's decoder and msgspec's (large files) alike."""
    decode = None
    if fast:
        msgspec = pytest.importorskip("msgspec")
        decode = msgspec.json.Decoder().decode
    bad = _mrp_line(id="g2").replace('"bark"', '"bark\\ud800"', 1)
    ok = _mrp_line(input="dogs \\ud83d\\ude00")
    lines = [_mrp_line() + "\n", ok.replace("\\\\", "\\") + "\n", bad + "\n"]
    with pytest.raises(InputError) as err:
        list(_json_lines(lines, "x.mrp", decode))
    assert (err.value.file, err.value.line, err.value.graph) == ("x.mrp", 3, "g2")
    assert str(err.value) == "x.mrp:3, graph g2: lone surrogate escape \\ud800 in a string (not Unicode text)"


def test_coref_jsonl_names_the_document(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"doc_key": "d1", "clusters": []}\n{"doc_key": "d\\ud800", "clusters": []}\n')
    with pytest.raises(InputError) as err:
        read_jsonlines(str(path))
    assert str(err.value) == f"{path}:2, document d\\ud800: lone surrogate escape \\ud800 in a string (not Unicode text)"


def test_scico_names_the_topic(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": 7, "tokens": [["a\\udbff"]], "mentions": [[0, 0, 0, 1]], "relations": []}\n')
    with pytest.raises(InputError) as err:
        read_scico(str(path))
    assert (err.value.line, err.value.graph, err.value.unit) == (1, "7", "topic")


@pytest.mark.parametrize("command", [["convert", "{X}", "{O}"], ["validate", "{X}"], ["mrp", "{X}", "{X}", "--per-graph"]])
def test_commands_refuse_a_lone_surrogate(tmp_path, command):
    path = tmp_path / "s.mrp"
    path.write_text(_mrp_line().replace('"bark"', '"\\ud800"', 1) + "\n")
    out = tmp_path / "out.mrp"
    args = [a.replace("{X}", str(path)).replace("{O}", str(out)) for a in command]
    _one_line_error(run_mrkit(*args), f"{path}:1, graph g1: lone surrogate escape \\ud800")
    assert not out.exists()
