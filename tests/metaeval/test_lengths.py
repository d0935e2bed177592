"""Sentence-length buckets of Figures 6 and 8 (hand-computed)."""

from __future__ import annotations

import math

from mrkit.metaeval.lengths import acceptability_by_length, length_buckets


def test_buckets_and_the_55_plus_bucket():
    labels, idx = length_buckets([1, 5, 6, 55, 56, 90, 0])
    assert labels[:2] == ["1-5", "6-10"] and labels[-2:] == ["51-55", "55+"] and len(labels) == 12
    assert idx.tolist() == [0, 0, 1, 10, 11, 11, 0]


def test_acceptability_by_length():
    labels, share, count = acceptability_by_length([3, 4, 8, 60], [1, 0, float("nan"), 1])
    assert share[0] == 0.5 and count[0] == 2
    assert math.isnan(share[1]) and count[1] == 0
    assert share[-1] == 1.0 and count[-1] == 1
