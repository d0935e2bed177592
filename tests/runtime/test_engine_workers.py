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
@pytest.mark.parametrize("jobs", [2, 3])
def test_killed_parallel_run_is_quiet(sig, jobs, tmp_path):
    """Ctrl-C (the whole process group) or SIGTERM (the parent alone) while the workers
    score: no traceback, a failing exit status, nothing printed, no worker left behind.
    -j 2 of classic Smatch is this process and one forked worker (runtime/forked.py);
    -j 3 has two."""
    sick = shared_path("amr", "bamboo", "sick", "main_src.test.amr").read_text(encoding="utf-8")
    corpus = tmp_path / "sick-x30.amr"  # ~150,000 pairs: seconds of work
    corpus.write_text("\n\n".join([sick.strip()] * 30) + "\n", encoding="utf-8")
    import mrkit

    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-m", "mrkit", "smatch", str(corpus), str(corpus),
                             "-j", str(jobs), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < jobs - 1 and proc.poll() is None:
        time.sleep(0.02)
        workers = _children(proc.pid)
    time.sleep(0.2)  # the workers are busy
    if proc.poll() is not None or len(workers) < jobs - 1:
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
