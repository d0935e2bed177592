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


# ------------------------------------------------------------------ start-up of the command line

HEAVY = ("numpy", "scipy", "highspy", "penman", "networkx", "ot", "mrkit.align", "mrkit.align._kernel")


def loaded_by_cli(args: tuple[str, ...], modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` ``python -m mrkit ARGS`` has loaded when it exits (any status)."""
    code = ("import sys, runpy, atexit\n"
            "atexit.register(int)  # a handler: the console entry exits as usual, and this reports\n"
            f"sys.argv = ['mrkit', *{args!r}]\n"
            "try:\n    runpy.run_module('mrkit', run_name='__main__', alter_sys=True)\n"
            "except SystemExit:\n    pass\n"
            f"sys.stderr.write('\\nLOADED:' + ','.join(m for m in {modules!r} if m in sys.modules))\n")
    env_path = str(Path(mrkit.__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": env_path, "PATH": ""}, check=True)
    loaded = out.stderr.rsplit("LOADED:", 1)[1].strip()
    return [m for m in loaded.split(",") if m]


def test_mrkit_help_loads_no_heavy_dependency():
    assert loaded_by_cli(("--help",), HEAVY) == []
    assert loaded_by_cli(("--version",), HEAVY) == []


def test_command_help_loads_no_heavy_dependency_and_only_its_own_command():
    commands = tuple(f"mrkit.cli.{name}" for name in ("smatch", "mrp", "convert", "validate", "score", "compare",
                                                      "coref", "hierarchy", "docamr", "docsmatch"))
    assert loaded_by_cli(("smatch", "--help"), HEAVY) == []
    assert loaded_by_cli(("smatch", "--help"), commands) == ["mrkit.cli.smatch"]
    assert loaded_by_cli(("coref", "--help"), HEAVY) == []
    # a misspelt command lists every command from the static table: none of them is loaded
    assert loaded_by_cli(("smatc",), HEAVY) == []
    assert loaded_by_cli(("smatc",), commands) == []
    assert loaded_by_cli(("--help",), commands) == []


def test_cli_main_builds_every_command_without_argv_and_one_with_it():
    from mrkit.cli import COMMANDS, build_parser

    def commands_of(parser):
        sub = next(a for a in parser._actions if a.dest == "command")
        return list(sub.choices)

    assert commands_of(build_parser()) == list(COMMANDS)
    assert commands_of(build_parser(["--help"])) == list(COMMANDS)
    assert commands_of(build_parser(["smatch", "a", "b"])) == ["smatch"]
    assert commands_of(build_parser(["nosuch"])) == list(COMMANDS)


def test_scoring_penman_with_the_compiled_reader_does_not_import_the_penman_library():
    import pytest

    try:
        from mrkit.codecs import _penman  # noqa: F401
    except ImportError:
        pytest.skip("the compiled PENMAN reader is not built (the Python reader uses the library)")
    examples = Path(mrkit.__file__).resolve().parent / "data" / "examples"
    # the library is only needed to write PENMAN or to read a block the compiled reader hands back
    args = ("smatch", str(examples / "gold.amr"), str(examples / "system.amr"))
    assert loaded_by_cli(args, ("penman", "mrkit.align")) == ["mrkit.align"]


def test_smatch_on_the_compiled_path_loads_no_python_engine():
    """Pairs the compiled Smatch path certifies need neither the Python engine and its
    bounds, nor the triple extraction, nor the solver, and the summary of a few pairs needs
    no numpy (aggregate.corpus.RowTable): start-up loads none of them."""
    import pytest

    try:
        from mrkit.features import _triples  # noqa: F401
    except ImportError:
        pytest.skip("the compiled Smatch path is not built")
    examples = Path(mrkit.__file__).resolve().parent / "data" / "examples"
    args = ("smatch", str(examples / "gold.amr"), str(examples / "system.amr"))
    heavy = ("mrkit.align.engine", "mrkit.align.problem", "mrkit.align.bounds", "mrkit.metrics.amr.smatch",
             "mrkit.features.triples", "highspy", "scipy", "penman", "numpy")
    assert loaded_by_cli(args, heavy) == []
