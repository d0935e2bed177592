"""Pairwise accuracy and A-delta for every pair of systems (more than two systems):
hand-computed on a tiny study."""

from __future__ import annotations

from mrkit.codecs.labels import parse_labels
from mrkit.codecs.penman import loads
from mrkit.metaeval import meta_evaluate
from mrkit.report.render import render

GOLD = loads("(c / cat)\n\n(d / dog)\n\n(b / bird)\n\n(f / fish)")
A = loads("(c / cat)\n\n(d / dog)\n\n(b / bird)\n\n(f / fish)")   # Smatch 1, 1, 1, 1
B = loads("(c / cat)\n\n(c / cow)\n\n(b / bird)\n\n(f / fox)")    # 1, 1/2, 1, 1/2 (the top triple matches)
C = loads("(c / cow)\n\n(d / dog)\n\n(f / fox)\n\n(f / fish)")    # 1/2, 1, 1/2, 1
LABELS = parse_labels('''[{"id": "1", "preference": 0.5, "acceptable": [1, 1, 0]},
 {"id": "2", "preference": 1, "acceptable": [1, 0, 1]},
 {"id": "3", "preference": 0.5, "acceptable": [1, 1, 0]},
 {"id": "4", "preference": 1, "acceptable": [1, 0, 1]}]''')


def test_every_pair_of_systems():
    for g in GOLD:
        g.metadata.pop("id", None)
    ev = meta_evaluate(GOLD, {"A": A, "B": B, "C": C}, ["smatch"], LABELS, samples=0)
    pairs = ev.system_pairs_table
    assert list(pairs) == ["A vs B", "A vs C", "B vs C"]
    assert pairs["A vs B"]["human"] == "preference labels"
    assert pairs["B vs C"]["human"] == "acceptability"
    # A vs B: strict preferences on items 2 and 4 (A), Smatch prefers A there: 2/2
    ab = pairs["A vs B"]["smatch"]["pairwise"]
    assert (ab["right"], ab["counted"], ab["accuracy"]) == (2, 2, 1.0)
    # B vs C from acceptability: +, -, +, -; Smatch: +, -, +, -: 4/4
    bc = pairs["B vs C"]["smatch"]
    assert (bc["pairwise"]["right"], bc["pairwise"]["counted"]) == (4, 4)
    # A-delta of B and C's eight parses: acceptable ones all score 1 (ranks 5-8, median
    # 6.5), unacceptable ones 1/2 (ranks 1-4, median 2.5): 4
    assert bc["a_delta"]["a_delta"] == 4.0
    # A vs C: acceptability differs on items 1 and 3 (A acceptable), Smatch agrees: 2/2
    ac = pairs["A vs C"]["smatch"]["pairwise"]
    assert (ac["right"], ac["counted"]) == (2, 2)
    text = render(ev)
    assert "Agreement with humans, B vs C (human preference from acceptability" in text
    assert "system_pairs" in ev.to_dict()
