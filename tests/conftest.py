"""Shared fixtures: the shared corpora beside the project root (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data; the calling test is skipped when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


def run_mrkit(*args: str, **kw):
    """Run ``python -m mrkit`` as a user would, with the mrkit this test session imports
    (installed, or built in place under src/)."""
    import os
    import subprocess
    import sys

    import mrkit

    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(mrkit.__file__).resolve().parents[1])
    return subprocess.run([sys.executable, "-m", "mrkit", *args], capture_output=True, text=True,
                          env=env, **kw)
