"""``mrkit select``: writes the selected graphs and the agreement table, reports the
choices and the gold scores; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import json

from conftest import run_mrkit

CANDIDATES = [
    "# ::id s1\n(w / want-01 :ARG0 (b / boy))\n\n# ::id s2\n(d / dog)\n",
    "(w / want-01 :ARG0 (g / girl))\n\n(c / cat)\n",
    "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))\n\n(c / cat)\n",
]


def _files(tmp_path):
    paths = []
    for k, text in enumerate(CANDIDATES, 1):
        p = tmp_path / f"c{k}.amr"
        p.write_text(text)
        paths.append(str(p))
    return paths


def test_select_writes_graphs_table_and_report(tmp_path):
    paths = _files(tmp_path)
    gold = tmp_path / "gold.amr"
    gold.write_text("(w / want-01 :ARG0 (g / girl))\n\n(d / dog)\n")
    out, table = tmp_path / "sel.amr", tmp_path / "sel.tsv"
    res = run_mrkit("select", *paths, "--gold", str(gold), "-o", str(out), "--table", str(table), "--json")
    assert res.returncode == 0, res.stderr
    assert out.read_text() == "# ::id s1\n(w / want-01 :ARG0 (b / boy))\n\n(c / cat)\n"
    head, first, second = table.read_text().splitlines()
    cols = head.split("\t")
    assert cols[:4] == ["sentence", "id", "selected", "agreement"]
    assert dict(zip(cols, second.split("\t")))["selected"] == "2"
    report = json.loads(res.stdout)
    assert [c["chosen"] for c in report["candidates"]] == [1, 1, 0]
    assert report["selected_gold_smatch"]["f1"] == 8 / 12  # (3 + 1) matched of (4 + 2) and (4 + 2)


def test_select_bad_candidate_nothing_written(tmp_path):
    paths = _files(tmp_path)
    bad = tmp_path / "bad.amr"
    bad.write_text("(w / want-01)\n\n(c / cat :ARG0 (x / x)\n")
    out, table = tmp_path / "sel.amr", tmp_path / "sel.tsv"
    res = run_mrkit("select", paths[0], str(bad), "-o", str(out), "--table", str(table))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith(f"mrkit: {bad}:3") and res.stderr.count("\n") == 1
    assert not out.exists() and not table.exists()
