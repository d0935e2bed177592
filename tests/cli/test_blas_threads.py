"""The CLI runs numpy with one OpenBLAS thread unless the caller chose otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

from mrkit.cli import _one_blas_thread


def test_one_blas_thread_by_default_and_the_callers_choice_kept(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    _one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"


def test_the_command_sets_it_before_numpy_loads(tmp_path):
    """numpy reads the variable when it loads: a command that loads numpy sees it."""
    code = ("import os, sys; from mrkit.cli import main; "
            "sys.argv = ['mrkit', 'smatch', '--example', '--bootstrap', '50']; main(); "
            "import numpy; print(os.environ.get('OPENBLAS_NUM_THREADS'), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stderr.strip().splitlines()[-1] == "1"
