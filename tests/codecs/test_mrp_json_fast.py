"""MRP JSON lines read through msgspec give exactly what the standard library gives: the
same graphs on every shared MRP file, the same graphs for JSON msgspec refuses (NaN,
1e400, lone surrogates) or might read differently (integers beyond 64 bits), and the same
one-line errors."""

from __future__ import annotations

import io
import json

import pytest

from conftest import shared_path

import mrkit.codecs.mrp as mrp
from mrkit.errors import InputError


def _graphs(text: str, monkeypatch, fast: bool, tmp_path):
    path = tmp_path / "t.mrp"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(mrp, "FAST_MIN_BYTES", 0)  # every file through msgspec
    if not fast:
        monkeypatch.setenv("MRKIT_JSON", "stdlib")
    try:
        return [(g.id, g.framework, g.text, g.tops, g.nodes, g.edges, g.extra) for g in mrp.read_mrp(path)]
    except InputError as exc:
        return str(exc)
    finally:
        monkeypatch.undo()


def test_msgspec_is_used(monkeypatch, tmp_path):
    pytest.importorskip("msgspec")
    assert mrp._fast_loads() is not None
    seen = []
    monkeypatch.setattr(mrp, "_json_lines", lambda lines, label, fast=None: seen.append(fast) or iter(()))
    small = tmp_path / "small.mrp"
    small.write_text("{}\n")
    list(mrp.iter_mrp_json(small))
    assert seen == [None]  # a small file: the standard library (importing msgspec would cost more)
    monkeypatch.setattr(mrp, "FAST_MIN_BYTES", 1)
    list(mrp.iter_mrp_json(small))
    assert seen[1] is not None
    monkeypatch.setenv("MRKIT_JSON", "stdlib")
    assert mrp._fast_loads() is None


@pytest.mark.parametrize("text", [
    '{"id": "1", "nodes": [{"id": 0, "label": "a", "properties": ["x"], "values": [NaN]}]}\n',
    '{"id": "1", "nodes": [{"id": 0, "label": "a", "properties": ["x", "y"], "values": [1e400, -0.0]}]}\n',
    '{"id": "1", "nodes": [{"id": 0, "label": "a", "properties": ["x"], "values": [123456789012345678901234567890]}]}\n',
    '{"id": "1", "input": "\\ud800 lone", "nodes": []}\n',
    '\n  \n{"id": 7, "tops": [0], "nodes": [{"id": 0, "label": 1.5e3}]}\n\n',
    '{"id": "1", "nodes": [}\n',
    '{"id": "1"} trailing\n',
    '[1, 2]\n',
    '\ufeff{"id": "1"}\n',
])
def test_same_as_the_standard_library(text, monkeypatch, tmp_path):
    pytest.importorskip("msgspec")
    assert _graphs(text, monkeypatch, True, tmp_path) == _graphs(text, monkeypatch, False, tmp_path)


@pytest.mark.parametrize("parts", [("score-fixtures", "lpps.mrp"), ("wsj-sample", "ucca", "wsj.mrp"),
                                   ("tupa-test-files", "isi.mrp"), ("validate", "eds.wsj.invalid.mrp")])
def test_shared_files_read_the_same(parts, monkeypatch, tmp_path):
    pytest.importorskip("msgspec")
    text = shared_path("mrp", *parts).read_text(encoding="utf-8")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _graphs(text, monkeypatch, True, tmp_path) == _graphs(text, monkeypatch, False, tmp_path)
