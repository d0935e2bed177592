"""pipeline/matrix.py: the blocked all-pairs table equals a naive double loop over the
registry's metric, whatever the block size; top-k equals the best k of the full table;
the metrics declared symmetric are; hand-computed Smatch values; bad input names its file
and line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_path
from mrkit.codecs.penman import read_penman
from mrkit.errors import InputError, MrkitError
from mrkit.metrics.registry import score
from mrkit.pipeline.matrix import SYMMETRIC, MatrixRun, _best, matrix_rows

# five small graphs; Smatch by hand (triples: instances, relations, attributes, TOP):
#   g1 (w / want-01 :ARG0 (b / boy))      4 triples: TOP(w), 2 instances, ARG0(w, b)
#   g2 (w / want-01 :ARG0 (g / girl))     4 triples, 3 shared with g1 (w->w, g->b: all but girl): F1 3/4
#   g3 (s / sleep-01 :ARG0 (b / boy))     4 triples, 3 shared with g1 (s->w, b->b: all but sleep-01): 3/4
#   g5 (c / cat)                          2 triples, 1 shared with g1 (c->w: TOP): P 1/2, R 1/4, F1 1/3
GRAPHS = """\
# ::id g1
(w / want-01 :ARG0 (b / boy))

# ::id g2
(w / want-01 :ARG0 (g / girl))

# ::id g3
(s / sleep-01 :ARG0 (b / boy))

# ::id g4
(w / want-01 :ARG0 (b / boy) :ARG1 (s / sleep-01 :ARG0 b))

# ::id g5
(c / cat)
"""


@pytest.fixture()
def five(tmp_path):
    path = tmp_path / "five.amr"
    path.write_text(GRAPHS)
    return str(path)


def naive(left: str, right: str | None, metric: str, **options) -> dict[tuple[int, int], float]:
    """Every pair by itself: one call of the registry's metric per pair."""
    a = read_penman(left)
    b = a if right is None else read_penman(right)
    out = {}
    for i, g in enumerate(a):
        for j, h in enumerate(b):
            if right is None and i == j:
                continue
            if right is None and metric in SYMMETRIC and j < i:
                continue
            out[(i + 1, j + 1)] = score(metric, [g], [h], **options).pair_scores[0]
    return out


def as_dict(rows) -> dict[tuple[int, int], float]:
    return {(r["source"], r["target"]): r["score"] for r in rows}


def test_hand_computed_smatch_rows(five):
    rows, res = matrix_rows(five)
    got = as_dict(rows)
    assert got[(1, 2)] == pytest.approx(3 / 4)
    assert got[(1, 3)] == pytest.approx(3 / 4)
    assert got[(1, 5)] == pytest.approx(1 / 3)
    assert (2, 1) not in got and (1, 1) not in got  # each unordered pair once, no self pair
    assert len(rows) == 10 and res.pairs == 10 and res.certified == 10 and res.symmetric
    assert [(r["source"], r["target"]) for r in rows] == sorted(got)  # in (source, target) order
    assert rows[0]["source_id"] == "g1" and rows[0]["target_id"] == "g2"


@pytest.mark.parametrize("block", [1, 2, 3, 64])
@pytest.mark.parametrize("metric", ["smatch", "sembleu", "wlk"])
def test_blocked_table_equals_naive_double_loop(five, block, metric):
    rows, res = matrix_rows(five, metric=metric, block=block)
    assert as_dict(rows) == naive(five, None, metric)  # bit for bit
    assert res.symmetric == (metric in SYMMETRIC)


def test_two_files_and_top_k_equal_the_full_table(five, tmp_path):
    other = tmp_path / "other.amr"
    other.write_text("(w / want-01 :ARG0 (g / girl))\n\n(b / boy)\n\n(s / sleep-01)\n")
    full = naive(five, str(other), "smatch")
    for block in (1, 2, 5):
        rows, res = matrix_rows(five, str(other), block=block)
        assert as_dict(rows) == full and res.pairs == 15 and not res.symmetric
        top, _ = matrix_rows(five, str(other), top_k=2, block=block)
        for i in range(1, 6):
            want = sorted(((-s, j) for (a, j), s in full.items() if a == i))[:2]
            got = [(r["rank"], -r["score"], r["target"]) for r in top if r["source"] == i]
            assert got == [(k + 1, *w) for k, w in enumerate(want)]


def test_symmetric_top_k_sees_each_pair_from_both_sides(five):
    full = naive(five, None, "smatch")
    both = {**full, **{(j, i): s for (i, j), s in full.items()}}
    for block in (1, 2, 4):
        top, res = matrix_rows(five, top_k=3, block=block, min_score=0.1)
        assert res.rows == len(top)
        for i in range(1, 6):
            want = sorted((-s, j) for (a, j), s in both.items() if a == i and s >= 0.1)[:3]
            assert [(-r["score"], r["target"]) for r in top if r["source"] == i] == want


@pytest.mark.shared_data
def test_declared_symmetric_metrics_are_symmetric_on_real_pairs():
    folder = shared_path("amr", "parseeval-little-prince")
    gold = read_penman(folder / "gold.amr")[:8]
    bart = read_penman(folder / "bart.amr")[:8]
    for metric in sorted(SYMMETRIC):
        opts = {"vectors": "none"} if metric in ("s2match", "wwlk", "wwlk-k3e2n") else {}
        ab = score(metric, gold, bart, **opts).pair_scores
        ba = score(metric, bart, gold, **opts).pair_scores
        assert ab == pytest.approx(ba, abs=1e-12), metric
    ab = score("sembleu", gold, bart).pair_scores
    assert ab != score("sembleu", bart, gold).pair_scores  # the one that is not


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 9), st.sampled_from([0.0, 0.25, 0.5, 1.0])),
                min_size=1, max_size=60),
       st.integers(1, 4), st.integers(1, 5))
def test_best_of_the_blocks_best_is_the_best_of_all(rows, k, parts):
    """top-k merges exactly: the best k of each block's best k are the best k of all rows."""
    src = np.array([r[0] for r in rows]); dst = np.array([r[1] for r in rows])
    s = np.array([r[2] for r in rows]); cert = np.ones(len(rows), dtype=bool)
    whole = _best(src, dst, s, cert, k)
    pieces = [_best(src[p::parts], dst[p::parts], s[p::parts], cert[p::parts], k) for p in range(parts)]
    merged = _best(*(np.concatenate([x[c] for x in pieces]) for c in range(4)), k)
    for a, b in zip(whole, merged):
        assert list(a) == list(b)


def test_bad_inputs_name_file_and_line(tmp_path, five):
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / alpha)\n\n(b / beta :ARG0 (c / gamma)\n")
    with pytest.raises(InputError) as err:
        matrix_rows(str(bad))
    assert str(err.value).startswith(f"{bad}:3")
    empty = tmp_path / "empty.amr"
    empty.write_text("# ::snt nothing\n")
    with pytest.raises(InputError, match="holds no graph"):
        matrix_rows(str(empty))
    with pytest.raises(MrkitError, match="--top-k must be a positive"):
        MatrixRun(five, top_k=0)
    with pytest.raises(MrkitError, match="has no option"):
        MatrixRun(five, metric="sema", options={"k": 2})
