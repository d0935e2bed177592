"""Issue 12, item 11: the exact solver (HiGHS) never writes to stdout or stderr.

highspy 1.16 prints a banner from its constructor with C stdio (fd 1), below Python:
``--json`` output was not JSON whenever the ILP ran.  Expected: stdout is exactly the
report, stderr is empty, on every scoring command that can run the solver.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from conftest import run_mrkit, shared_path

PAIRS = [("ilp_gold.amr", "ilp_sys.amr")]


@pytest.mark.parametrize("command", [
    ["smatch", "--json", "--per-pair"],
    ["smatch", "--json", "--exact"],
    ["docsmatch", "--json", "--exact"],
    ["score", "-m", "s2match", "--json", "--exact"],
    ["score", "-m", "smatch", "--json", "--exact"],
])
def test_solver_prints_nothing(command):
    gold = shared_path("robustness", "ilp_gold.amr")
    system = shared_path("robustness", "ilp_sys.amr")
    r = run_mrkit(command[0], str(gold), str(system), *command[1:], timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    report = json.loads(r.stdout)  # stdout is exactly the report
    if "--per-pair" in command:
        # the pair needs the exact solver: it really ran
        assert [p["method"] for p in report["per_pair"]] == ["ilp"]


def test_solver_prints_nothing_on_a_pair_it_cannot_finish():
    gold = shared_path("robustness", "ilp-needed.gold.amr")
    system = shared_path("robustness", "ilp-needed.sys.amr")
    r = run_mrkit("smatch", str(gold), str(system), "--json", "--time-limit", "3", timeout=300)
    assert r.returncode == 0 and r.stderr == ""
    report = json.loads(r.stdout)
    assert report["summary"]["pairs"] == 1


def test_solve_writes_nothing_to_fd_1_or_2(tmp_path):
    """In a fresh interpreter (the banner is printed once per process), fds 1 and 2 are
    captured with os.dup2 around a solve, as a notebook kernel would: nothing arrives."""
    script = textwrap.dedent('''
        import os, sys, tempfile
        from collections import Counter
        from mrkit.align import Features, build_problem
        from mrkit.align.ilp import build_model, solve_ilp
        a = Features(3, [Counter({"x": 1})] * 3, [(0, "r", 1), (1, "r", 2)])
        b = Features(3, [Counter({"x": 1})] * 3, [(0, "r", 1), (2, "r", 1)])
        p = build_problem(a, b)
        out = tempfile.TemporaryFile()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
        try:
            res = solve_ilp(p, time_limit=None)
            model = build_model(p)
            lp = model.lp_bound()
            lp = lp if isinstance(lp, tuple) else (lp,)
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
        out.seek(0)
        captured = out.read()
        print(repr(captured), res.score, res.optimal, lp[0] >= res.score)
    ''')
    import os

    import mrkit
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    # by hand: all nodes match (3); gold 0->1->2 vs system 0->1<-2: one edge matches
    assert r.stdout.split() == ["b''", "4.0", "True", "True"]
    assert r.stderr == ""
