"""mrkit.cli.main starts the coded path's read-ahead from the command line as typed, before
parsing it (session 31, issue 14): only for the plain form of ``score`` with a coded metric
and two files; anything else leaves it to the command (which reads ahead itself, or not)."""

from __future__ import annotations

import pytest

from mrkit import cli
from mrkit.pipeline import amr_metrics


@pytest.fixture
def started(monkeypatch):
    calls = []
    monkeypatch.setattr(amr_metrics, "read_ahead", lambda gold, system: calls.append((gold, system)))
    return calls


@pytest.mark.parametrize("argv", [
    ["score", "-m", "sema", "g.amr", "s.amr"],
    ["score", "g.amr", "s.amr", "--metric", "wlk", "--json"],
    ["score", "--metric=simple", "--per-pair", "g.amr", "s.amr"],
    ["score", "-m", "sembleu", "g.amr", "s.amr", "--json", "--per-pair"],
])
def test_plain_score_lines_read_ahead(started, argv):
    cli._read_ahead_early(argv)
    assert started == [("g.amr", "s.amr")]


@pytest.mark.parametrize("argv", [
    ["score", "-m", "sema", "g.amr", "s.amr", "-j", "1"],
    ["score", "-m", "sema", "-j0", "g.amr", "s.amr"],
    ["score", "-m", "sema", "g.amr", "s.amr", "--workers", "2"],
    ["score", "-m", "sema", "g.amr", "s.amr", "--executor", "serial"],
    ["score", "-m", "sema", "g.amr", "s.amr", "--scheduler", "tcp://x:1"],
    ["score", "-m", "smatch", "g.amr", "s.amr"],
    ["score", "-m", "s2match", "g.amr", "s.amr"],
    ["score", "g.amr", "s.amr"],
    ["score", "-m", "sema", "g.amr"],
    ["score", "-m", "sema", "g.amr", "s.amr", "--digits", "3"],
    ["score", "-m", "sema", "g.amr", "s.amr", "--against", "t.amr"],
    ["score", "-m", "sema", "g.amr", "s.amr", "-o", "out.json"],
    ["smatch", "-m", "sema", "g.amr", "s.amr"],
    ["score", "-m"],
])
def test_anything_else_is_left_to_the_command(started, argv):
    cli._read_ahead_early(argv)
    assert started == []


def test_main_reads_ahead_before_parsing(tmp_path, monkeypatch, started):
    """A line argparse then refuses still read ahead (dropped: the command never reads)."""
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("(a / b)\n", encoding="utf-8")
    system.write_text("(a / c)\n", encoding="utf-8")
    assert cli.main(["score", "-m", "sema", str(gold), str(system), "--json"]) == 0
    assert started[:1] == [(str(gold), str(system))]
    with pytest.raises(SystemExit):
        cli.main(["score", "-m", "sema", str(gold), str(system), "--no-such-option"])
    assert started[-1] == (str(gold), str(system))
