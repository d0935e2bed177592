"""Coreference metrics that are 0/0 keep the reference scorer's value (0) and are
reported undefined, in the JSON and in the table.

Oracle: the CoNLL-2012 reference scorer, conll/reference-coreference-scorers@f49f3f8
(v8.01; LEA from its LEA-scorer branch @772e5a3), run as
``perl scorer.pl METRIC KEY RESPONSE none`` on the files below (SINGLETONS, ONE_MENTION,
LINKED written out as .key/.resp files).  It printed:

singletons vs singletons
  muc    Recall: (0 / 0) 0%  Precision: (0 / 0) 0%  F1: 0%
  bcub   (3 / 3) (3 / 3); ceafe, ceafm, lea the same: 100%
  blanc  Coreference links (0 / 0) (0 / 0); Non-coreference links (3 / 3) (3 / 3);
         BLANC: Recall (1 / 1) Precision (1 / 1) F1 100%
one mention vs one mention
  muc    (0 / 0) (0 / 0) 0%
  blanc  Coreference links (0 / 0) (0 / 0); Non-coreference links (0 / 0) (0 / 0);
         BLANC: Recall (0 / 1) 0%  Precision (0 / 1) 0%  F1 0%
  bcub, ceafe, ceafm, lea (1 / 1) (1 / 1) 100%
singletons vs LINKED (a, b joined)
  muc    Recall: (0 / 0) 0%  Precision: (0 / 1) 0%  F1: 0%
  blanc  BLANC: Recall 0.666666666666667  Precision (1 / 1)  F1 80%
  lea    (1 / 3) (1 / 3) 33.33%
"""

from __future__ import annotations

import json

import pytest

from mrkit.cli import main
from mrkit.metrics.coref import read_conll, score_documents

SINGLETONS = "#begin document (s);\nt 0 0 a (1)\nt 0 1 b (2)\nt 0 2 c (3)\n#end document\n"
ONE_MENTION = "#begin document (o);\nt 0 0 a (1)\nt 0 1 b -\n#end document\n"
LINKED = "#begin document (s);\nt 0 0 a (1)\nt 0 1 b (1)\nt 0 2 c (3)\n#end document\n"


def _file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _score(tmp_path, key, response):
    return score_documents(read_conll(_file(tmp_path, "k.conll", key)), read_conll(_file(tmp_path, "r.conll", response)))


def test_singletons_only(tmp_path):
    r = _score(tmp_path, SINGLETONS, SINGLETONS)
    assert r.prf("muc") == (0.0, 0.0, 0.0)
    assert r.undefined_parts("muc") == ("recall", "precision", "f1")
    for m in ("mentions", "bcub", "ceafe", "ceafm", "lea", "blanc"):
        assert r.prf(m) == (1.0, 1.0, 1.0) and r.undefined_parts(m) == (), m
    assert r.undefined == ["muc", "conll"]
    assert r.conll_f1 == pytest.approx(2 / 3)  # the mean of 0, 1, 1: kept, flagged


def test_no_links_at_all(tmp_path):
    r = _score(tmp_path, ONE_MENTION, ONE_MENTION)
    assert r.prf("blanc") == (0.0, 0.0, 0.0)
    assert r.undefined_parts("blanc") == ("recall", "precision", "f1")
    assert r.undefined_parts("muc") == ("recall", "precision", "f1")
    assert r.prf("lea") == (1.0, 1.0, 1.0) and r.undefined_parts("lea") == ()


def test_only_recall_undefined(tmp_path):
    r = _score(tmp_path, SINGLETONS, LINKED)
    assert r.prf("muc") == (0.0, 0.0, 0.0) and r.undefined_parts("muc") == ("recall", "f1")
    assert r.prf("blanc") == pytest.approx((2 / 3, 1.0, 0.8)) and r.undefined_parts("blanc") == ()
    assert r.prf("lea") == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_macro_flags_a_metric_undefined_in_any_document(tmp_path):
    key = _file(tmp_path, "k.conll", SINGLETONS + ONE_MENTION.replace("(o)", "(p)"))
    r = score_documents(read_conll(key), read_conll(key), average="macro")
    assert r.undefined_parts("blanc") == ("recall", "precision", "f1")  # document (p) only
    assert r.prf("blanc") == (0.5, 0.5, 0.5)  # mean of 1 and the reference scorer's 0


def test_json_and_table_say_undefined(tmp_path, capsys):
    key = _file(tmp_path, "k.conll", SINGLETONS)
    resp = _file(tmp_path, "r.conll", LINKED)
    assert main(["coref", key, resp, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["undefined"] == ["muc", "conll"]
    assert out["scores"]["muc"]["undefined"] == ["recall", "f1"]
    assert out["scores"]["muc"]["f1"] == 0.0 and "undefined" not in out["scores"]["bcub"]
    assert out["scores"]["conll"]["undefined"] == ["f1"]
    assert main(["coref", key, resp]) == 0
    table = capsys.readouterr().out.splitlines()
    muc = next(line for line in table if line.startswith("muc"))
    assert muc.split() == ["muc", "0.00*", "0.00", "0.00*"]
    assert next(line for line in table if line.startswith("bcub")).count("*") == 0
    assert table[-1].startswith("* undefined (0/0)")


def test_defined_everywhere_has_no_legend(tmp_path, capsys):
    key = _file(tmp_path, "k.conll", LINKED)
    assert main(["coref", key, key, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["undefined"] == []
    assert main(["coref", key, key]) == 0
    assert "undefined" not in capsys.readouterr().out
