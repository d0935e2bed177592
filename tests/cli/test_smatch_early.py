"""``mrkit smatch GOLD SYSTEM``: the scoring threads start as soon as the plain command line
is read (cli/smatch.start_early -> pipeline/amr.smatch_ahead, issue 14); any other form
leaves the start to the run, and the run's own settings decide whether it takes them."""

from __future__ import annotations

import pytest

from mrkit import cli
from mrkit.cli.quick_args import quick_parse
from mrkit.pipeline import amr


@pytest.fixture
def started(monkeypatch):
    calls = []
    monkeypatch.setattr(amr, "smatch_ahead", lambda gold, system, config, executor: calls.append(
        (gold, system, config, executor.workers, getattr(executor, "automatic", None))))
    return calls


def _early(argv):
    from mrkit.cli.smatch import start_early

    args = quick_parse(argv)
    assert args is not None, "a plain command line"
    start_early(args)


@pytest.mark.parametrize("argv,workers", [
    (["smatch", "-j", "2", "g.amr", "s.amr"], 2),
    (["smatch", "g.amr", "s.amr", "--workers", "3", "--json"], 3),
    (["smatch", "-j", "2", "g.amr", "s.amr", "--format", "json", "--bootstrap", "100"], 2),
])
def test_plain_lines_start_early(started, argv, workers):
    _early(argv)
    assert [(g, s, w, auto) for g, s, _, w, auto in started] == [("g.amr", "s.amr", workers, True)]


@pytest.mark.parametrize("argv", [
    ["smatch", "-j", "2", "--per-pair", "g.amr", "s.amr"],
    ["smatch", "-j", "2", "--subscores", "g.amr", "s.amr"],
    ["smatch", "-j", "2", "-f", "s.amr", "g.amr"],
    ["smatch", "-j", "2", "--example"],
    ["smatch", "-j", "2", "--format", "mrp", "g.amr", "s.amr"],
    ["smatch", "-j", "2", "--against", "t.amr", "g.amr", "s.amr"],
    ["smatch", "-j", "2", "--also-gold", "h.amr", "g.amr", "s.amr"],
    ["smatch", "-j", "2", "--justinstance", "g.amr", "s.amr"],
])
def test_other_forms_are_left_to_the_run(started, argv):
    args = quick_parse(argv)
    if args is None:
        return  # argparse parses it: nothing starts early
    from mrkit.cli.smatch import start_early

    start_early(args)
    assert started == []


def test_a_failing_guess_raises_nothing(monkeypatch):
    def boom(*a):
        raise OSError("no such file")

    monkeypatch.setattr(amr, "smatch_ahead", boom)
    _early(["smatch", "-j", "2", "g.amr", "s.amr"])  # the run says what is wrong


def test_main_runs_with_early_threads_and_prints_what_one_thread_prints(tmp_path, capsys, monkeypatch):
    lines = [f"# ::id p{k}\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-0{k % 3 + 1} :ARG0 b))" for k in range(3000)]
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    system.write_text("\n\n".join(x.replace("boy", "girl") for x in lines[::-1]) + "\n", encoding="utf-8")
    assert cli.main(["smatch", "-j", "1", str(gold), str(system), "--json"]) == 0
    one = capsys.readouterr().out
    real_ahead, real_take = amr.smatch_ahead, amr._early_map
    started, taken = [], []
    monkeypatch.setattr(amr, "smatch_ahead", lambda *a: started.append(a) or real_ahead(*a))
    monkeypatch.setattr(amr, "_early_map", lambda key: taken.append(real_take(key)) or taken[-1])
    assert cli.main(["smatch", "-j", "2", str(gold), str(system), "--json"]) == 0
    assert capsys.readouterr().out == one
    assert len(started) == 1 and taken and taken[0] is not None  # started early, taken by the run
    assert amr._EARLY == []


def test_threads_of_a_run_that_fails_first_are_stopped(tmp_path, capsys):
    """A run that stops before it takes the early threads (here: an output it cannot write)
    leaves none running behind it."""
    from mrkit.runtime.threads import SharedMap

    lines = [f"(w / want-01 :ARG0 (b / boy{k % 7}))" for k in range(20000)]
    gold = tmp_path / "g.amr"
    gold.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    started = []
    real_start = SharedMap.start
    SharedMap.start = lambda self: started.append(self) or real_start(self)
    try:
        assert cli.main(["smatch", "-j", "2", str(gold), str(gold), "-o", str(tmp_path / "no" / "such" / "dir")]) == 2
    finally:
        SharedMap.start = real_start
    assert "cannot write" in capsys.readouterr().err
    assert started and started[0].others == 0 and started[0].over  # stopped, its other thread ended
    assert amr._EARLY == []
