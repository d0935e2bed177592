"""Issue 12, items 12 and 16: one-line failures from ``mrkit.cli.main`` and the readers of
``mrkit.codecs._files``; ``-o`` through symlinks, FIFOs and devices, with the umask's mode, checked
before the work, no temporary file left behind."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import SHARED, run_mrkit
from mrkit.cli import main
from mrkit.errors import InputError, OutputError
from mrkit.codecs._files import atomic_write, check_writable, json_lines, numbered_lines, read_text

SMALL = "(a / small :mod (b / example))\n"  # 4 triples: scored against itself, F = 1


SHARED_DATA = Path(os.environ.get("MRKIT_SHARED_DATA", str(SHARED)))


@pytest.fixture
def small(tmp_path_factory):
    """../shared/data/robustness/small.amr (or the same graph written here without it)."""
    shared = SHARED_DATA / "robustness" / "small.amr"
    if shared.exists():
        return str(shared)
    p = tmp_path_factory.mktemp("input") / "small.amr"
    p.write_text(SMALL)
    return str(p)


def one_line_error(proc, *needles):
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("mrkit: "), lines[0]
    for n in needles:
        assert n in lines[0], lines[0]
    assert proc.returncode == 2
    assert proc.stdout == ""
    return lines[0]


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# ---- -o PATH that cannot be written: one line, exit 2, before the work ----------------------

@pytest.mark.parametrize("case", ["missing-folder", "folder", "empty", "file-as-folder"])
def test_unwritable_output(case, small, tmp_path):
    (tmp_path / "file").write_text("x")
    path = {"missing-folder": str(tmp_path / "missing" / "out.json"), "folder": str(tmp_path),
            "empty": "", "file-as-folder": str(tmp_path / "file" / "x")}[case]
    proc = run_mrkit("smatch", small, small, "-o", path)
    line = one_line_error(proc, "cannot write")
    assert line.startswith(f"mrkit: cannot write {path}" if path else "mrkit: cannot write ''")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_unwritable_folder(small, tmp_path):
    if os.geteuid() == 0:  # root ignores permission bits: /proc accepts no new files
        path = "/proc/mrkit-report.json"
    else:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
        path = str(folder / "out.json")
    one_line_error(run_mrkit("smatch", small, small, "-o", path), f"cannot write {path}")


def _read_only_mount() -> str | None:
    for cand in (str(SHARED_DATA / "robustness"), "/sys/fs", "/proc/sys", "/usr"):
        try:
            if os.statvfs(cand).f_flag & os.ST_RDONLY and os.path.isdir(cand):
                return cand
        except OSError:
            continue
    return None


def test_read_only_file_system(small):
    mount = _read_only_mount()
    if mount is None:
        pytest.skip("no read-only file system to write to")
    path = os.path.join(mount, "mrkit-report.json")
    one_line_error(run_mrkit("smatch", small, small, "-o", path), f"cannot write {path}")
    assert not os.path.exists(path)


def test_output_checked_before_the_work(tmp_path):
    """The unwritable path is refused before the inputs are even read: the input here is
    malformed, yet the error names the output."""
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / b :ARG0 (c / d\n")
    proc = run_mrkit("smatch", str(bad), str(bad), "-o", str(tmp_path / "no" / "r.txt"))
    one_line_error(proc, "cannot write", "no such file or directory")


@pytest.mark.parametrize("command", [
    ["mrp", "X", "X"], ["validate", "X"], ["coref", "X", "X"], ["hierarchy", "X", "X"],
    ["docsmatch", "X", "X"], ["score", "-m", "sembleu", "X", "X"], ["convert", "X"],
    ["docamr", "build", "X", "--no-coref"],
])
def test_every_command_checks_its_output(command, tmp_path, capsys):
    out = str(tmp_path / "missing" / "out")
    args = [c if c != "X" else str(tmp_path / "nonexistent") for c in command]
    args += [out] if command[0] == "convert" else ["-o", out]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == f"mrkit: cannot write {out}: no such file or directory\n"


# ---- -o through links, FIFOs, devices; '-' is stdout -----------------------------------------

def test_dash_is_stdout(small, tmp_path):
    proc = run_mrkit("smatch", small, small, "--json", "-o", "-", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["f1"] == 1.0
    assert list(tmp_path.iterdir()) == []


def test_symlink_written_through(small, tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    proc = run_mrkit("smatch", small, small, "--json", "-o", str(link))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert json.loads(target.read_text())["summary"]["f1"] == 1.0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # an existing file keeps its mode
    assert no_temp_files(tmp_path)


def test_dangling_symlink_creates_its_target(small, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to("sub-target.json")
    assert run_mrkit("smatch", small, small, "--json", "-o", str(link)).returncode == 0
    assert link.is_symlink() and json.loads((tmp_path / "sub-target.json").read_text())["summary"]["f1"] == 1.0


def test_fifo_written_directly(small, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
    reader.start()
    proc = run_mrkit("smatch", small, small, "--json", "-o", str(fifo), timeout=60)
    reader.join(10)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the FIFO, not a regular file
    assert json.loads(got[0])["summary"]["f1"] == 1.0
    assert no_temp_files(tmp_path)


# These tests never name the real /dev/stdout or /dev/null when run as root: mrkit 0.1.0 (and
# any regression) would replace the system's link or device with a regular file.  A link in
# tmp_path to the same file stands in for it (mrkit 0.1.0 replaces that link instead).
@pytest.mark.parametrize("device", ["/proc/self/fd/1", "/dev/null"])
def test_devices_written_directly(device, small, tmp_path):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    link = tmp_path / "dev"
    link.symlink_to(device)
    proc = run_mrkit("smatch", small, small, "--json", "-o", str(link))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == device
    if device == "/dev/null":
        assert proc.stdout == ""
    else:
        assert json.loads(proc.stdout)["summary"]["f1"] == 1.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dev"]


@pytest.mark.skipif(os.geteuid() == 0, reason="as root a regression would replace the system's /dev/stdout")
def test_real_dev_stdout(small):
    before = os.lstat("/dev/stdout")
    proc = run_mrkit("smatch", small, small, "--json", "-o", "/dev/stdout")
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["f1"] == 1.0
    assert os.lstat("/dev/stdout").st_ino == before.st_ino


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_file_gets_the_umask_mode(umask, mode, small, tmp_path):
    out = tmp_path / "new.json"
    code = (f"import os, sys; os.umask({umask}); from mrkit.cli import main; "
            f"sys.exit(main(['smatch', {small!r}, {small!r}, '-o', {str(out)!r}]))")
    env = dict(os.environ, PYTHONPATH=str(Path(__import__("mrkit").__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode


def test_sigterm_during_write_removes_the_temporary_file(tmp_path):
    """SIGTERM arrives while the temporary file is being written: it is removed."""
    out = tmp_path / "out.txt"
    code = f"""
