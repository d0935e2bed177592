"""The console script's exit (``mrkit.cli.console``): the process ends without the
interpreter's teardown only when that teardown would do nothing a user sees (issue 14).

Each case runs the console entry point in a fresh interpreter and compares it with
``sys.exit(main())`` (what the script did before): same stdout, stderr, exit status and
written files; ``atexit`` handlers and threads started during the run keep their effect."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mrkit

SMALL = """\
# ::id a
(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))

# ::id b
(d / dog)
"""

SYSTEM = """\
# ::id a
(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (g2 / girl)))

# ::id b
(d / cat)
"""


def _run(entry: str, args: list[str], before: str = "", stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    code = (f"import sys\n{before}\nfrom mrkit.cli import main, console\n"
            f"sys.argv = ['mrkit', *{args!r}]\nsys.exit({entry}())\n")
    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-c", code], stdout=stdout, stderr=subprocess.PIPE, env=env)


def _pair(tmp_path: Path) -> tuple[str, str]:
    gold, system = tmp_path / "gold.amr", tmp_path / "system.amr"
    gold.write_text(SMALL, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    return str(gold), str(system)


def _same(tmp_path: Path, args: list[str], before: str = "") -> subprocess.CompletedProcess:
    old = _run("main", args, before)
    new = _run("console", args, before)
    assert (new.returncode, new.stdout, new.stderr) == (old.returncode, old.stdout, old.stderr)
    return new


def test_reports_and_statuses_are_those_of_main(tmp_path):
    gold, system = _pair(tmp_path)
    for args in (["score", "-m", "sema", gold, system, "--json"], ["score", "-m", "sembleu", gold, system],
                 ["smatch", gold, system, "--per-pair"], ["smatch", gold, str(tmp_path / "missing.amr")],
                 ["score", "-m", "sema", gold, system, "--no-such-flag"], ["--help"], ["score", "--help"]):
        _same(tmp_path, args)
    ok = _same(tmp_path, ["score", "-m", "sema", gold, system])
    assert ok.returncode == 0 and b"sema corpus:" in ok.stdout
    bad = _same(tmp_path, ["smatch", gold, str(tmp_path / "missing.amr")])
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1


def test_output_file_is_complete(tmp_path):
    gold, system = _pair(tmp_path)
    for entry in ("main", "console"):
        out = tmp_path / f"{entry}.json"
        done = _run(entry, ["score", "-m", "sema", gold, system, "--json", "-o", str(out)])
        assert done.returncode == 0 and done.stdout == b""
    assert (tmp_path / "console.json").read_bytes() == (tmp_path / "main.json").read_bytes()
    assert (tmp_path / "console.json").read_bytes().endswith(b"}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["console.json", "gold.amr", "main.json", "system.amr"]


def test_atexit_handlers_still_run(tmp_path):
    gold, system = _pair(tmp_path)
    before = "import atexit\natexit.register(lambda: print('handler ran', file=sys.stderr))"
    done = _same(tmp_path, ["score", "-m", "sema", gold, system], before)
    assert done.stderr.endswith(b"handler ran\n")


def test_threads_are_not_cut_off(tmp_path):
    gold, system = _pair(tmp_path)
    before = ("import threading, time\n"
              "threading.Thread(target=lambda: (time.sleep(0.3), print('thread done', file=sys.stderr))).start()")
    done = _same(tmp_path, ["score", "-m", "sema", gold, system], before)
    assert done.stderr.endswith(b"thread done\n")


def test_unflushed_stdout_is_written(tmp_path):
    gold, system = _pair(tmp_path)
    before = "sys.stdout.write('first ')"  # buffered (stdout is a pipe) until the report flushes it
    done = _same(tmp_path, ["score", "-m", "sema", gold, system], before)
    assert done.stdout.startswith(b"first sema corpus:")


def test_closed_pipe_behaves_as_before(tmp_path):
    gold, system = _pair(tmp_path)
    for args in (["smatch", gold, system, "--per-pair"], ["score", "--help"]):
        results = []
        for entry in ("main", "console"):
            r, w = os.pipe()
            os.close(r)  # the reader is gone before anything is written
            try:
                done = _run(entry, args, stdout=w)
            finally:
                os.close(w)
            results.append((done.returncode, done.stderr))
        assert results[0] == results[1], args
    assert results[0][0] in (0, 120)  # --help: argparse ignores the failed write, Python's exit reports it


def test_in_process_main_returns(tmp_path, capsys):
    from mrkit.cli import main

    gold, system = _pair(tmp_path)
    assert main(["score", "-m", "sema", gold, system]) == 0
    assert "sema corpus:" in capsys.readouterr().out


def test_nothing_at_exit_sees_handlers_and_threads(monkeypatch):
    import atexit
    import threading

    from mrkit.cli import _nothing_at_exit

    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 1)
    assert not _nothing_at_exit()
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not _nothing_at_exit()
    monkeypatch.delattr(atexit, "_ncallbacks")
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert not _nothing_at_exit()  # not the interpreter we know: exit as usual


def test_console_script_entry_point():
    """The installed ``mrkit`` command is :func:`mrkit.cli.console`."""
    import tomllib

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if not pyproject.exists():  # pragma: no cover - tests run from an sdist without it
        return
    scripts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["mrkit"] == "mrkit.cli:console"


def test_main_pauses_the_collector_for_score_and_smatch_and_restores_it(tmp_path, monkeypatch):
    """score and smatch run with the cyclic collector paused (imports and report included);
    main() called in-process gives it back as it found it, on success and on failure."""
    import gc

    from mrkit.cli import main
    import mrkit.cli.score as score_cli

    gold, system = _pair(tmp_path)
    seen = []
    run = score_cli.run

    def spy(args):
        seen.append(gc.isenabled())
        return run(args)

    monkeypatch.setattr(score_cli, "run", spy)
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            assert main(["score", "-m", "sema", gold, system, "--json"]) == 0
            assert gc.isenabled() is enabled
            assert main(["score", "-m", "sema", gold, str(tmp_path / "missing.amr")]) == 2
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    assert seen == [False] * 4


def test_console_leaves_the_collector_off_for_score_only(tmp_path):
    """The console script switches the collector off for score and smatch (the process ends
    after the run) and leaves it alone for the other commands."""
    gold, system = _pair(tmp_path)
    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: sys.stderr.write(f'gc={gc.isenabled()}\\n'))")
    out = _run("console", ["score", "-m", "sema", gold, system], probe)
    assert out.returncode == 0 and out.stderr.decode().strip() == "gc=False"
    out = _run("console", ["validate", gold], probe)
    assert out.stderr.decode().strip().endswith("gc=True")
