"""``mrkit mrp`` / ``mrkit analyze`` selection (--id, --ids-file, --limit) and MRP inside
gzip or zip.  Expected counts: mtool's per-graph counts in
``reference-scores/lpps-peking-eds-vs-gold.mtool-mrp.json`` (102990: g 60, s 63, c 58;
103610: g 43, s 42, c 41; the first two EDS graphs of lpps.mrp)."""

from __future__ import annotations

import gzip
import json
import zipfile

import pytest

from conftest import run_mrkit, shared_path


@pytest.fixture(scope="module")
def files():
    return (str(shared_path("mrp", "score-fixtures", "lpps.mrp")),
            str(shared_path("mrp", "score-fixtures", "eds", "lpps.peking.mrp")))


def _summary(*args):
    proc = run_mrkit("mrp", *args, "--mrp-only", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    a = data["overall"]["all"]
    return data["summary"]["pairs"], a["g"], a["s"], a["c"], data["unpaired_system"]


def test_one_id(files):
    assert _summary(*files, "--framework", "eds", "--id", "102990") == (1, 60, 63, 58, 0)


def test_limit_and_ids_file(files, tmp_path):
    assert _summary(*files, "--framework", "eds", "--limit", "2") == (2, 103, 105, 99, 0)
    ids = tmp_path / "ids.txt"
    ids.write_text("102990\n103610\textra column ignored\n\n")
    assert _summary(*files, "--framework", "eds", "--ids-file", str(ids)) == (2, 103, 105, 99, 0)


def test_gzip_and_zip(files, tmp_path):
    gold, system = files
    gz = tmp_path / "peking.mrp.gz"
    with open(system, "rb") as src, gzip.open(gz, "wb") as dst:
        dst.write(src.read())
    zp = tmp_path / "gold.zip"
    with zipfile.ZipFile(zp, "w") as z:
        z.write(gold, "data/lpps.mrp")
    assert _summary(str(zp), str(gz), "--framework", "eds", "--id", "102990") == (1, 60, 63, 58, 0)
    proc = run_mrkit("analyze", str(gz), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["frameworks"]["eds"]["graphs"] == 100


def test_bad_selection_and_archives(files, tmp_path):
    gold, system = files
    proc = run_mrkit("mrp", gold, system, "--limit", "0")
    assert proc.returncode == 2 and "--limit" in proc.stderr
    two = tmp_path / "two.zip"
    with zipfile.ZipFile(two, "w") as z:
        z.write(gold, "a.mrp")
        z.write(gold, "b.mrp")
    out = tmp_path / "out.json"
    proc = run_mrkit("mrp", str(two), system, "-o", str(out))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "2 .mrp entries" in proc.stderr and not out.exists()
    bad = tmp_path / "bad.mrp.gz"
    bad.write_bytes(b"not gzip at all")
    proc = run_mrkit("analyze", str(bad))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    proc = run_mrkit("mrp", gold, system, "--ids-file", str(tmp_path / "missing.txt"))
    assert proc.returncode == 2 and "ids file" in proc.stderr


def test_an_id_that_matches_no_gold_graph_says_so(tmp_path):
    from pathlib import Path

    fixture = Path(__file__).parents[1] / "metrics" / "mrp" / "fixtures" / "normalize"
    out = tmp_path / "out.json"
    r = run_mrkit("mrp", str(fixture / "gold.mrp"), str(fixture / "system.mrp"), "--id", "nosuch", "-o", str(out))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and not out.exists()
    assert "no gold graph with the chosen ids (--id/--ids-file)" in r.stderr