import os, signal, sys
import mrkit.codecs._files as io
real = io._write_stream
def slow(fh, text):
    fh.write(b"partial")
    fh.flush()
    os.kill(os.getpid(), signal.SIGTERM)
    real(fh, text)
io._write_stream = slow
io.atomic_write({str(out)!r}, "whole text")
"""
    env = dict(os.environ, PYTHONPATH=str(Path(__import__("mrkit").__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 128 + 15, proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_errors_are_output_errors(tmp_path):
    with pytest.raises(OutputError, match="cannot write .*: no such file or directory"):
        atomic_write(tmp_path / "a" / "b", "x")
    with pytest.raises(OutputError, match="is a directory"):
        atomic_write(tmp_path, "x")
    with pytest.raises(OutputError):
        check_writable("")
    check_writable("-")
    atomic_write(tmp_path / "bytes", b"\x00\xff")
    assert (tmp_path / "bytes").read_bytes() == b"\x00\xff"
    assert no_temp_files(tmp_path)


# ---- readers: every failure an InputError naming file and line -------------------------------

def test_json_lines_deep_nesting_names_the_line(tmp_path):
    p = tmp_path / "deep.jsonl"
    p.write_text('{"a": 1}\n' + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(InputError) as info:
        list(json_lines(p))
    assert (info.value.file, info.value.line) == (str(p), 2)
    assert "nested too deeply" in str(info.value)


def test_json_lines_huge_integer_and_syntax(tmp_path):
    p = tmp_path / "num.jsonl"
    p.write_text("\n\n" + "9" * 5000 + "\n")
    with pytest.raises(InputError) as info:
        list(json_lines(p))
    assert info.value.line == 3
    p.write_text('{"a":\n')
    with pytest.raises(InputError, match=r"num.jsonl:1: not JSON"):
        list(json_lines(p))


def test_readers_name_file_and_line(tmp_path):
    p = tmp_path / "latin1.txt"
    p.write_bytes(b"ok\nalso ok\ncaf\xe9\n")
    with pytest.raises(InputError, match=r"latin1.txt:3: not UTF-8"):
        list(numbered_lines(p))
    with pytest.raises(InputError, match=r"latin1.txt:3: not UTF-8"):
        read_text(p)
    with pytest.raises(InputError, match=r"cannot read: is a directory"):
        list(numbered_lines(tmp_path))
    with pytest.raises(InputError, match=r"missing.txt: cannot read: no such file"):
        read_text(tmp_path / "missing.txt")


# ---- main: the one place every failure becomes one line --------------------------------------

@pytest.mark.parametrize("exc,expected", [
    (RecursionError("maximum recursion depth exceeded"), "input nested too deeply"),
    (MemoryError(), "out of memory"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "not UTF-8 text"),
    (FileNotFoundError(2, "No such file or directory", "/x/y.amr"), "/x/y.amr: cannot read"),
    (TypeError("'int' object is not subscriptable\nsecond line"), "internal error: TypeError"),
])
def test_main_turns_every_failure_into_one_line(exc, expected, monkeypatch, tmp_path, capsys):
    import mrkit.cli.smatch as cmd

    def boom(args):
        raise exc
    monkeypatch.setattr(cmd, "run", boom)
    monkeypatch.delenv("MRKIT_DEBUG", raising=False)
    g = str(tmp_path / "g.amr")
    assert main(["smatch", g, g]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mrkit: ") and expected in err, err
    if isinstance(exc, (RecursionError, MemoryError, UnicodeDecodeError)):
        assert g in err  # the input file is named
    if isinstance(exc, TypeError):
        assert "MRKIT_DEBUG=1" in err


def test_mrkit_debug_shows_the_traceback(monkeypatch):
    import mrkit.cli.smatch as cmd

    def boom(args):
        raise TypeError("bug")
    monkeypatch.setattr(cmd, "run", boom)
    monkeypatch.setenv("MRKIT_DEBUG", "1")
    with pytest.raises(TypeError):
        main(["smatch", "a", "b"])


def test_usage_error_is_one_line():
    proc = run_mrkit("smatch", "--digits", "many")
    one_line_error(proc, "mrkit: argument --digits")
    assert "(see mrkit smatch --help)" in proc.stderr
    proc = run_mrkit("compare", "a", "b", "--no-such-option")
    one_line_error(proc, "mrkit: unrecognized arguments: --no-such-option")  # not "mrkit: mrkit: ..."


def test_warnings_and_library_logs_are_one_line(tmp_path):
    """PENMAN logs the role without a value before mrkit's own error: only mrkit's line."""
    p = tmp_path / "role.amr"
    p.write_text("(a / b :ARG0)\n")
    proc = run_mrkit("smatch", str(p), str(p))
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) <= 1, proc.stderr
    code = ("import warnings, sys; from mrkit.cli import _quiet_libraries; _quiet_libraries(); "
            "warnings.warn('two\\nlines')")
    env = dict(os.environ, PYTHONPATH=str(Path(__import__("mrkit").__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.stderr == "mrkit: warning: two lines\n"


def test_broken_pipe_is_quiet(small):
    env = dict(os.environ, PYTHONPATH=str(Path(__import__("mrkit").__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-m", "mrkit", "smatch", small, small, "--json", "--per-pair"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(60)
    assert "Traceback" not in err and "Exception ignored" not in err


def _run_closed(descriptor: int, *args: str):
    """``mrkit ARGS N>&-``: the command started with descriptor ``N`` closed."""
    env = dict(os.environ, PYTHONPATH=str(Path(__import__("mrkit").__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "mrkit", *args], capture_output=True, text=True, env=env,
                          preexec_fn=lambda: os.close(descriptor), timeout=120)


def test_closed_stdout_is_one_line(small, tmp_path):
    """``mrkit smatch A B >&-`` said ``internal error: AttributeError`` (Python leaves a
    stream closed at start-up as None): now one line naming standard output, exit 2; with
    ``-o FILE`` the closed stdout is not needed and the run succeeds."""
    proc = _run_closed(1, "smatch", small, small)
    assert proc.returncode == 2
    assert proc.stderr == "mrkit: cannot write standard output: it is closed\n"
    out = tmp_path / "r.json"
    proc = _run_closed(1, "smatch", small, small, "--json", "-o", str(out))
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(out.read_text())["summary"]["f1"] == 1.0


def test_closed_stderr_keeps_stdout_clean(small):
    """With stderr closed, an error has nowhere to go: it is dropped, never written to
    stdout; the exit status still says it."""
    proc = _run_closed(2, "smatch", small, str(Path(small).with_name("no-such-file.amr")))
    assert proc.returncode == 2 and proc.stdout == ""
    proc = _run_closed(2, "smatch", small, small, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["f1"] == 1.0


def test_error_without_a_file_names_the_input(tmp_path, capsys):
    """A writer's refusal (a DM graph has no PENMAN form) used to come without the file."""
    p = tmp_path / "dm.mrp"
    p.write_text(json.dumps({"id": "1", "flavor": 0, "framework": "dm", "version": 1.0,
                             "input": "a", "tops": [0], "nodes": [{"id": 0, "label": "a",
                                                                   "anchors": [{"from": 0, "to": 1}]}],
                             "edges": []}) + "\n")
    assert main(["convert", str(p), "-", "--to", "amr"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mrkit: {p}") and err.count("\n") == 1, err


def test_dev_stdout_appends_to_a_redirected_file(small, tmp_path):
    """``-o /dev/stdout >> log``: the report is appended to the log, which is neither
    truncated nor replaced."""
    log = tmp_path / "log.txt"
    log.write_text("earlier line\n")
    stdout = tmp_path / "stdout"  # stands in for /dev/stdout (see above)
    stdout.symlink_to("/proc/self/fd/1")
    env = dict(os.environ, PYTHONPATH=str(Path(__import__("mrkit").__file__).resolve().parents[1]))
    with open(log, "a") as fh:
        proc = subprocess.run([sys.executable, "-m", "mrkit", "smatch", small, small, "-o", str(stdout)],
                              stdout=fh, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    text = log.read_text()
    assert text.startswith("earlier line\n") and "F-score: 1.0000" in text
    assert stdout.is_symlink()


def test_existing_file_keeps_mode_and_no_temp_left(small, tmp_path):
    out = tmp_path / "r.txt"
    out.write_text("old")
    out.chmod(0o604)
    assert main(["smatch", small, small, "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o604 and "F-score: 1.0000" in out.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]


def test_unicode_error_from_a_reader_is_located(monkeypatch, tmp_path, capsys):
    """A reader that lets UnicodeDecodeError through: main names the file and the line."""
    import mrkit.cli.smatch as cmd

    good, bad = tmp_path / "g.amr", tmp_path / "s.amr"
    good.write_text("(a / b)\n")
    bad.write_bytes(b"(a / b)\n\n(c / d\xff)\n")

    def run(args):
        bad.read_text(encoding="utf-8")
    monkeypatch.setattr(cmd, "run", run)
    assert main(["smatch", str(good), str(bad)]) == 2
    assert capsys.readouterr().err == f"mrkit: {bad}:3: not UTF-8 text (invalid start byte)\n"
