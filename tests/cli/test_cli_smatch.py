"""`mrkit smatch` on the command line: output, JSON, errors."""

from __future__ import annotations

import json
import pytest

from conftest import run_mrkit
from mrkit.cli import main

GOLD = "# ::id a\n(w / want-01 :ARG0 (b / boy))\n\n# ::id b\n(d / dog)\n"
SYSTEM = "(w / want-01 :ARG0 (b / girl))\n\n(c / cat)\n"


@pytest.fixture
def files(tmp_path):
    g, s = tmp_path / "gold.amr", tmp_path / "sys.amr"
    g.write_text(GOLD)
    s.write_text(SYSTEM)
    return g, s


def test_text_report(files, capsys):
    g, s = files
    assert main(["smatch", str(g), str(s)]) == 0
    out = capsys.readouterr().out
    # pair 1: 3 of 4 triples on each side (girl != boy); pair 2: 1 (top) of 2 -> 4 of 6
    assert "F-score: 0.6667" in out and "Macro F-score: 0.6250" in out
    assert "Certified optimal: 2/2 pairs" in out


def test_json_per_pair_and_classic_flag(files, capsys):
    g, s = files
    assert main(["smatch", "-f", str(s), str(g), "--json", "--per-pair"]) == 0  # smatch.py order
    d = json.loads(capsys.readouterr().out)
    assert d["matched"] == 4 and d["gold_triples"] == 6 and d["system_triples"] == 6
    assert [p["id"] for p in d["per_pair"]] == ["a", "b"]
    assert d["summary"]["certified_share"] == 1.0 and d["summary"]["certified"] == 2


