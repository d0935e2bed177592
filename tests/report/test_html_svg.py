"""The small SVG charts of the HTML report."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, strategies as st

from mrkit.report.html import svg


def test_ticks_are_round_and_cover_the_range():
    assert svg._ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert svg._ticks(0, 70) == [0, 20, 40, 60]
    assert svg._ticks(0, 100) == [0, 20, 40, 60, 80, 100]


def test_histogram_shares_by_hand():
    # 4 values, 2 bins: [0, .5) holds 0.1 and 0.2, [.5, 1] holds 0.5 and 1.0 -> shares 0.5 and 0.5
    out = svg.histogram([("a", [0.1, 0.2, 0.5, 1.0])], "t", bins=2)
    ET.fromstring(out)  # well-formed
    assert out.count("<polyline") == 1


@given(st.lists(st.floats(0, 1), max_size=30), st.lists(st.floats(0, 200), max_size=30))
def test_charts_are_well_formed_and_deterministic(ys, xs):
    n = min(len(xs), len(ys))
    charts = [svg.histogram([("a<b", ys)], "h & i"),
              svg.scatter([("s", xs[:n], ys[:n])], "s", "x", "y", trend_bins=5),
              svg.scatter([("s", ys[:n], ys[:n])], "s", "x", "y", xrange=(0, 1), diagonal=True),
              svg.bars(["instance", "top"], [("a", [0.5, None]), ("b", [1.0, 0.0])], "b")]
    for c in charts:
        ET.fromstring(c)
    assert charts[1] == svg.scatter([("s", xs[:n], ys[:n])], "s", "x", "y", trend_bins=5)
    assert charts[1].count('class="pt"') == n
