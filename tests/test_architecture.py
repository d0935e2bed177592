"""The floors of ARCHITECTURE.md hold: import-linter's contracts in pyproject.toml are kept
(a lower floor never imports a higher one; nothing inside mrkit imports a compatibility shim)."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT


def test_import_contracts_are_kept(capsys):
    cli = pytest.importorskip("importlinter.cli")
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("no pyproject.toml beside the tests")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        status = cli.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert status == 0, out
