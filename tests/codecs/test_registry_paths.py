"""``codecs.registry`` reads suffixes and directories as pathlib does, without loading it
(start-up of every command, issue 14)."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from hypothesis import given, strategies as st

from mrkit.codecs.registry import _is_dir, guess_format, suffix_of

PIECES = st.sampled_from(["", ".", "..", "/", "//", "a", "b.c", ".amr", "x.amr", "x.", "x.tar.gz", "..amr",
                          "a.b.", ".", "é.ΜRP", "x.JSONL", "dir.txt/", "..."])


@given(st.lists(PIECES, max_size=6).map("".join))
def test_suffix_is_pathlibs(path):
    assert suffix_of(path) == PurePosixPath(path).suffix


def test_suffix_examples():
    assert [suffix_of(p) for p in ("a.amr", "a/b.tar.gz", ".amr", "x.", "x.amr/", "a/.", "", "/")] == \
        [".amr", ".gz", "", "", ".amr", "", "", ""]


def test_is_dir_is_pathlibs(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "f.amr").write_text("(a / b)\n")
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    for p in ("d", "f.amr", "missing", "f.amr/below", "loop", "d/", "bad\0name"):
        assert _is_dir(str(tmp_path / p)) == Path(tmp_path / p).is_dir(), p
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert _is_dir("") is Path("").is_dir() is True
        assert guess_format("") == "ucca"
    finally:
        os.chdir(cwd)


def test_guess_format_by_suffix_and_directory(tmp_path):
    assert guess_format(str(tmp_path)) == "ucca"
    assert [guess_format(p) for p in ("x.AMR", "x.mrp.gz", "x.zip", "x.jsonl", "x.unknown", "x")] == \
        ["amr", "mrp", "mrp", "mrp", None, None]
