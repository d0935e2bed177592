"""Issue 12, item 16 (workers): killing a ``-j 2`` run leaves no traceback and no worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import shared_path


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_killed_parallel_run_is_quiet(sig, tmp_path):
    sick = shared_path("amr", "bamboo", "sick", "main_src.test.amr").read_text(encoding="utf-8")
    corpus = tmp_path / "sick-x8.amr"  # long enough (~40,000 pairs) to be killed while working
    corpus.write_text("\n\n".join([sick.strip()] * 8) + "\n", encoding="utf-8")
    import mrkit

    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    # -j 3: two worker processes (with -j 2 there is one: test_killed_shared_run_is_quiet)
    proc = subprocess.Popen([sys.executable, "-m", "mrkit", "smatch", str(corpus), str(corpus),
                             "-j", "3", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 2 and proc.poll() is None:
        time.sleep(0.02)
        workers = _children(proc.pid)
    if proc.poll() is not None or len(workers) < 2:
        proc.kill()
        pytest.skip("the run ended before its workers could be seen")
    time.sleep(0.2)  # the workers are busy
    if proc.poll() is not None:
        pytest.skip("the run ended before it could be killed")
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C in a terminal: the whole process group
    else:
        proc.send_signal(sig)  # the parent alone is killed
    _out, err = proc.communicate(timeout=60)
    for _ in range(50):
        if not any(_alive(w) for w in workers):
            break
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)], "orphaned workers"
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode != 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_killed_shared_run_is_quiet(sig, tmp_path):
    """-j 2 of classic Smatch is this process and one forked worker (runtime/forked.py):
    Ctrl-C (the whole process group) or SIGTERM (the parent alone) while both score leaves
    no traceback, a failing exit status and no worker behind."""
    sick = shared_path("amr", "bamboo", "sick", "main_src.test.amr").read_text(encoding="utf-8")
    corpus = tmp_path / "sick-x30.amr"  # ~150,000 pairs: seconds of work
    corpus.write_text("\n\n".join([sick.strip()] * 30) + "\n", encoding="utf-8")
    import mrkit

    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-m", "mrkit", "smatch", str(corpus), str(corpus),
                             "-j", "2", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not workers and proc.poll() is None:
        time.sleep(0.02)
        workers = _children(proc.pid)
    time.sleep(0.2)  # both are scoring
    if proc.poll() is not None or not workers:
        proc.kill()
        pytest.skip("the run ended before it could be killed")
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C in a terminal: the whole process group
    else:
        proc.send_signal(sig)  # the parent alone is killed
    out, err = proc.communicate(timeout=60)
    for _ in range(50):
        if not any(_alive(w) for w in workers):
            break
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)], "orphaned workers"
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode != 0 and out == b""
