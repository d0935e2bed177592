"""The package's public face: lazy, complete, and cheap to import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mrkit


def loaded_after(statement: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has loaded after ``statement``."""
    code = f"import sys; {statement}; print(','.join(m for m in {modules!r} if m in sys.modules))"
    env_path = str(Path(mrkit.__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": env_path, "PATH": ""}, check=True)
    return [m for m in out.stdout.strip().split(",") if m]


def test_import_mrkit_loads_no_heavy_dependency():
    assert loaded_after("import mrkit", ("numpy", "scipy", "highspy", "penman", "networkx", "ot")) == []


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


def test_import_coref_metrics_loads_no_engine_and_no_numpy():
    assert loaded_after("import mrkit.metrics.coref, mrkit.coref",
                        ("numpy", "scipy", "highspy", "penman", "mrkit.align", "mrkit.align._kernel")) == []


def test_documented_old_import_paths_still_work():
    """The imports the README documents keep working for one release (re-export shims)."""
    from mrkit.amr import NON_INVERTED_OF, triples  # noqa: F401
    from mrkit.convert import dumps_graphs, read_graphs  # noqa: F401
    from mrkit.coref import read_conll, score_documents, score_files  # noqa: F401
    from mrkit.coref.amr import coref_over_variables  # noqa: F401
    from mrkit.coref.hierarchy import score_topics  # noqa: F401
    from mrkit.coref.scico import read_scico  # noqa: F401
    from mrkit.docamr import read_msamr  # noqa: F401
    from mrkit.docamr.docsmatch import docsmatch_files, docsmatch_pair  # noqa: F401
    from mrkit.embeddings import get_embeddings  # noqa: F401
    from mrkit.graph import Graph
    from mrkit.metrics.amr.smatch import smatch_files as new_smatch_files
    from mrkit.metrics.mrp import mrp_score, pair_graphs  # noqa: F401
    from mrkit.metrics.mrp_frameworks import framework_scores  # noqa: F401
    from mrkit.metrics.smatch import smatch_files
    from mrkit.model.graph import Graph as NewGraph
    from mrkit.validate import validate_mrp  # noqa: F401

    assert Graph is NewGraph and smatch_files is new_smatch_files
