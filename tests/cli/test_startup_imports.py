"""What the command line loads before it works (issue 14, start-up): module sets, never timings.

Each case runs the console entry point (``mrkit.cli.main``, what the installed ``mrkit``
script calls) in a fresh interpreter and lists which of the watched modules it loaded.
"""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mrkit

SRC = str(Path(mrkit.__file__).resolve().parents[1])
EXAMPLES = Path(mrkit.__file__).resolve().parent / "data" / "examples"

# standard-library modules no command needs before its work starts (``inspect``: dataclasses
# import it for docstrings mrkit's classes do not need, see ``mrkit.cli._lazy_inspect``)
STDLIB_DEFERRED = ("logging", "tempfile", "shutil", "pathlib", "csv", "glob", "signal", "threading",
                   "importlib.metadata", "importlib.util", "runpy", "traceback", "inspect", "ast", "dis",
                   "tokenize", "typing", "contextlib")
HEAVY = ("numpy", "scipy", "highspy", "penman", "networkx", "ot")

# gettext and its language expansion: not loaded where no catalogue can exist (argparse is
# imported without gettext, and its messages go without the look-up: ``mrkit.cli``)
LOCALE = () if os.path.isdir(getattr(gettext, "_default_localedir", "/")) else ("locale", "gettext")


def probe(argv: list[str], expression: str) -> str:
    """``expression`` (a string) in a fresh interpreter after the command line ran ``argv``."""
    code = ("import sys\n"
            f"sys.argv = ['mrkit', *{argv!r}]\n"
            "from mrkit.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"sys.stderr.write('\\nLOADED:' + {expression})\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""}, check=True)
    return out.stderr.rsplit("LOADED:", 1)[1].strip()


def loaded(argv: list[str], watched: tuple[str, ...]) -> list[str]:
    return [m for m in probe(argv, f"','.join(m for m in {watched!r} if m in sys.modules)").split(",") if m]


def mrkit_modules_after(argv: list[str]) -> set[str]:
    return set(probe(argv, "','.join(m for m in sys.modules if m.startswith('mrkit'))").split(","))


@pytest.mark.parametrize("argv", [["--help"], [], ["--version"], ["smatc"]])
def test_listing_the_commands_loads_no_command_and_nothing_heavy(argv):
    assert loaded(argv, STDLIB_DEFERRED + HEAVY + LOCALE + ("dataclasses", "json")) == []
    assert mrkit_modules_after(argv) == {"mrkit", "mrkit.cli", "mrkit.errors", "mrkit.codecs",
                                         "mrkit.codecs._after_import", "mrkit.cli.parser"}


def test_a_command_help_loads_only_its_own_command():
    modules = mrkit_modules_after(["smatch", "--help"])
    assert {m for m in modules if m.startswith("mrkit.cli.")} <= {"mrkit.cli.smatch", "mrkit.cli.smatch_options",
                                                                   "mrkit.cli.common", "mrkit.cli.quick_args",
                                                                   "mrkit.cli.parser"}
    assert loaded(["smatch", "--help"], STDLIB_DEFERRED + HEAVY) == []


def test_one_pair_smatch_loads_no_numpy_and_no_deferred_module():
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    # classic Smatch of plain files: no conventions object, no shard machinery, no registry
    assert loaded(["smatch", str(gold), str(system)],
                  STDLIB_DEFERRED + HEAVY + LOCALE + ("json", "mrkit.features.conventions", "mrkit.pipeline.shards",
                                                      "mrkit.pipeline.amr_variants",
                                                      "mrkit.metrics.registry")) == []


def test_score_sema_loads_no_numpy_and_no_deferred_module():
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    # --json is written without json; the engine's package (its settings are compared with
    # the defaults from the options alone) and the labelled view are not loaded
    assert loaded(["score", "-m", "sema", str(gold), str(system), "--json"],
                  STDLIB_DEFERRED + HEAVY + LOCALE + ("json", "mrkit.align", "mrkit.features.labelled")) == []


@pytest.mark.parametrize("metric", ["sembleu", "wlk", "simple"])
def test_score_of_the_other_coded_metrics_loads_no_typing_json_or_engine(metric):
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    assert loaded(["score", "-m", metric, str(gold), str(system), "--json"],
                  STDLIB_DEFERRED + HEAVY + LOCALE + ("json", "mrkit.align")) == []


def test_score_builds_no_legacy_result_class():
    """``MetricResult`` (kept for one release) is built when someone asks for it."""
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    assert probe(["score", "-m", "sema", str(gold), str(system)],
                 "str('MetricResult' in vars(sys.modules['mrkit.metrics.registry']))") == "False"


