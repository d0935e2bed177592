"""``mrkit matrix``: TSV on stdout, Parquet and TSV files with the same rows, a summary
with -o, workers give the same table; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit

pa = pytest.importorskip("pyarrow")

GRAPHS = """\
# ::id g1
(w / want-01 :ARG0 (b / boy))

# ::id g2
(w / want-01 :ARG0 (g / girl))

# ::id g3
(s / sleep-01 :ARG0 (b / boy))

# ::id g4
(c / cat)
"""


def tsv_rows(text: str) -> list[dict]:
    head, *lines = text.splitlines()
    names = head.split("\t")
    return [dict(zip(names, line.split("\t"))) for line in lines]


def test_tsv_to_stdout_parquet_and_tsv_files_agree(tmp_path):
    src = tmp_path / "g.amr"
    src.write_text(GRAPHS)
    out = run_mrkit("matrix", str(src))
    assert out.returncode == 0, out.stderr
    rows = tsv_rows(out.stdout)
    assert [(r["source"], r["target"]) for r in rows] == [("1", "2"), ("1", "3"), ("1", "4"), ("2", "3"),
                                                          ("2", "4"), ("3", "4")]
    assert float(rows[0]["score"]) == 0.75 and rows[0]["source_id"] == "g1" and rows[0]["certified"] == "true"
    # g1 vs g4 by hand: TOP matches only; P 1/2, R 1/4, F1 1/3 (written as the shortest exact float)
    assert rows[2]["score"] == repr(1 / 3)
    pq = tmp_path / "m.parquet"
    res = run_mrkit("matrix", str(src), "--top-k", "2", "-o", str(pq), "--json", "-j", "2", "--block", "1")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["pairs"] == 6 and summary["rows"] == 8 and summary["certified"] == 6
    import pyarrow.parquet as parquet

    table = parquet.read_table(pq).to_pylist()
    tsv = tmp_path / "m.tsv"
    assert run_mrkit("matrix", str(src), "--top-k", "2", "-o", str(tsv)).returncode == 0
    as_tsv = tsv_rows(tsv.read_text())
    assert len(table) == len(as_tsv) == 8
    for a, b in zip(table, as_tsv):
        assert (str(a["source"]), str(a["target"]), str(a["rank"]), repr(a["score"])) == \
               (b["source"], b["target"], b["rank"], b["score"])
    assert [r["target"] for r in table if r["source"] == 1] == [2, 3]  # 0.75 twice: the earlier first


def test_bad_input_one_line_exit_2_nothing_written(tmp_path):
    bad = tmp_path / "bad.amr"
    bad.write_text(GRAPHS + "\n(x / broken :ARG0 (y / why)\n")
    target = tmp_path / "out.tsv"
    target.write_text("old\n")
    out = run_mrkit("matrix", str(bad), "-o", str(target))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith(f"mrkit: {bad}:13, graph 5: ") and out.stderr.count("\n") == 1
    assert target.read_text() == "old\n"  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.amr", "out.tsv"]  # no temporary left
    fresh = run_mrkit("matrix", str(bad), "-o", str(tmp_path / "new.parquet"))
    assert fresh.returncode == 2 and not (tmp_path / "new.parquet").exists()
    no_o = run_mrkit("matrix", str(tmp_path / "out.tsv"), "--table-format", "parquet")
    assert no_o.returncode == 2 and "needs -o" in no_o.stderr
