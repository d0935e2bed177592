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
