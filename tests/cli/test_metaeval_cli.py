"""``mrkit compare``: tiny hand-computed studies, the Little Prince study, and error paths."""

from __future__ import annotations

import json
import math
import sys

import pytest

from conftest import shared_path
from mrkit.cli import main

GOLD = """(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))

(c / cat)

(d / dog :mod (b / big))
"""
# pair F1 (Smatch, hand-computed): 1, 1, 2*2/(4+2)
SYS_A = """(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))

(c / cat)

(d / dog)
"""
# pair F1: 2*4/(7+4), 2*1/(2+2) (only the top triple matches), 1
SYS_B = """(w / want-01 :ARG0 (b / boy))

(c / dog)

(d / dog :mod (b / big))
"""
LABELS = "1.0\t1\t0\tx\nsee above\n0.0\t1\t0\ty\nsee above\n0.5\t0\t1\tz\nsee above\n"


@pytest.fixture
def study(tmp_path):
    paths = {}
    for name, text in (("gold", GOLD), ("a", SYS_A), ("b", SYS_B), ("labels", LABELS)):
        p = tmp_path / f"{name}.txt"
        p.write_text(text)
        paths[name] = str(p)
    return paths


def run(capsys, *argv):
    code = main(["compare", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_tiny_study_json(study, capsys):
    code, out, err = run(capsys, study["gold"], study["a"], study["b"], "--human", study["labels"],
                         "--metrics", "smatch", "--json", "--samples", "50", "--per-pair")
    assert code == 0, err
    d = json.loads(out)
    assert d["systems"] == ["a", "b"]
    assert d["per_pair"]["smatch"]["a"] == pytest.approx([1, 1, 2 / 3])
    assert d["per_pair"]["smatch"]["b"] == pytest.approx([8 / 11, 0.5, 1])
    sc = d["system_scores"]["smatch"]
    # micro: A matches 7+2+2 of 13 gold / 11 system triples; B 4+1+4 of 13 / 10
    assert sc["a"]["micro"] == pytest.approx(22 / 24)
    assert sc["b"]["micro"] == pytest.approx(18 / 23)
    assert sc["a"]["macro"] == pytest.approx((2 + 2 / 3) / 3)
    pref = d["preferences"]["a vs b"]
    assert pref["smatch"]["share"] == pytest.approx(2 / 3)
    assert pref["human"]["share"] == pytest.approx(0.5)  # 1 win, 1 loss, 1 equal
    assert (pref["smatch"]["sign_test"]["wins"], pref["smatch"]["sign_test"]["losses"]) == (2, 1)
    # humans prefer A on item 1 (metric agrees) and B on item 2 (metric disagrees)
    pw = d["pairwise_accuracy"]["smatch"]
    assert pw["accuracy"] == pytest.approx(0.5) and (pw["right"], pw["counted"]) == (1, 2)
    # scores pooled: A 1, 1, .667; B .727, .5, 1 -> ranks 5, 5, 2; 3, 1, 5
    # acceptable: A1, A2, B3 -> ranks 5, 5, 5; unacceptable: A3, B1, B2 -> 2, 3, 1
    ad = d["acceptability"]["smatch"]
    assert ad["a_delta"] == pytest.approx(3.0) and ad["normalized"] == pytest.approx(0.5)
    assert d["system_scores"]["human acceptable"]["a"]["micro"] == pytest.approx(2 / 3)
    assert d["spearman"]["smatch"]["smatch"] == 1.0
    assert d["human_counts"]["equal"] == 1


def test_tiny_study_text_tables(study, capsys):
    code, out, _ = run(capsys, study["gold"], study["a"], study["b"], "--human", study["labels"],
                       "--metrics", "smatch", "--samples", "20", "--names", "first,second")
    assert code == 0
    assert "System-level scores (3 items)" in out
    assert "Preferences first vs second" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("smatch") and "/" in ln and "P(" not in ln)
    assert "0.667" in line and "2/0/1" in line
    assert "human acceptable" in out and "A-delta" in out and "sentence length" in out


def test_output_file_and_determinism(study, capsys, tmp_path):
    out_file = tmp_path / "report.json"
    args = [study["gold"], study["a"], study["b"], "--metrics", "smatch", "--json", "--samples", "100"]
    assert run(capsys, *args, "-o", str(out_file))[0] == 0
    first = out_file.read_text()
    assert run(capsys, *args, "-o", str(out_file))[0] == 0
    assert out_file.read_text() == first


def test_plot_is_written(study, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "fig.png"
    code, _, err = run(capsys, study["gold"], study["a"], study["b"], "--metrics", "smatch",
                       "--samples", "0", "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def one_line_error(code, out, err):
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mrkit: ") and "Traceback" not in err
    return lines[0]


def test_label_count_mismatch_exits_2_and_writes_nothing(study, capsys, tmp_path):
    labels = tmp_path / "short.txt"
    labels.write_text("1.0\t1\t0\tx\nsee above\n")
    out_file = tmp_path / "never.json"
    line = one_line_error(*run(capsys, study["gold"], study["a"], study["b"], "--human", str(labels),
                               "--metrics", "smatch", "-o", str(out_file)))
    assert f"{labels}: holds labels for 1 items but the gold file {study['gold']} holds 3 graphs" in line
    assert not out_file.exists()


def test_bad_label_value_names_line(study, capsys, tmp_path):
    labels = tmp_path / "bad.txt"
    labels.write_text("1.0\t1\t0\tx\nsee above\n0.7\t1\t0\ty\n")
    line = one_line_error(*run(capsys, study["gold"], study["a"], study["b"], "--human", str(labels)))
    assert f"{labels}:3, graph y: preference '0.7' must be one of 0, 0.5, 1" in line


def test_system_length_mismatch(study, capsys, tmp_path):
    short = tmp_path / "short.amr"
    short.write_text("(c / cat)\n")
    line = one_line_error(*run(capsys, study["gold"], study["a"], str(short), "--metrics", "smatch"))
    assert f"{short}: holds 1 graphs but the gold file" in line


@pytest.mark.parametrize("extra, message", [
    (["--metrics", "nosuch"], "unknown metric 'nosuch'"),
    (["--names", "x"], "--names lists 1 names for 2 system files"),
    (["--level", "2"], "--level must lie between 0 and 1"),
])
def test_option_errors(study, capsys, extra, message):
    line = one_line_error(*run(capsys, study["gold"], study["a"], study["b"], *extra))
    assert message in line


def test_single_system_is_an_error(study, capsys):
    line = one_line_error(*run(capsys, study["gold"], study["a"]))
    assert "at least two SYSTEM files" in line


def test_missing_matplotlib_is_one_line(study, capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    line = one_line_error(*run(capsys, study["gold"], study["a"], study["b"], "--metrics", "smatch",
                               "--plot", str(tmp_path / "f.png")))
    assert "pip install 'mrkit[plot]'" in line
    assert not (tmp_path / "f.png").exists()


# ---- the Little Prince study (Opitz & Frank 2022), against smatchpp's exact per-pair scores ----

def _reference_f1(folder, system):
    ref = json.loads((folder / "reference-scores" / f"lp-parseeval-{system}-vs-gold.smatchpp-1.8.0-ilp.json")
                     .read_text())
    return [2 * m / (t + g) if t + g else 1.0 for m, t, g, _ in ref["per_pair"]]


def _avg_ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def test_little_prince_study_matches_reference_scores(capsys):
    folder = shared_path("amr", "parseeval-little-prince")
    code, out, err = run(capsys, str(folder / "gold.amr"), str(folder / "bart.amr"), str(folder / "t5.amr"),
                         "--human", str(folder / "original" / "qualitylp_LABEL.txt"),
                         "--metrics", "smatch", "--json", "--samples", "100")
    assert code == 0, err
    d = json.loads(out)
    bart, t5 = _reference_f1(folder, "bart"), _reference_f1(folder, "t5")
    lines = [ln.split("\t") for ln in (folder / "original" / "qualitylp_LABEL.txt").read_text().splitlines()
             if ln.strip() != "see above"]
    pref = [float(x[0]) for x in lines]
    acc = [int(x[1]) for x in lines] + [int(x[2]) for x in lines]

    wins = sum(a > b for a, b in zip(bart, t5))
    ties = sum(a == b for a, b in zip(bart, t5))
    assert d["preferences"]["bart vs t5"]["smatch"]["share"] == pytest.approx((wins + ties / 2) / 200)
    assert d["preferences"]["bart vs t5"]["human"]["share"] == pytest.approx((54 + 66 / 2) / 200)
    # human sign test: 54 BART wins against 80 T5 wins, two-sided exact binomial
    p = 2 * sum(math.comb(134, k) for k in range(55)) / 2 ** 134
    assert d["preferences"]["bart vs t5"]["human"]["sign_test"]["p"] == pytest.approx(p)

    agree = [(p_ == 1 and a > b) or (p_ == 0 and a < b) for p_, a, b in zip(pref, bart, t5)
             if p_ != 0.5 and a != b]
    assert d["pairwise_accuracy"]["smatch"]["accuracy"] == pytest.approx(sum(agree) / len(agree))

    ranks = _avg_ranks(bart + t5)
    expected = _median([r for r, a in zip(ranks, acc) if a]) - _median([r for r, a in zip(ranks, acc) if not a])
    assert d["acceptability"]["smatch"]["a_delta"] == pytest.approx(expected)
    assert d["system_scores"]["smatch"]["bart"]["macro"] == pytest.approx(sum(bart) / 200)
    assert d["system_scores"]["human acceptable"]["t5"]["micro"] == pytest.approx(129 / 200)


def test_three_systems_with_tsv_labels(study, capsys, tmp_path):
    labels = tmp_path / "h.tsv"
    labels.write_text("id\tpreference\taccept_a\taccept_b\taccept_gold\n"
                      "x\t1\t1\t0\t1\ny\t\t1\t0\t1\nz\t0.5\t0\t1\t1\n")
    code, out, err = run(capsys, study["gold"], study["a"], study["b"], study["gold"], "--names", "a,b,g",
                         "--human", str(labels), "--metrics", "smatch", "--json", "--samples", "20")
    assert code == 0, err
    d = json.loads(out)
    assert list(d["preferences"]) == ["a vs b", "a vs g", "b vs g"]
    assert "human" in d["preferences"]["a vs b"] and "human" not in d["preferences"]["a vs g"]
    # the gold file scored against itself: 1 on every pair; A ties on 2 of 3, loses item 3
    assert d["preferences"]["a vs g"]["smatch"]["share"] == pytest.approx((0 + 2 / 2) / 3)
    # one strict human preference (item x: A, metric agrees); item y is unjudged
    assert d["pairwise_accuracy"]["smatch"]["counted"] == 1
    assert d["pairwise_accuracy"]["smatch"]["accuracy"] == 1.0
    assert d["system_scores"]["human acceptable"]["g"]["micro"] == 1.0


def test_several_metrics_through_the_registry(study):
    from collections import Counter

    from mrkit.codecs.penman import read_penman
    from mrkit.metaeval import meta_evaluate
    from mrkit.metrics.registry import MetricResult, register

    @register("test-same-concepts")
    def same_concepts(golds, systems):
        per = [float(Counter(n.label for n in g.nodes.values()) == Counter(n.label for n in s.nodes.values()))
               for g, s in zip(golds, systems)]
        return MetricResult("test-same-concepts", per, sum(per) / len(per))

    gold = read_penman(study["gold"])
    ev = meta_evaluate(gold, {"a": read_penman(study["a"]), "b": read_penman(study["b"])},
                       ["smatch", "test-same-concepts"], samples=10)
    assert list(ev.scores("test-same-concepts", "a")) == [1, 1, 0]
    # pooled ranks: smatch 5, 5, 2, 3, 1, 5; same-concepts 5, 5, 2, 2, 2, 5 -> rho = sqrt(13.5 / 15.5)
    assert ev.correlation["smatch"]["test-same-concepts"] == pytest.approx((13.5 / 15.5) ** 0.5)
    assert ev.correlation["test-same-concepts"]["smatch"] == ev.correlation["smatch"]["test-same-concepts"]
    assert ev.preference_table["a vs b"]["test-same-concepts"]["share"] == pytest.approx(2 / 3)


def test_list_metrics_needs_no_files(capsys):
    code, out, _ = run(capsys, "--list-metrics")
    assert code == 0 and "smatch" in out.split()


def test_no_files_is_an_error(capsys):
    assert "at least two SYSTEM files" in one_line_error(*run(capsys))
