"""The coref and hierarchy commands: tables, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit, shared_path
from mrkit.cli import main


def _conll(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(body)
    return str(path)


KEY = "#begin document (d1);\nt 0 0 a (0\nt 0 1 b 0)\nt 0 2 c (0)\n#end document\n"


def test_coref_json_and_table(tmp_path, capsys):
    key = _conll(tmp_path, "key.conll", KEY)
    resp = _conll(tmp_path, "resp.jsonl", json.dumps({"doc_key": "(d1);", "clusters": [[[0, 1], [2, 2]]]}) + "\n")
    assert main(["coref", key, resp, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["muc"]["f1"] == 1.0 and out["scores"]["conll"]["f1"] == 1.0
    assert main(["coref", key, key]) == 0
    table = capsys.readouterr().out
    assert "lea" in table and "100.00" in table


def test_coref_reference_case_table(capsys):
    folder = shared_path("coref", "reference-scorer-tests")
    assert main(["coref", str(folder / "TC-A.key"), str(folder / "TC-A-4.response"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["bcub"]["counts"]["r_den"] == 6
    assert out["scores"]["bcub"]["recall"] == pytest.approx(5 / 9)


@pytest.mark.parametrize("body,where,message", [
    ("#begin document (d1);\nt 0 0 a 0)\n#end document\n", ":2, document (d1);:", "never began"),
    ("#begin document (d1);\nt 0 0 a (0\nt 0 1 b -\n#end document\n", ":2, document (d1);:", "never ends"),
    ("#begin document (d1);\nt 0 0 a (0)\n", ":1, document (d1);:", "document never ends"),
    ("#begin document (d1);\nt 0 0 a (0)\n#begin document (d2);\n#end document\n", ":1, document (d1);:",
     "document never ends"),
    ("#begin document (d1);\nt 0 0 a (x)\n#end document\n", ":2, document (d1);:", "cannot read coreference field"),
])
def test_malformed_column_file(tmp_path, capsys, body, where, message):
    bad = _conll(tmp_path, "bad.conll", body)
    good = _conll(tmp_path, "key.conll", KEY)
    out = tmp_path / "report.txt"
    assert main(["coref", good, bad, "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mrkit: " + bad + where) and message in err[0]
    assert not out.exists()


def test_mismatched_document_ids(tmp_path, capsys):
    key = _conll(tmp_path, "key.conll", KEY)
    resp = _conll(tmp_path, "resp.conll", KEY.replace("(d1)", "(d2)"))
    assert main(["coref", key, resp]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "document (d1);" in err[0] and "missing from the response" in err[0]


def test_repeated_error_option(tmp_path, capsys):
    key = _conll(tmp_path, "key.conll", KEY)
    resp = _conll(tmp_path, "resp.conll", KEY.replace("(0)", "(0)(1)"))
    assert main(["coref", key, resp]) == 0
    capsys.readouterr()
    assert main(["coref", key, resp, "--repeated", "error"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "resp.conll:4, document (d1);: mention (2, 2) is repeated" in err[0]


def test_hierarchy_command(capsys):
    folder = shared_path("coref", "scico-handmade")
    assert main(["hierarchy", str(folder / "gold.jsonl"), str(folder / "system.jsonl"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hierarchy"]["f1"] == pytest.approx(0.43636363636363634)
    assert out["path_ratio"]["micro"] == pytest.approx(0.5119047619047619)
    assert main(["hierarchy", str(folder / "gold.jsonl"), str(folder / "system.jsonl")]) == 0
    assert "hierarchy 50%" in capsys.readouterr().out


@pytest.mark.parametrize("command,content", [("coref", ""), ("coref", "\n\n"), ("hierarchy", "")])
def test_nothing_to_score_is_an_error_not_a_score(tmp_path, command, content):
    """Issue 12 item 8: files without a document (topic) used to print a table of 0/0
    scores with exit 0; nothing scored is an error."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text(content)
    args = [command, str(empty), str(empty)] + (["--format", "jsonl"] if content else [])
    r = run_mrkit(*args, "--json")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"mrkit: {empty}: holds no ") and r.stderr.count("\n") == 1, r.stderr


# ---------------------------------------------------------------- the pipeline: statistics, rows, executors

def _multi(tmp_path, responses: dict[str, str], name: str) -> str:
    """A multi-document file of the reference test cases (document ids: the case letter)."""
    folder = shared_path("coref", "coval-tests")
    parts = []
    for case in "ABCDEFGHIJKLMN":
        src = folder / (f"{responses[case]}.response" if case in responses else f"TC-{case}.key")
        for line in src.read_text().splitlines():
            parts.append(f"#begin document {case}" if line.startswith("#begin document") else line)
    path = tmp_path / name
    path.write_text("\n".join(parts) + "\n")
    return str(path)


def _corpus(tmp_path):
    key = _multi(tmp_path, {}, "key.conll")
    a = _multi(tmp_path, {c: f"TC-{c}-1" for c in "ABCDEFGHIJKLMN"}, "a.conll")
    b = _multi(tmp_path, {"A": "TC-A-5", "M": "TC-M-2", "N": "TC-N-3"}, "b.conll")
    return key, a, b


def _conll_f1(scores: dict) -> float:
    return (scores["muc"]["f1"] + scores["bcub"]["f1"] + scores["ceafe"]["f1"]) / 3


