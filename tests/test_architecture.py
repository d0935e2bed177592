"""The floors of ARCHITECTURE.md hold: import-linter's contracts in pyproject.toml are kept
(a lower floor never imports a higher one; nothing inside mrkit imports a compatibility shim;
metrics never import runtime: the caller chooses the executor).  Each contract is its own test,
so that one broken contract does not hide the others."""

from __future__ import annotations

import os
import tomllib

import pytest

from conftest import ROOT

PYPROJECT = ROOT / "pyproject.toml"

# contracts that today's code does not keep yet: id -> why (the test is xfail until it does)
PENDING: dict[str, str] = {}


def _contracts() -> list[dict]:
    if not PYPROJECT.exists():
        return []
    with open(PYPROJECT, "rb") as fh:
        return tomllib.load(fh)["tool"]["importlinter"]["contracts"]


def _params():
    out = []
    for c in _contracts():
        marks = [pytest.mark.xfail(reason=PENDING[c["id"]], strict=False)] if c["id"] in PENDING else []
        out.append(pytest.param(c["id"], id=c["id"], marks=marks))
    return out or [pytest.param(None, marks=pytest.mark.skip(reason="no pyproject.toml beside the tests"))]


@pytest.mark.parametrize("contract", _params())
def test_import_contract_is_kept(contract, capsys):
    cli = pytest.importorskip("importlinter.cli")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        status = cli.lint_imports(config_filename=str(PYPROJECT), limit_to_contracts=(contract,),
                                  no_cache=True, no_logo=True)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert status == 0, out


def test_layers_are_the_floors_of_the_architecture():
    """The order of issue 13: cli > report > metaeval > pipeline > docamr > metrics > runtime >
    codecs > features|aggregate > model > align|errors."""
    contracts = {c["id"]: c for c in _contracts()}
    if not contracts:
        pytest.skip("no pyproject.toml beside the tests")
    layers = [" | ".join(sorted(part.strip() for part in layer.split("|"))) for layer in contracts["layers"]["layers"]]
    assert layers == ["cli", "report", "metaeval", "pipeline", "docamr | systems", "metrics", "runtime", "codecs",
                      "aggregate | features", "model", "align | errors"]
    forbidden = contracts["metrics-no-runtime"]
    assert forbidden["type"] == "forbidden"
    assert forbidden["source_modules"] == ["mrkit.metrics"] and forbidden["forbidden_modules"] == ["mrkit.runtime"]
    assert "mrkit.pipeline" in contracts["no-shims"]["source_modules"]
