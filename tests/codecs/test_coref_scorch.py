"""scorch's JSON documents (clusters and mention-link graphs), file or directory, scored
as scorch's own metric functions score them.

Oracle: scorch 0.2.0 (PyPI), python 3.11, on data/scorch (without its command line's
addition of system-only mentions to the key, which departs from the reference scorer):
    g = main.clusters_from_json(open("gold/d1.json")); s = main.clusters_from_json(open("sys/d1.json"))
    scores.muc(g, s), scores.b_cubed(g, s), scores.ceaf_e(g, s), scores.ceaf_m(g, s), scores.blanc(g, s)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_mrkit
from mrkit.cli import main

DATA = Path(__file__).parent / "data" / "scorch"
SCORCH = {
    "d1": {"muc": (0.6666666666666666, 0.6666666666666666, 0.6666666666666666),
           "bcub": (0.7777777777777778, 0.6666666666666667, 0.7179487179487181),
           "ceafe": (0.8666666666666667, 0.65, 0.7428571428571429),
           "ceafm": (0.8333333333333334, 0.7142857142857143, 0.7692307692307693),
           "blanc": (0.6590909090909092, 0.5147058823529411, 0.5714285714285714)},
    "d2": {"muc": (0.5, 0.5, 0.5), "bcub": (0.6666666666666666, 0.75, 0.7058823529411765),
           "ceafe": (0.7333333333333334, 0.7333333333333334, 0.7333333333333334),
           "ceafm": (0.75, 0.75, 0.75), "blanc": (0.5, 0.5, 0.4857142857142857)},
}


def test_directories_equal_scorch(capsys):
    assert main(["coref", str(DATA / "gold"), str(DATA / "sys"), "--json", "--per-document"]) == 0
    out = json.loads(capsys.readouterr().out)
    for doc, metrics in SCORCH.items():
        for m, v in metrics.items():
            got = out["per_document"][doc][m]
            assert (got["recall"], got["precision"], got["f1"]) == pytest.approx(v, abs=1e-12), (doc, m)


def test_single_files_are_sniffed(capsys):
    assert main(["coref", str(DATA / "gold" / "d2.json"), str(DATA / "sys" / "d2.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["muc"]["f1"] == pytest.approx(0.5)


def test_bad_scorch_document_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"type": "graph", "mentions": [[1]], "links": []}')
    r = run_mrkit("coref", str(bad), str(bad), "--format", "scorch")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "bad.json" in r.stderr