def test_coref_summary_is_conll_f1_and_detail_stays(tmp_path, capsys):
    key, a, _ = _corpus(tmp_path)
    assert main(["coref", key, a, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == "coref" and out["summary"]["pairs"] == 14
    assert out["summary"]["f1"] == pytest.approx(out["scores"]["conll"]["f1"], abs=1e-12)
    assert {"average", "options", "documents", "scores", "undefined"} <= set(out)
    assert main(["coref", key, a, "--json", "--macro", "--per-document"]) == 0
    out = json.loads(capsys.readouterr().out)
    per_doc = [_conll_f1(d) for d in out["per_document"].values()]
    assert out["summary"]["f1"] == pytest.approx(sum(per_doc) / len(per_doc), abs=1e-12)
    assert out["summary"]["f1"] == pytest.approx(out["scores"]["conll"]["f1"], abs=1e-12)


def test_coref_against_difference_and_same_bytes_for_any_executor(tmp_path, capsys):
    key, a, b = _corpus(tmp_path)
    outs = []
    for extra in (["-j", "1"], ["-j", "2"], ["--executor", "processes", "-j", "2"]):
        assert main(["coref", key, a, "--json", "--bootstrap", "50", "--against", b, "--per-document", *extra]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == outs[2]
    out = json.loads(outs[0])
    assert main(["coref", key, b, "--json"]) == 0
    other = json.loads(capsys.readouterr().out)
    assert out["against"]["summary"]["f1"] == pytest.approx(other["summary"]["f1"], abs=1e-12)
    t = out["against"]["tests"]["f1"]
    assert t["difference"] == pytest.approx(out["scores"]["conll"]["f1"] - other["scores"]["conll"]["f1"], abs=1e-12)
    lo, hi = out["ci"]["f1"]
    assert lo <= out["summary"]["f1"] <= hi
    assert main(["coref", key, a, "--bootstrap", "50", "--against", b]) == 0
    text = capsys.readouterr().out
    assert "95% CI f1: [" in text and f"Against {b}" in text and "conll" in text


def test_coref_per_document_rows(tmp_path, capsys):
    key, a, _ = _corpus(tmp_path)
    assert main(["coref", key, a, "--json", "--per-document"]) == 0
    per_doc = json.loads(capsys.readouterr().out)["per_document"]
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        assert main(["coref", key, a, "--per-document", "--format", fmt]) == 0
        lines = capsys.readouterr().out.splitlines()
        head = lines[0].split(sep)
        rows = [dict(zip(head, line.split(sep))) for line in lines[1:]]
        assert [r["id"] for r in rows] == list(per_doc) == list("ABCDEFGHIJKLMN")
        for r in rows:
            d = per_doc[r["id"]]
            assert float(r["f1"]) == pytest.approx(_conll_f1(d), abs=1e-12)
            assert float(r["muc_r_num"]) == d["muc"]["r_num"] and float(r["lea_f1"]) == pytest.approx(d["lea"]["f1"])


def test_coref_formats_and_stdin(tmp_path):
    key, a, _ = _corpus(tmp_path)
    base = run_mrkit("coref", key, a, "--json")
    assert base.returncode == 0
    with open(key) as fh:
        piped = run_mrkit("coref", "-", a, "--json", "--format", "conll", stdin=fh)
    assert piped.returncode == 0
    assert json.loads(piped.stdout)["scores"] == json.loads(base.stdout)["scores"]
    assert json.loads(piped.stdout)["key"] == "-"
    with open(key) as fh:
        bad = run_mrkit("coref", "-", a, "--format", "jsonl", stdin=fh)
    assert bad.returncode == 2 and bad.stderr.startswith("mrkit: -:1:") and len(bad.stderr.splitlines()) == 1
    both = run_mrkit("coref", "-", "-")
    assert both.returncode == 2 and len(both.stderr.splitlines()) == 1
    assert run_mrkit("coref", key, a, "--format", "yaml").returncode == 2


def test_coref_against_with_missing_document_is_one_line(tmp_path):
    key, a, _ = _corpus(tmp_path)
    short = tmp_path / "short.conll"
    short.write_text(open(a).read().split("#begin document B")[0])
    r = run_mrkit("coref", key, a, "--against", str(short))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "missing" in r.stderr
    assert "Traceback" not in r.stderr


def test_coref_amr_statistics_and_no_against():
    folder = shared_path("docamr", "msamr-samples")
    xml, amr = str(folder / "pp_001.xml"), str(folder / "pp.amr.txt")
    r = run_mrkit("coref", xml, xml, "--amr", amr, amr, "--json", "--bootstrap", "20", "-j", "2")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["summary"]["f1"] == 1.0 and out["ci"]["f1"] == [1.0, 1.0]
    r = run_mrkit("coref", xml, xml, "--amr", amr, amr, "--against", xml)
    assert r.returncode == 2 and "--against" in r.stderr and len(r.stderr.splitlines()) == 1


def test_scico_conll_output_with_unclosed_drop_equals_scico(capsys):
    """SciCo's own CoNLL output (scico-handmade/*_simple.conll, written by its
    utils/conll.py) leaves one mention unclosed, which coval drops silently: with
    --unclosed drop and --remove-singletons mrkit gives SciCo's evaluate.py numbers."""
    folder = shared_path("coref", "scico-handmade")
    expected = json.loads((folder / "expected_scico_e1055b7.json").read_text())["coref_keep_singletons_False"]
    gold, system = str(folder / "gold_simple.conll"), str(folder / "system_simple.conll")
    assert main(["coref", gold, system, "--remove-singletons", "--unclosed", "drop", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["scores"]
    for m in ("mentions", "muc", "bcub", "ceafe", "lea"):
        got = out[m]
        assert (got["recall"], got["precision"], got["f1"]) == pytest.approx(tuple(expected[m]), abs=1e-12), m
    assert out["conll"]["f1"] == pytest.approx(expected["conll_f1_avg"], abs=1e-12)
    r = run_mrkit("coref", gold, system)  # without the option: the reference scorer's refusal
    assert r.returncode == 2 and "never ends" in r.stderr