def test_output_file_written(files, tmp_path, capsys):
    g, s = files
    out = tmp_path / "report.json"
    assert main(["smatch", str(g), str(s), "--json", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["summary"]["f1"] == pytest.approx(4 / 6)
    assert capsys.readouterr().out == ""


def test_example(capsys):
    assert main(["smatch", "--example"]) == 0
    assert "F-score: 0.9032" in capsys.readouterr().out


def test_different_graph_counts(files, tmp_path, capsys):
    g, _ = files
    short = tmp_path / "short.amr"
    short.write_text("(a / b)\n")
    out = tmp_path / "r.txt"
    assert main(["smatch", str(g), str(short), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "short.amr" in err and "holds 1 graphs" in err and "holds 2" in err
    assert not out.exists()


def test_malformed_graph_in_subprocess(files, tmp_path):
    g, _ = files
    bad = tmp_path / "bad.amr"
    bad.write_text("# ::id ok\n(a / b)\n\n# ::id broken\n(a / b :ARG0 (c / d)\n")
    proc = run_mrkit("smatch", str(g), str(bad))
    assert proc.returncode == 2
    assert proc.stderr.startswith("mrkit: ") and "Traceback" not in proc.stderr
    assert f"{bad}:5, graph broken: malformed PENMAN" in proc.stderr
    assert proc.stdout == ""


def test_missing_arguments(capsys):
    assert main(["smatch", "only-one.amr"]) == 2
    assert "give GOLD and SYSTEM" in capsys.readouterr().err


def test_parallel_equals_serial_and_reports_errors(tmp_path):
    from mrkit.pipeline.amr import smatch_files
    from mrkit.runtime.executor import ProcessExecutor, SerialExecutor

    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("\n\n".join(f"(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-0{k % 3}))" for k in range(60)))
    system.write_text("\n\n".join(f"(x / want-01 :ARG0 (y / girl) :ARG1 (z / go-0{k % 2}))" for k in range(60)))
    serial = smatch_files(str(gold), str(system), executor=SerialExecutor(), keep_records=True)
    with ProcessExecutor(2) as ex:
        parallel = smatch_files(str(gold), str(system), executor=ex, keep_records=True, chunk=7)
    assert serial.records == parallel.records and serial.ids == parallel.ids
    assert serial.ids[0] == "1" and serial.f1 == parallel.f1
    system.write_text(system.read_text() + "\n\n(a / b :ARG0 (c / d)\n")
    from mrkit.errors import InputError

    with pytest.raises(InputError, match=r"s.amr:\d+, graph 61: malformed PENMAN"):
        with ProcessExecutor(2) as ex:
            smatch_files(str(gold), str(system), executor=ex, chunk=7)


def test_old_library_smatch_files_keeps_its_shape(files):
    from mrkit.metrics.amr.smatch import smatch_files

    g, s = files
    r = smatch_files(str(g), str(s), workers=2)
    assert [p.id for p in r.pairs] == ["a", "b"] and r.f1 == pytest.approx(4 / 6)


# -f follows smatch.py 1.0.4, which reads `-f A B` as (test/system, gold).  Oracle:
#   python3 -m venv v && v/bin/pip install smatch==1.0.4
#   v/bin/python v/bin/smatch.py --pr --significant 4 -f A.amr B.amr
#   -> Precision: 0.6667  Recall: 1.0000  F-score: 0.8000
# (A has 6 triples, B 4, all 4 of B's matched: A is the system file.)
PAIR_A = "(a / alpha :ARG0 (b / beta) :ARG1 (c / gamma))\n"
PAIR_B = "(a / alpha :ARG0 (b / beta))\n"


def test_f_flag_reads_system_then_gold_like_smatch_py(tmp_path, capsys):
    a, b = tmp_path / "A.amr", tmp_path / "B.amr"
    a.write_text(PAIR_A)
    b.write_text(PAIR_B)
    assert main(["smatch", "-f", str(a), str(b), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["gold"] == str(b) and d["system"] == str(a)
    s = d["summary"]
    assert round(s["precision"], 4) == 0.6667 and s["recall"] == 1.0 and round(s["f1"], 4) == 0.8
    # positionals stay GOLD SYSTEM: the same pair as `-f A B` is `B A`
    assert main(["smatch", str(b), str(a), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["precision"] == s["precision"]


def test_f_flag_with_positionals_is_an_error(tmp_path):
    a = tmp_path / "A.amr"
    a.write_text(PAIR_A)
    proc = run_mrkit("smatch", "-f", str(a), str(a), str(a), str(a))
    assert proc.returncode == 2 and "not both" in proc.stderr and proc.stdout == ""


def test_help_says_f_is_system_then_gold(capsys):
    with pytest.raises(SystemExit):
        main(["smatch", "--help"])
    out = capsys.readouterr().out
    assert "-f SYSTEM GOLD" in out


@pytest.mark.parametrize("command", [["smatch"], ["smatch", "-j", "2"], ["score", "-m", "smatch"],
                                     ["score", "-m", "wlk"], ["score", "-m", "sembleu"]])
def test_no_graph_at_all_is_an_error(tmp_path, command):
    # two empty files (or files with nothing but comments) used to score P = R = F = 1.0
    g, s = tmp_path / "gold.amr", tmp_path / "sys.amr"
    g.write_text("")
    s.write_text("# ::id x\n# nothing but comments\n")
    proc = run_mrkit(*command, str(g), str(s))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and str(g) in lines[0] and str(s) in lines[0] and "nothing to score" in lines[0]


def test_smatch_corpus_of_no_pairs_is_an_error():
    from mrkit.errors import InputError
    from mrkit.metrics.amr.smatch import smatch_corpus

    with pytest.raises(InputError, match="no pairs"):
        smatch_corpus([], [])


# ------------------------------------------------------------------ statistics, formats, executors
# Six pairs whose Smatch counts are known by hand.  Gold (every pair): (a / c :ARG0 (b / d)),
# 4 triples: instance a c, instance b d, ARG0 a b, top a.
STATS_GOLD = [f"# ::id p{k}\n(a / c :ARG0 (b / d))\n" for k in range(1, 7)]
SYS_A = ["(a / c :ARG0 (b / d))",                 # (4, 4, 4)
         "(a / c)",                               # instance a c, top: (2, 4, 2)
         "(a / c :ARG0 (b / e))",                 # b / e differs: (3, 4, 4)
         "(a / z)",                               # only the top: (1, 4, 2)
         "(a / c :ARG1 (b / d))",                 # ARG1 is not ARG0: (3, 4, 4)
         "(a / c :ARG0 (b / d) :ARG1 (e / f))"]   # 6 triples, 4 matched: (4, 4, 6)
COUNTS_A = [(4, 4, 4), (2, 4, 2), (3, 4, 4), (1, 4, 2), (3, 4, 4), (4, 4, 6)]
SYS_B = ["(a / c :ARG0 (b / e))", "(a / c :ARG0 (b / d))", "(a / c)",
         "(a / c :ARG0 (b / d))", "(a / z)", "(a / c :ARG1 (b / d))"]
COUNTS_B = [(3, 4, 4), (4, 4, 4), (2, 4, 2), (4, 4, 4), (1, 4, 2), (3, 4, 4)]


@pytest.fixture
def stats_files(tmp_path):
    g, a, b = tmp_path / "gold.amr", tmp_path / "a.amr", tmp_path / "b.amr"
    g.write_text("\n".join(STATS_GOLD))
    a.write_text("\n\n".join(SYS_A) + "\n")
    b.write_text("\n\n".join(SYS_B) + "\n")
    return g, a, b


def _prf(sums):
    m, g, s = sums
    return {"precision": m / s, "recall": m / g, "f1": 2 * m / (g + s)}


def test_counts_of_the_stats_corpus(stats_files, capsys):
    g, a, _ = stats_files
    assert main(["smatch", str(g), str(a), "--per-pair", "--format", "tsv"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    head = rows[0]
    assert head[:2] == ["pair", "id"] and {"matched", "gold", "system", "precision", "recall", "f1",
                                            "certified", "method"} <= set(head)
    got = [(float(r[head.index("matched")]), int(r[head.index("gold")]), int(r[head.index("system")]))
           for r in rows[1:]]
    assert got == COUNTS_A
    assert [r[1] for r in rows[1:]] == [f"p{k}" for k in range(1, 7)]


def test_bootstrap_equals_a_naive_loop(stats_files, capsys):
    np = pytest.importorskip("numpy")
    g, a, _ = stats_files
    samples, seed = 300, 7
    assert main(["smatch", str(g), str(a), "--json", "--bootstrap", str(samples), "--stats-seed", str(seed)]) == 0
    d = json.loads(capsys.readouterr().out)
    counts = np.array(COUNTS_A, dtype=float)
    idx = np.random.default_rng(seed).integers(0, len(counts), size=(samples, len(counts)))
    values = {k: [] for k in ("precision", "recall", "f1")}
    for row in idx:
        for k, v in _prf(counts[row].sum(axis=0)).items():
            values[k].append(v)
    for k, v in values.items():
        assert d["ci"][k] == pytest.approx([np.percentile(v, 2.5), np.percentile(v, 97.5)], abs=1e-12)
    assert d["ci_samples"] == samples and d["ci_seed"] == seed
    assert d["summary"]["f1"] == pytest.approx(2 * 17 / (24 + 22))


def test_against_equals_a_naive_paired_bootstrap_and_randomization(stats_files, capsys):
    np = pytest.importorskip("numpy")
    g, a, b = stats_files
    samples, seed = 200, 3
    assert main(["smatch", str(g), str(a), "--against", str(b), "--json", "--bootstrap", str(samples),
                 "--stats-seed", str(seed)]) == 0
    d = json.loads(capsys.readouterr().out)
    ca, cb = np.array(COUNTS_A, dtype=float), np.array(COUNTS_B, dtype=float)
    n = len(ca)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(samples, n))
    swap = rng.integers(0, 2, size=(samples, n)) == 0
    observed = {k: _prf(ca.sum(0))[k] - _prf(cb.sum(0))[k] for k in ("precision", "recall", "f1")}
    boot = {k: [] for k in observed}
    perm = {k: [] for k in observed}
    for row in idx:
        pa, pb = _prf(ca[row].sum(0)), _prf(cb[row].sum(0))
        for k in observed:
            boot[k].append(pa[k] - pb[k])
    for flip in swap:
        xa = np.where(flip[:, None], cb, ca).sum(0)
        xb = np.where(flip[:, None], ca, cb).sum(0)
        pa, pb = _prf(xa), _prf(xb)
        for k in observed:
            perm[k].append(pa[k] - pb[k])
    assert d["against"]["system"] == str(b) and d["against"]["samples"] == samples
    assert d["against"]["summary"]["f1"] == pytest.approx(2 * 17 / (24 + 20))
    for k, diff in observed.items():
        t = d["against"]["tests"][k]
        assert t["difference"] == pytest.approx(diff, abs=1e-12)
        assert t["ci"] == pytest.approx([np.percentile(boot[k], 2.5), np.percentile(boot[k], 97.5)], abs=1e-12)
        bv = np.array(boot[k])
        other = (bv <= 0).sum() if diff > 0 else (bv >= 0).sum()
        assert t["p_bootstrap"] == pytest.approx(1.0 if diff == 0 else min(1.0, 2 * other / samples))
        hits = sum(abs(x) >= abs(diff) - 1e-12 for x in perm[k])
        assert t["p_randomization"] == pytest.approx((hits + 1) / (samples + 1))


def test_statistics_lines_follow_the_text_report(stats_files, capsys):
    g, a, b = stats_files
    assert main(["smatch", str(g), str(a), "--bootstrap", "50", "--against", str(b)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # micro: 17 of 24 gold / 22 system; macro: mean of 1, 4/6, 6/8, 2/6, 6/8, 8/10 = 4.3 / 6
    assert lines[:5] == ["Precision: 0.7727", "Recall: 0.7083", "F-score: 0.7391", "Macro F-score: 0.7167",
                         "Certified optimal: 6/6 pairs (100.0%)"]
    assert lines[5].startswith("95% CI precision: [") and lines[5].endswith("(50 bootstrap samples)")
    assert lines[8].startswith(f"Against {b} (50 samples, seed 0):")
    assert lines[11].startswith("  f1: 0.7727  difference -0.0336")


def test_summary_csv_and_per_pair_csv(stats_files, capsys):
    g, a, _ = stats_files
    assert main(["smatch", str(g), str(a), "--format", "csv"]) == 0
    head, row = capsys.readouterr().out.splitlines()
    assert head.split(",")[:4] == ["pairs", "precision", "recall", "f1"] and row.startswith("6,")
    assert main(["smatch", str(g), str(a), "--format", "csv", "--per-pair"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 7


def test_stdin_gives_the_same_report_as_the_file(stats_files):
    g, a, _ = stats_files
    by_file = run_mrkit("smatch", str(g), str(a), "--per-pair")
    assert by_file.returncode == 0
    for args in (["-", str(a)], [str(g), "-"]):
        proc = run_mrkit("smatch", *args, "--per-pair", input=(g if args[0] == "-" else a).read_text())
        assert proc.returncode == 0 and proc.stdout == by_file.stdout, proc.stderr
    both = run_mrkit("smatch", "-", "-", input="")
    assert both.returncode == 2 and "only one of GOLD and SYSTEM" in both.stderr


def test_processes_give_the_same_bytes_as_one_worker(stats_files):
    g, a, b = stats_files
    outs = [run_mrkit("smatch", str(g), str(a), "--json", "--per-pair", "--bootstrap", "20", "--against", str(b),
                      *opts) for opts in (["-j", "1"], ["-j", "2"], ["-j", "2", "--executor", "processes"])]
    assert all(p.returncode == 0 for p in outs), [p.stderr for p in outs]
    assert outs[0].stdout == outs[1].stdout == outs[2].stdout


def test_mrp_input_scores_as_the_penman_of_the_same_graphs(tmp_path):
    from conftest import shared_path
    from mrkit.codecs.amr_mrp import convert_amr_id
    from mrkit.codecs.mrp import read_mrp
    from mrkit.codecs.penman import dumps, read_penman

    amr, mrp = shared_path("mrp", "wsj-sample", "amr", "wsj.amr"), shared_path("mrp", "wsj-sample", "amr", "wsj.mrp")
    # the MRP release holds 87 of the 100 sentences, without :wiki: the same graphs in PENMAN
    by_id = {convert_amr_id(g.id): g for g in read_penman(amr)}
    same = [by_id[g.id] for g in read_mrp(mrp)]
    for g in same:
        for node in g.nodes.values():
            node.properties = [p for p in node.properties if p.key != "wiki"]
    pen = tmp_path / "wsj.amr"
    pen.write_text(dumps(same))
    shifted = tmp_path / "shifted.amr"  # a system: every sentence against the next one's graph
    shifted.write_text(dumps(same[1:] + same[:1]))

    def counts(*files, fmt=()):
        proc = run_mrkit("smatch", *files, "--per-pair", "--format", "tsv", *fmt)
        assert proc.returncode == 0, proc.stderr
        rows = [line.split("\t") for line in proc.stdout.splitlines()]
        cols = [rows[0].index(c) for c in ("matched", "gold", "system", "f1")]
        return [[r[c] for c in cols] for r in rows[1:]]

    by_penman = counts(str(pen), str(shifted))
    assert len(by_penman) == 87 and counts(str(mrp), str(shifted)) == by_penman
    assert {r[3] for r in counts(str(pen), str(mrp))} == {"1.0"}
    copy = tmp_path / "wsj.data"  # no telling suffix: the content says MRP
    copy.write_bytes(mrp.read_bytes())
    assert counts(str(copy), str(shifted)) == by_penman
    assert {r[3] for r in counts(str(copy), str(mrp), fmt=("--format", "mrp"))} == {"1.0"}
    said = run_mrkit("smatch", str(copy), str(shifted), "--format", "mrp")  # --format is for both files
    assert said.returncode == 2 and said.stderr.count("\n") == 1 and f"{shifted}:1: not a JSON line" in said.stderr


def test_mrp_graphs_of_another_framework_are_an_error(tmp_path):
    dm = tmp_path / "dm.mrp"
    dm.write_text('{"id": "1", "framework": "dm", "flavor": 0, "nodes": [{"id": 0, "label": "x"}], "edges": []}\n')
    amr = tmp_path / "a.amr"
    amr.write_text("(x / x)\n")
    proc = run_mrkit("smatch", str(amr), str(dm))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"mrkit: {dm}:1, graph 1: dm graph, not AMR: Smatch scores AMR graphs"


def test_input_format_that_cannot_hold_amr_is_an_error(stats_files, capsys):
    g, a, _ = stats_files
    assert main(["smatch", str(g), str(a), "--format", "sdp"]) == 2
    assert "unknown format 'sdp'" in capsys.readouterr().err
    assert main(["smatch", str(g), str(a), "--against", "-"]) == 2
    assert "--against reads the gold file twice" in capsys.readouterr().err
