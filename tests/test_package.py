"""The package's public face: lazy, complete, and cheap to import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mrkit


def test_import_mrkit_loads_no_heavy_dependency():
    code = ("import sys, mrkit; heavy = [m for m in ('numpy', 'scipy', 'highspy', 'penman', 'networkx', 'ot')"
            " if m in sys.modules]; print(','.join(heavy))")
    env_path = str(Path(mrkit.__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": env_path, "PATH": ""}, check=True)
    assert out.stdout.strip() == ""


def test_every_public_name_resolves_and_unknown_names_raise():
    for name in mrkit.__all__:
        assert getattr(mrkit, name) is not None, name
    from mrkit.metrics.amr.smatch import smatch_files
    assert mrkit.smatch_files is smatch_files
    try:
        mrkit.no_such_name
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("unknown attribute did not raise")
