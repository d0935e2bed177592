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
