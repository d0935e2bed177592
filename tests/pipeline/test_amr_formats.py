"""pipeline/amr_formats.py: telling an input's format without the codecs' registry gives
the registry's answer."""

from __future__ import annotations

import os

import pytest

from mrkit.codecs import registry
from mrkit.pipeline import amr_formats


def test_penman_suffixes_are_the_registrys():
    assert set(amr_formats._PENMAN_SUFFIXES) == {s for s, f in registry._SUFFIX.items() if f == "amr"}


@pytest.mark.parametrize("name", ["g.amr", "g.AMR", "g.penman", "g.txt", "x.y.amr", ".amr", "g.amr.", "g",
                                  "g.mrp", "g.jsonl", "dir.amr"])
def test_the_shortcut_agrees_with_the_registry(tmp_path, name):
    path = tmp_path / name
    if name == "dir.amr":
        path.mkdir()  # the registry takes a directory for UCCA
    else:
        path.write_text("(a / b)\n", encoding="utf-8")
    expected = registry.detect_format(str(path)) or "amr"
    if expected not in amr_formats.AMR_FORMATS:
        with pytest.raises(Exception):
            amr_formats.input_format(str(path))
        return
    assert amr_formats.input_format(str(path)) == expected
    if amr_formats._penman_by_suffix(str(path)):
        assert registry.detect_format(str(path)) == "amr"


def test_a_named_pipe_with_a_penman_suffix_is_told_by_the_registry(tmp_path):
    fifo = tmp_path / "g.amr"
    os.mkfifo(fifo)
    assert not amr_formats._penman_by_suffix(str(fifo))
