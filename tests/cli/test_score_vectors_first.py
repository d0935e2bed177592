"""`mrkit score` reports vectors it cannot have before it reads the corpus (it once read
every graph of a large corpus, then said the vectors file was missing)."""

from __future__ import annotations

import pytest

from conftest import run_mrkit

BAD = "(d / dog)\n\n(c / cat :ARG0 \n"  # graph 2 does not parse


@pytest.mark.parametrize("metric", ["wwlk", "wwlk-k3e2n", "s2match"])
@pytest.mark.parametrize("stdin", [False, True])  # the streamed path, the general path
def test_a_missing_vectors_file_is_reported_before_the_corpus_is_read(tmp_path, metric, stdin):
    gold = tmp_path / "g.amr"
    gold.write_text(BAD)
    missing = tmp_path / "missing.txt"
    r = run_mrkit("score", "-m", metric, "--vectors", str(missing), str(gold), "-" if stdin else str(gold),
                  input=BAD)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "missing.txt: cannot read vector file" in r.stderr, r.stderr


def test_with_readable_vectors_the_graph_error_is_reported(tmp_path):
    gold = tmp_path / "g.amr"
    gold.write_text(BAD)
    vec = tmp_path / "vec.txt"
    vec.write_text("dog 1 0\ncat 0 1\n")
    r = run_mrkit("score", "-m", "wwlk", "--vectors", str(vec), str(gold), str(gold))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "g.amr:3" in r.stderr, r.stderr
