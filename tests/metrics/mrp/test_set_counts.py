"""aggregate/counts.py: Counts is a PRF (no second formula); SetScores sums streamed pair
counts exactly as it sums tuple sets."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mrkit.aggregate.counts import Counts, SetScores, pair_counts

small_sets = st.frozensets(st.integers(0, 6), max_size=5)
pair = st.fixed_dictionaries({"a": st.tuples(small_sets, small_sets), "b": st.tuples(small_sets, small_sets)})


@given(st.lists(pair, max_size=6))
def test_streamed_counts_equal_collected_sets(pairs):
    pairs = [{k: (set(g), set(s)) for k, (g, s) in p.items()} for p in pairs]
    streamed = SetScores("x")
    for p in pairs:
        streamed.add(pair_counts(p))
    streamed.with_total("all")
    assert streamed.to_dict() == SetScores.collect("x", pairs, total="all").to_dict()
    # hand sums
    if pairs:
        assert streamed.counts["a"].c == sum(len(p["a"][0] & p["a"][1]) for p in pairs)
        assert streamed.exact["b"] == sum(p["b"][0] == p["b"][1] for p in pairs)


def test_counts_scores_by_hand():
    c = Counts(g=4, s=5, c=3)
    assert (c.p, c.r, c.f) == (3 / 5, 3 / 4, 6 / 9)
    assert (c.precision, c.recall, c.f1) == (c.p, c.r, c.f) and c.row() == (3, 4, 5)
    assert (Counts().p, Counts().r, Counts().f) == (1.0, 1.0, 1.0)  # empty against empty
    assert Counts(g=2).to_dict() == {"g": 2, "s": 0, "c": 0, "p": 0.0, "r": 0.0, "f": 0.0}