def test_writing_a_report_file_loads_tempfile_only_then(tmp_path):
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    out = tmp_path / "r.json"
    assert loaded(["smatch", str(gold), str(system), "--json", "-o", str(out)], ("tempfile",)) == ["tempfile"]
    assert out.read_text().startswith("{")


QUIET = """
import sys
{before}
from mrkit.cli import _quiet_libraries
_quiet_libraries()
import logging
logging.getLogger("penman").warning("penman repaired something")
logging.getLogger("penman.layout").warning("and something else")
logging.getLogger("some.library").error("a library's record")
root = logging.getLogger()
print(len(root.handlers), logging.getLogger("penman").propagate)
"""


@pytest.mark.parametrize("before", ["", "import logging"], ids=["logging-later", "logging-already-loaded"])
def test_library_log_records_stay_quiet_whenever_logging_loads(before):
    out = subprocess.run([sys.executable, "-c", QUIET.format(before=before)], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""}, check=True)
    assert out.stderr == ""
    assert out.stdout.split() == ["1", "False"]


def test_after_import_runs_a_hook_once_the_module_is_loaded():
    code = """
import sys
from mrkit.codecs._after_import import after_import
seen = []
after_import("colorsys", lambda m: seen.append(("first", m.__name__, hasattr(m, "rgb_to_hsv"))))
after_import("colorsys", lambda m: seen.append(("second", m.__name__)))
assert seen == [] and "colorsys" not in sys.modules
import colorsys
after_import("colorsys", lambda m: seen.append(("third", m.__name__)))
print(sorted(seen), colorsys.__spec__.name, colorsys.__loader__.get_source("colorsys") is not None)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""}, check=True)
    assert out.stdout.strip() == ("[('first', 'colorsys', True), ('second', 'colorsys'), ('third', 'colorsys')] "
                                  "colorsys True")


def test_dataclasses_get_the_real_inspect_when_they_need_it():
    """After the command line's set-up, a dataclass without a docstring still gets its
    generated one, ``import inspect`` is the real module, and nothing of the stand-in stays
    in ``sys.modules``."""
    code = """
import sys
from mrkit.cli import _lazy_inspect
_lazy_inspect()
import dataclasses
assert "inspect" not in sys.modules, "the stand-in stayed"
@dataclasses.dataclass(frozen=True)
class X:
    a: int
    b: str = "x"
import inspect
assert type(inspect).__name__ == "module" and inspect.signature is dataclasses.inspect.signature
print(X.__doc__, X(1), X(1) == X(1), hash(X(1)) == hash(X(1)), inspect.signature(X))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""}, check=True)
    assert out.stdout.strip() == "X(a: int, b: str = 'x') X(a=1, b='x') True True (a: int, b: str = 'x') -> None"


def test_mrkit_dataclasses_keep_their_generated_methods():
    from mrkit.model.graph import Edge, Graph, Node

    n = Node("a", "dog")
    assert repr(n) == "Node(id='a', label='dog', properties=[], anchors=[], provenance=frozenset(), extra={})"
    assert n == Node("a", "dog") and n != Node("a", "cat")
    assert Edge("a", "b", "ARG0") == Edge("a", "b", "ARG0")
    assert Graph("g").id == "g" and Graph() == Graph()


def test_no_dataclass_relies_on_typing_being_loaded():
    """Annotations are strings (``from __future__ import annotations``) and typing is not
    loaded at start-up: dataclasses then could not tell a ``ClassVar``/``InitVar``
    annotation from a field.  mrkit uses neither."""
    root = Path(mrkit.__file__).resolve().parent
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if any(word in p.read_text(encoding="utf-8") for word in ("ClassVar", "InitVar", "KW_ONLY"))]
    assert offenders == []


