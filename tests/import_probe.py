"""Run the CLI in a fresh interpreter and report what it imported: the tests that a
command's light path loads no numpy (tests/cli/test_*_imports.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CODE = """
import sys
from mrkit.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("NUMPY" if "numpy" in sys.modules else "NO-NUMPY")
print("HEAVY" if {"scipy", "highspy", "mrkit.align.engine"} & set(sys.modules) else "LIGHT")
"""


def run_probed(args, **env) -> subprocess.CompletedProcess:
    """``mrkit ARGS`` in a subprocess (this checkout's mrkit, extra environment ``env``);
    its stdout ends with two lines: NUMPY or NO-NUMPY, then HEAVY (scipy, highspy or the
    Python engine loaded) or LIGHT."""
    import mrkit

    path = {"PYTHONPATH": str(Path(mrkit.__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-c", CODE, *args], capture_output=True, text=True,
                          env={**os.environ, **path, **env})


def split_probe(stdout: str) -> tuple[str, str, str]:
    """(the command's output, NUMPY or NO-NUMPY, HEAVY or LIGHT) of a run_probed stdout."""
    report, numpy, heavy = stdout.rsplit("\n", 3)[:3]
    return report, numpy, heavy
