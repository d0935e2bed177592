"""``mrkit score``: every registered metric from the command line, JSON, errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from altmetrics_helpers import ORACLE, oracle_numbers
from conftest import run_mrkit, shared_path


def mrkit(*args: str) -> subprocess.CompletedProcess:
    return run_mrkit(*args)


def test_score_sembleu_json_per_pair():
    d = shared_path(*ORACLE)
    out = mrkit("score", "-m", "wlk", "--json", "--per-pair", str(d / "b.amr"), str(d / "a.amr"))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["metric"] == "wlk" and data["summary"]["pairs"] == 4
    # the corpus score is the headline; today's keys stay beside it
    assert data["summary"]["f1"] == data["corpus"]
    assert set(data) >= {"corpus", "macro", "details"}
    assert [r["f1"] for r in data["per_pair"]] == pytest.approx(oracle_numbers("out_wlk_k2.txt"), abs=1e-12)
    assert all("id" in r for r in data["per_pair"])


def test_score_s2match_text_without_vectors():
    d = shared_path(*ORACLE)
    out = mrkit("score", "--metric", "s2match", "--vectors", "none", str(d / "b.amr"), str(d / "a.amr"))
    assert out.returncode == 0, out.stderr
    assert "s2match corpus: 0.8421" in out.stdout


def test_score_mismatched_files_one_line_exit_2(tmp_path: Path):
    gold = tmp_path / "g.amr"
    gold.write_text("(a / ask-01)\n\n(b / boy)\n")
    system = tmp_path / "s.amr"
    system.write_text("(a / ask-01)\n")
    out = mrkit("score", "-m", "sema", str(gold), str(system), "-o", str(tmp_path / "out.txt"))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("mrkit: ")
    assert not (tmp_path / "out.txt").exists()


def test_score_bad_vector_file(tmp_path: Path):
    g = tmp_path / "g.amr"
    g.write_text("(c / cat)\n")
    vec = tmp_path / "v.txt"
    vec.write_text("cat 1 x 3\n")
    out = mrkit("score", "-m", "wwlk", "--vectors", str(vec), str(g), str(g))
    assert out.returncode == 2 and "v.txt:1" in out.stderr and out.stderr.count("\n") == 1