def test_type_aliases_are_still_importable():
    code = """
from mrkit.align.engine import ExactMode
from mrkit.aggregate.resampling import Reducer
from mrkit.metrics.registry import MetricFn
from mrkit.model.graph import Property
import typing
assert ExactMode == typing.Literal["auto", "always", "never"]
assert MetricFn == typing.Callable[..., typing.Any]
assert typing.get_origin(Reducer) is typing.get_origin(typing.Callable[[int], int])
p = Property("k", "v")
assert p == ("k", "v", False) and p._replace(quoted=True).quoted and Property._field_defaults == {"quoted": False}
assert repr(p) == "Property(key='k', value='v', quoted=False)" and Property.__module__ == "mrkit.model.graph"
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""}, check=True)
    assert out.stdout.strip() == "ok"


def test_every_dataclass_has_a_docstring():
    """A dataclass without a docstring gets one generated by ``inspect.signature``: the
    first such class built imports ``inspect`` (with ``ast``, ``dis``, ``tokenize``: about
    15 ms of a command).  Every dataclass of mrkit says what it is instead."""
    import ast

    root = Path(mrkit.__file__).resolve().parent
    missing = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None and any(
                    "dataclass" in ast.unparse(d) for d in node.decorator_list):
                missing.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert missing == []


# Every module ``mrkit score -m sema GOLD SYSTEM --json`` loads (issue 14: a module that joins
# this path costs every run; add it here only with a reason).
SEMA_JSON_MODULES = {
    "mrkit", "mrkit.errors", "mrkit.cli", "mrkit.codecs", "mrkit.codecs._after_import",  # main
    "mrkit.cli.quick_args", "mrkit.cli.score", "mrkit.cli.common",  # the command and its options
    "mrkit.metrics", "mrkit.metrics.registry", "mrkit.model", "mrkit.model.frozen",  # -m choices, options
    "mrkit.runtime", "mrkit.runtime.executor",  # --executor choices, the serial executor
    "mrkit.report", "mrkit.report.output", "mrkit.codecs._gc_paused",  # emit; gc paused while reading
    "mrkit.pipeline", "mrkit.pipeline.amr_formats",  # --format choices, each file's format
    "mrkit.model.inverted_roles",  # the -of roles that are no inversions (the reader's keep set)
    "mrkit.pipeline.amr_metrics", "mrkit.features", "mrkit.features.triples", "mrkit.features._triples",
    "mrkit.codecs.penman_units", "mrkit.codecs._cut",  # the coded reading
    "mrkit.codecs._mapped",  # the files mapped, not copied into the process (session 34)
    "mrkit.metrics.amr", "mrkit.metrics.amr.sema", "mrkit.metrics.amr._sema", "mrkit.metrics.amr.kernels",
    "mrkit.metrics.result", "mrkit.aggregate", "mrkit.aggregate._lazy", "mrkit.aggregate.corpus",
    "mrkit.aggregate.columns", "mrkit.aggregate.reducers",  # the result
    "mrkit.aggregate._reduce",  # its per-pair F1 column and macro mean (compiled)
    "mrkit.model.record",  # the result's base class (not a dataclass: dataclasses imports re)
    "mrkit.report.result", "mrkit.report.json_text",  # the JSON report
    "mrkit.runtime._memory",  # the C heap's top pad of score and smatch (cli.main)
}

# standard-library modules the sema path may load beyond the interpreter's own start-up:
# array (coded reading, loaded without collections: mrkit.cli._array_without_collections),
# gc (collections paused while reading), warnings (one line per warning),
# __future__ (every module's ``from __future__ import annotations``)
SEMA_STDLIB = {"warnings", "array", "gc", "__future__"}

# modules the coded path of ``score`` must not load (issue 14, session 29): each costs
# 0.1-2 ms of every run and no line that runs there needs it
NOT_ON_THE_CODED_PATH = ("functools", "collections", "collections.abc", "reprlib", "operator", "keyword", "types",
                         "importlib", "dataclasses", "re", "enum", "typing", "copy", "errno", "itertools",
                         "mrkit.pipeline.amr", "mrkit.codecs.registry", "mrkit.runtime.dask_executor",
                         "mrkit.model.amr", "mrkit.codecs._files",
                         "mrkit.aggregate.resampling", "mrkit.aggregate.prf", "mrkit.features.labelled")


def test_score_sema_loads_only_its_modules():
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    argv = ["score", "-m", "sema", str(gold), str(system), "--json"]
    assert mrkit_modules_after(argv) == SEMA_JSON_MODULES
    start = set(subprocess.run([sys.executable, "-c", "import sys; print(','.join(sys.modules))"], capture_output=True,
                               text=True, env={"PYTHONPATH": SRC, "PATH": ""}, check=True).stdout.strip().split(","))
    stdlib = set(probe(argv, "','.join(m for m in sys.modules if not m.startswith('mrkit'))").split(","))
    assert stdlib - start - {"encodings.ascii"} <= SEMA_STDLIB
    assert "argparse" not in stdlib and "gettext" not in stdlib
    assert not {"re", "enum", "dataclasses", "copy", "math"} & stdlib  # about 7 ms of a run (issue 14)


@pytest.mark.parametrize("metric", ["sema", "sembleu", "wlk", "simple"])
@pytest.mark.parametrize("json", [True, False], ids=["json", "text"])
def test_coded_score_loads_none_of_the_modules_it_does_not_run(metric, json):
    """``score -m sema|sembleu|wlk|simple`` on PENMAN files: none of the modules that only
    other paths run (resampling without --bootstrap/--against, the Dask executor, the
    registry of codecs when the suffix says PENMAN, the graph pipeline of Smatch, the
    labelled view) and none of the standard library they would bring."""
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    argv = ["score", "-m", metric, str(gold), str(system), *(["--json"] if json else [])]
    assert loaded(argv, NOT_ON_THE_CODED_PATH) == []
    # math: only SemBLEU's corpus BLEU (exp, log) runs it
    assert loaded(argv, ("math",)) == (["math"] if metric == "sembleu" else [])


def test_listing_the_commands_loads_no_importlib_and_no_report():
    """``mrkit --help``: argparse (and what it imports) but no ``importlib`` package, no
    ``collections.abc`` array registration, nothing of a command's work."""
    assert loaded(["--help"], ("importlib", "array", "math", "gc", "collections.abc", "mrkit.report",
                               "mrkit.aggregate", "mrkit.runtime", "mrkit.pipeline")) == []


