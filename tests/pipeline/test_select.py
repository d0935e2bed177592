"""pipeline/select.py (MBSE): hand-computed choices and agreements, ties to the earlier
file, equality with a naive loop over the registry's Smatch on real parser outputs, gold
scores equal `smatch_files`, mismatched files are an error naming the file."""

from __future__ import annotations

import pytest

from conftest import shared_path
from mrkit.codecs.penman import read_penman
from mrkit.errors import InputError, MrkitError
from mrkit.metrics.registry import score
from mrkit.pipeline.select import select_files

# sentence 1 (Smatch by hand; triples = TOP, instances, relations):
#   c1 (w / want-01 :ARG0 (b / boy))                     4 triples
#   c2 (w / want-01 :ARG0 (g / girl))                    4 triples; vs c1: 3 matched, F1 3/4
#   c3 (w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))   6 triples; vs c1: 4 matched, F1 8/10; vs c2: 3, F1 6/10
#   means: c1 (3/4 + 8/10) / 2 = 0.775, c2 (3/4 + 6/10) / 2 = 0.675, c3 (8/10 + 6/10) / 2 = 0.7 -> c1
# sentence 2: c1 (d / dog), c2 (c / cat), c3 (c / cat): dog vs cat F1 1/2 (TOP only), cat vs cat 1
#   means: c1 1/2, c2 3/4, c3 3/4 -> c2 (a tie with c3: the earlier file)
CANDIDATES = [
    "# ::id s1\n(w / want-01 :ARG0 (b / boy))\n\n# ::id s2\n(d / dog)\n",
    "(w / want-01 :ARG0 (g / girl))\n\n(c / cat)\n",
    "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))\n\n(c / cat)\n",
]
GOLD = "(w / want-01 :ARG0 (g / girl))\n\n(d / dog)\n"


@pytest.fixture()
def files(tmp_path):
    paths = []
    for k, text in enumerate(CANDIDATES, 1):
        p = tmp_path / f"c{k}.amr"
        p.write_text(text)
        paths.append(str(p))
    gold = tmp_path / "gold.amr"
    gold.write_text(GOLD)
    return paths, str(gold)


def test_hand_computed_selection(files):
    paths, gold = files
    res = select_files(paths, gold)
    assert res.choice == [0, 1]
    assert res.agreement[0] == pytest.approx([0.775, 0.675, 0.7])
    assert res.agreement[1] == pytest.approx([0.5, 0.75, 0.75])
    assert res.ids == ["s1", "s2"] and res.certified == [True, True]
    assert res.blocks[1].strip() == "(c / cat)"
    # against the gold: sentence 1 c1 vs gold 3 of 4, sentence 2 c2 (cat) vs dog 1 of 2
    sel = res.gold_scores()["selected"]
    assert sel["f1"] == pytest.approx(2 * 4 / (6 + 6))
    rows = res.rows()
    assert rows[0]["selected"] == 1 and rows[0]["gold_f1"] == pytest.approx(0.75)
    assert rows[1]["gold_f1_1"] == pytest.approx(1.0)


def naive(paths: list[str]) -> tuple[list[int], list[list[float]]]:
    graphs = [read_penman(p) for p in paths]
    k = len(paths)
    choice, means = [], []
    for n in range(len(graphs[0])):
        m = []
        for c in range(k):
            total = 0.0
            for d in range(k):
                if d != c:
                    a, b = min(c, d), max(c, d)  # Smatch F1 is symmetric: one order, as select aligns it
                    total += score("smatch", [graphs[a][n]], [graphs[b][n]]).pair_scores[0]
            m.append(total / (k - 1))
        means.append(m)
        choice.append(max(range(k), key=lambda c: (m[c], -c)))
    return choice, means


@pytest.mark.shared_data
def test_equals_a_naive_loop_on_real_parses_any_chunk(tmp_path):
    folder = shared_path("amr", "parseeval-little-prince")
    paths = []
    for name in ("bart.amr", "t5.amr", "gold.amr"):
        blocks = (folder / name).read_text(encoding="utf-8").split("\n\n")
        p = tmp_path / name
        p.write_text("\n\n".join([b for b in blocks if "(" in b][:30]) + "\n")
        paths.append(str(p))
    choice, means = naive(paths)
    for chunk in (1, 7, 32):
        res = select_files(paths, chunk=chunk)
        assert res.choice == choice and res.agreement == means  # bit for bit


@pytest.mark.shared_data
def test_gold_scores_equal_smatch_files():
    from mrkit.pipeline.amr import smatch_files

    folder = shared_path("amr", "parseeval-little-prince")
    bart, t5, gold = (str(folder / n) for n in ("bart.amr", "t5.amr", "gold.amr"))
    res = select_files([bart, t5], gold)
    want = smatch_files(gold, t5).summary()
    got = res.gold_scores()["candidates"][1]
    assert (got["precision"], got["recall"], got["f1"]) == (want["precision"], want["recall"], want["f1"])


def test_errors(files, tmp_path):
    paths, gold = files
    short = tmp_path / "short.amr"
    short.write_text("(a / alpha)\n")
    with pytest.raises(InputError) as err:
        select_files([paths[0], str(short)])
    assert str(err.value).startswith(f"{short}: holds 1 graphs")
    with pytest.raises(MrkitError, match="two candidate files at least"):
        select_files([paths[0]])
    bad = tmp_path / "bad.amr"
    bad.write_text("(w / want-01)\n\n(c / cat :ARG0 (x / x)\n")
    with pytest.raises(InputError) as err:
        select_files([paths[0], str(bad)])
    assert str(err.value).startswith(f"{bad}:3")
