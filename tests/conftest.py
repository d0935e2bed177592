"""Shared fixtures: the shared corpora beside the project root (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import os

import pytest
from hypothesis import settings

# Property tests explore new random examples on every local run; under CI (CI=true) they
# are derandomized, so a submission's run is reproducible and a failure can be re-run.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

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


def pytest_collection_modifyitems(config, items):
    """Mark the tests that read ../shared/data (``shared_data``) or start processes
    (``subprocess``), from their source: ``pytest -m "not shared_data and not subprocess"``
    runs the quick, self-contained part."""
    import inspect

    sources: dict = {}
    for item in items:
        fn = getattr(item, "function", None)
        if fn is None:
            continue
        if fn not in sources:
            try:
                sources[fn] = inspect.getsource(fn)
            except (OSError, TypeError):
                sources[fn] = ""
        src = sources[fn]
        if "shared_path(" in src or "SHARED" in src:
            item.add_marker(pytest.mark.shared_data)
        if "run_mrkit(" in src or "subprocess" in src or "Popen" in src:
            item.add_marker(pytest.mark.subprocess)