def test_array_loaded_without_collections_is_the_usual_array():
    """:func:`mrkit.cli._array_without_collections`: ``array`` loads without the package
    ``collections``, is registered as a ``MutableSequence`` all the same, and a later
    ``import collections.abc`` is the real module."""
    code = """
import sys
from mrkit.cli import _array_without_collections
_array_without_collections()
import array
assert "collections" not in sys.modules and "collections.abc" not in sys.modules
import collections.abc, collections
assert type(collections.deque) is type and collections.abc.__name__ == "collections.abc"
print(isinstance(array.array("q"), collections.abc.MutableSequence), issubclass(array.array, collections.abc.Sequence))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""}, check=True)
    assert out.stdout.split() == ["True", "True"]


@pytest.mark.parametrize("metric", ["sema", "sembleu"])
def test_coded_score_loads_no_dataclasses_or_re(metric):
    """The coded path of ``score -m sema|sembleu`` builds no dataclass (the corpus result
    and SemBLEU's n-gram statistics are records), so ``dataclasses``, ``re`` and ``enum``
    stay unloaded: about 7 ms of every run (issue 14)."""
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    argv = ["score", "-m", metric, str(gold), str(system), "--json"]
    assert loaded(argv, ("dataclasses", "re", "enum", "copy", "mrkit.features.labelled")) == []


@pytest.mark.parametrize("argv", [["smatch", "{gold}", "{system}"], ["score", "-m", "sembleu", "{gold}", "{system}"],
                                  ["smatch", "{gold}", "{system}", "--json", "--per-pair", "-j", "1"]])
def test_plain_score_and_smatch_lines_do_not_load_argparse(argv):
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    argv = [a.format(gold=gold, system=system) for a in argv]
    assert loaded(argv, ("argparse", "gettext", "locale", "mrkit.cli.parser")) == []


# What ``mrkit smatch`` on the compiled path does not load (issue 14): the engine's settings
# are written out (``align/config.py``), and the PENMAN codec with the graph model loads only
# when a pair leaves the compiled path.  ``dataclasses`` brings ``re`` (with ``_sre`` and its
# compiler), ``enum``, ``copy`` and ``weakref``: about 9 ms of every run, serial before the fork.
SMATCH_CODED_ABSENT = ("dataclasses", "re", "_sre", "re._compiler", "enum", "copy", "weakref",
                       "mrkit.model.graph", "mrkit.codecs.penman", "mrkit.codecs._patterns", "mrkit.codecs._penman",
                       # pipeline/amr.py's cache, chunk function and bound sum without functools/operator;
                       # the reducers, gc pause and -of roles from their own small modules
                       "functools", "collections", "operator", "itertools", "reprlib", "keyword",
                       "mrkit.aggregate.resampling", "mrkit.codecs._files", "mrkit.model.amr")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_smatch_on_the_compiled_path_loads_no_dataclasses_re_or_graph_model(jobs):
    gold, system = EXAMPLES / "gold.amr", EXAMPLES / "system.amr"
    if not gold.exists():
        pytest.skip("example files not found")
    assert loaded(["smatch", str(gold), str(system), "-j", jobs], SMATCH_CODED_ABSENT) == []
    # --per-pair takes the general path (records of each pair's mapping): the codec loads then
    assert "mrkit.codecs.penman" in loaded(["smatch", str(gold), str(system), "--per-pair"], SMATCH_CODED_ABSENT)


def test_smatch_of_a_corpus_with_two_workers_loads_no_dataclasses_re_or_graph_model():
    from conftest import shared_path

    sick = shared_path("amr", "bamboo", "sick")
    argv = ["smatch", str(sick / "main_src.test.amr"), str(sick / "main_tgt.test.amr"), "-j", "2"]
    # two threads ran (the compiled chunks let go of the GIL): nothing forked
    assert loaded(argv, SMATCH_CODED_ABSENT + ("mrkit.runtime.forked", "mrkit.runtime.threads")) == [
        "mrkit.runtime.threads"]
    # the forked executor when asked for (this process scored a share and a worker the rest)
    assert loaded(argv + ["--executor", "processes"], SMATCH_CODED_ABSENT + ("mrkit.runtime.forked",)) == [
        "mrkit.runtime.forked"]
