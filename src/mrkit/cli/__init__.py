"""The ``mrkit`` command line: a thin layer over the Python API.

Every subcommand lives in its own module of this package with two functions,
``add_parser(subparsers)`` and ``run(args) -> int``.  :func:`main` is the one place where
failures become what the user sees: errors in the input reach the user as one line
``mrkit: <file:line, graph id: message>`` with exit status 2; an output path that cannot be
written is refused before any work (``mrkit: cannot write PATH: reason``); unexpected
internal errors print one line (``MRKIT_DEBUG=1`` shows the traceback).  Python warnings
become one line each and library log records are not printed.
"""

from __future__ import annotations

import os
import sys
import warnings

from ..errors import InputError, MrkitError

# subcommand name -> module in this package
COMMANDS = {
    "smatch": "smatch",
    "mrp": "mrp",
    "convert": "convert",
    "validate": "validate",
    "score": "score",
    "compare": "compare",
    "coref": "coref",
    "hierarchy": "hierarchy",
    "scico": "scico",
    "docamr": "docamr",
    "docsmatch": "docsmatch",
    "report": "report",
    "audit": "audit",
    "matrix": "matrix",
    "select": "select",
    "analyze": "analyze",
}


# the commands whose plain command lines cli/quick_args.py parses without argparse
QUICK = ("score", "smatch")


# subcommand name -> its one-line help in ``mrkit --help``: the same text the command's
# ``add_parser`` gives (tests/cli/test_lazy_parser.py checks), so that listing the commands
# imports none of them.  A command missing here is imported to list it.
SUMMARIES = {
    "smatch": "Smatch between gold and system AMR files",
    "mrp": "MRP metric between gold and system graphs (MRP or native formats)",
    "convert": "convert graphs between MRP, AMR, SDP, EDS and UCCA",
    "validate": "check MRP graphs before submission",
    "score": "score gold and system AMR files with any registered metric",
    "compare": "compare metrics on several systems, and with human judgements",
    "coref": "coreference metrics (MUC, B3, CEAF, BLANC, LEA, CoNLL-F1)",
    "hierarchy": "SciCo hierarchy scores (hierarchy, 50%%, path ratio) and coreference",
    "scico": "SciCo baselines, corpus statistics, agreement",
    "docamr": "document-level AMR graphs",
    "docsmatch": "document Smatch with coreference subscore",
    "report": "an HTML report of an evaluation, with every pair's alignment",
    "audit": "run metrics against the known traps of AMR metrics",
    "matrix": "all-pairs similarity (nearest neighbours) of AMR graphs, any metric",
    "select": "pick, per sentence, the candidate parse that agrees most with the others (MBSE)",
    "analyze": "graph statistics per framework (treewidth, reentrancy, crossing, ...)",
}


# argument names that hold input files, to name them when a failure carries no file
_INPUT_ARGS = ("gold", "system", "files", "input", "file", "key", "response", "amr", "xml", "chains",
               "clusters", "systems", "human", "text")


def _inputs(args) -> list[str]:
    names: list[str] = []
    for attr in _INPUT_ARGS:
        value = getattr(args, attr, None)
        for v in (value if isinstance(value, (list, tuple)) else [value]):
            if isinstance(v, str) and v and v not in names:
                names.append(v)
    return names


# argument names that hold files read (never written): what :func:`_spool_inputs` copies
_READ_ARGS = _INPUT_ARGS + ("other", "candidates", "graphs", "vectors", "edge_weights", "pair_scores", "scores",
                            "ids_file", "against", "also_gold", "baseline")


def _special_inputs(args) -> list[tuple[object, object]]:
    """``(holder, key)`` of every input argument of ``args`` that names a file neither regular
    nor a directory (a pipe, a FIFO, ``/dev/stdin``, a device): ``setattr(holder, key, ...)``
    or ``holder[key] = ...`` replaces it."""
    import stat

    found: list[tuple[object, object]] = []

    def visit(holder, key, value) -> None:
        if isinstance(value, list):
            for i, v in enumerate(value):
                visit(value, i, v)
        elif isinstance(value, str) and value and value != "-":
            try:
                mode = os.stat(value).st_mode
            except (OSError, ValueError):
                return
            if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
                found.append((holder, key))

    for attr in _READ_ARGS:
        visit(args, attr, getattr(args, attr, None))
    return found


def _spool_inputs(args):
    """Read every input that can be read only once (a pipe, a FIFO, process substitution,
    ``/dev/stdin``) once, before the command runs, and have the command read the copy
    (:func:`mrkit.codecs._spool.spool`): readers that open an input twice (the format told
    from its first bytes, graphs read again by position) see the same bytes as in a regular
    file.  ``-`` is read by each command's own path.  When a copy is read under another name,
    standard output is replaced by one that writes the name given (the stream replaced is
    returned, to be put back; else None)."""
    found = _special_inputs(args)
    if not found:
        return None
    from ..codecs import _spool

    for holder, key in found:
        if isinstance(holder, list):
            holder[key] = _spool.spool(holder[key])
        else:
            setattr(holder, key, _spool.spool(getattr(holder, key)))
    if not _spool.copies():
        return None
    stdout, sys.stdout = sys.stdout, _spool.ShownStream(sys.stdout)
    return stdout


def _shown(text: str) -> str:
    """``text`` with the names of the copies :func:`_spool_inputs` made turned back into the
    names given."""
    spool = sys.modules.get("mrkit.codecs._spool")
    return text if spool is None else spool.shown(text)


def _where(args) -> str:
    names = _inputs(args)
    if len(names) == 1:
        return f"{names[0]}: "
    if names:
        return f"{', '.join(names)}: "
    return ""


def _find_bad_utf8(args) -> tuple[str, int, str] | None:
    """The first input file that is not UTF-8, with the line of its first bad byte (a reader
    let a UnicodeDecodeError through without saying where)."""
    for name in _inputs(args):
        try:
            if not os.path.isfile(name) or os.path.getsize(name) > 1 << 30:
                continue
            with open(name, "rb") as fh:
                data = fh.read()
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return name, data.count(b"\n", 0, exc.start) + 1, exc.reason
        except OSError:
            continue
    return None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def describe_failure(exc: BaseException, args=None) -> str:
    """The one line (without ``mrkit: ``) that :func:`main` prints for ``exc``."""
    where = _where(args) if args is not None else ""
    if isinstance(exc, InputError) and not exc.file and where:
        return where + _one_line(str(exc))  # bad input, but the reader did not say which file
    if isinstance(exc, MrkitError):
        return _one_line(str(exc))
    if isinstance(exc, RecursionError):
        return f"{where}input nested too deeply to process"
    if isinstance(exc, MemoryError):
        return f"{where}out of memory"
    if isinstance(exc, UnicodeDecodeError):
        located = _find_bad_utf8(args) if args is not None else None
        if located:
            return f"{located[0]}:{located[1]}: not UTF-8 text ({located[2]})"
        return f"{where}not UTF-8 text ({exc.reason})"
    if isinstance(exc, OSError):
        name = exc.filename if exc.filename is not None else None
        reason = exc.strerror or _one_line(str(exc)) or type(exc).__name__
        if name is not None:
            return f"{name}: cannot read: {reason}"
        return f"system error: {reason}"
    detail = _one_line(str(exc))
    return (f"internal error: {type(exc).__name__}" + (f": {detail}" if detail else "")
            + " (set MRKIT_DEBUG=1 to see the traceback)")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    try:
        print(f"mrkit: warning: {_shown(_one_line(message))}", file=sys.stderr if file is None else file)
    except (OSError, ValueError):
        pass


def _quiet_libraries() -> None:
    """Python warnings as one line each; log records of libraries (PENMAN's parser logs
    every problem it repairs) are not printed: mrkit reports the problem itself.  The
    loggers are configured when ``logging`` is first imported (by a library that may log),
    not here: most commands never load it."""
    from ..codecs._after_import import after_import

    warnings.showwarning = _show_warning
    after_import("logging", _quiet_logging)


def _quiet_logging(logging) -> None:
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    logging.getLogger("penman").propagate = False
    logging.getLogger("penman").addHandler(logging.NullHandler())


def _one_blas_thread() -> None:
    """One OpenBLAS thread unless the caller chose (set before numpy loads).  mrkit's numpy
    work is small arrays; OpenBLAS's thread pool costs CPU at import (docsmatch on the
    19-sentence document: 0.38 s CPU with the pool, 0.25 s without, same wall time on an
    idle machine) and competes with mrkit's own worker processes."""
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def _stdout_gone() -> None:
    """stdout was closed by the reader (``mrkit ... | head``): no 'Exception ignored' at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class _LazyInspect(type(sys)):  # types.ModuleType, without importing types
    """What ``dataclasses`` sees as ``inspect`` (see :func:`_lazy_inspect`): the real
    module is imported at the first attribute asked for, and answers it."""

    def __getattr__(self, name: str):
        import inspect

        if inspect is self:  # pragma: no cover - the stand-in is never left in sys.modules
            raise AttributeError(name)
        return getattr(inspect, name)


def _lazy_inspect() -> None:
    """``dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``: about
    a fifth of a one-pair ``mrkit smatch``'s start-up) for one use only: the generated
    docstring of a dataclass written without one (mrkit's dataclasses on the start-up path
    have docstrings).  While ``dataclasses`` is first imported, a stand-in sits in
    ``sys.modules["inspect"]``; ``dataclasses`` keeps it and imports the real module through
    it when it needs it.  The stand-in leaves ``sys.modules`` as soon as ``dataclasses`` is
    loaded: every other ``import inspect`` is the usual one."""
    if "inspect" in sys.modules or "dataclasses" in sys.modules:
        return
    from ..codecs._after_import import after_import

    stand_in = _LazyInspect("inspect")

    def before() -> None:
        sys.modules.setdefault("inspect", stand_in)

    def after(module) -> None:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]

    after_import("dataclasses", after, before)


def _array_without_collections() -> None:
    """``array`` registers its type as a ``collections.abc.MutableSequence`` when it is first
    imported, and importing ``collections.abc`` loads the package ``collections`` (with
    ``keyword``, ``operator``, ``reprlib``: about a millisecond of a ``mrkit score`` that
    uses no other part of it).  While ``array``'s own code runs, ``sys.modules`` holds a
    stand-in ``collections`` whose ``abc`` is ``_collections_abc`` (the module that
    ``collections.abc`` re-exports: the same classes, so the registration is the usual one);
    both leave ``sys.modules`` as soon as ``array`` is loaded, and a later ``import
    collections`` is the real one."""
    abc = sys.modules.get("_collections_abc")
    if abc is None or "array" in sys.modules or "collections" in sys.modules:
        return
    from ..codecs._after_import import after_import

    stand_in = type(sys)("collections")
    stand_in.abc = abc

    def before() -> None:
        if "collections" not in sys.modules and "collections.abc" not in sys.modules:
            sys.modules["collections"], sys.modules["collections.abc"] = stand_in, abc

    def after(module) -> None:
        if sys.modules.get("collections") is stand_in:
            del sys.modules["collections"], sys.modules["collections.abc"]

    after_import("array", after, before)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _lazy_inspect()
    _array_without_collections()
    if argv and argv[0] in QUICK:
        from ..codecs._gc_paused import gc_paused

        # score and smatch pause the collector while they read and score already; paused from
        # here, their imports and report are not interrupted by collections either (the one at
        # the report walked every object of the run: 1 ms of a 33 ms `score -m sema`)
        _keep_freed()
        with gc_paused():
            _read_ahead_early(argv)
            return _quick(argv)
    return _parsed(argv)


KEEP_FREED = 16 << 20
"""The C heap's top pad for score and smatch (:func:`_keep_freed`): 4 MB left most of the
page faults (SICK x5: 4,272 in the chunks against 1,573 with 16 MB); 64 MB gained nothing."""


def _keep_freed() -> None:
    """score and smatch free each chunk's buffers before the next chunk allocates them again:
    the C heap keeps :data:`KEEP_FREED` bytes free instead of giving them back, so that their
    pages are not faulted in again chunk after chunk (:mod:`mrkit.runtime._memory`; SICK x5
    ``smatch -j 2``: 1.73 CPUs busy instead of 1.57, 4-8 ms of CPU less).  Process-wide, so
    only the command line sets it, never the library."""
    try:
        from ..runtime._memory import keep_freed
    except ImportError:  # built without it: the C library's defaults
        return
    keep_freed(KEEP_FREED)


def _read_ahead_early(argv: list[str]) -> None:
    """``mrkit score -m METRIC GOLD SYSTEM`` with a coded metric: the files' first windows
    read, cut and partly coded on a second thread from here on, while the command line is
    parsed and the command loads (:func:`mrkit.pipeline.amr_metrics.read_ahead`; SICK:
    ~2 ms sooner than from the command's own start).  Only for the plain form: the metric
    given with ``-m``/``--metric``, exactly two words that are not options (the files, in
    order), no ``-j``/``--workers``/``--executor``/``--scheduler``; the command's own
    reading takes it if it reads these files with the automatic executor, else drops it,
    so a guess that does not hold changes nothing but the work of a second core."""
    if argv[0] != "score":
        return
    metric, words = None, []
    i = 1
    while i < len(argv):
        word = argv[i]
        if word in ("-m", "--metric") and i + 1 < len(argv):
            metric = argv[i + 1]
            i += 2
            continue
        if word.startswith("--metric="):
            metric = word[9:]
        elif word.startswith(("-j", "--workers", "--executor", "--scheduler")):
            return
        elif not word.startswith("-"):
            words.append(word)
        i += 1
    if len(words) != 2:
        return
    from ..pipeline.amr_metrics import CODED, read_ahead  # (every score command loads it)

    if metric in CODED:
        read_ahead(*words)


def _quick(argv: list[str]) -> int:
    from .quick_args import quick_parse

    args = quick_parse(argv)  # the plain forms of score and smatch, without argparse
    if args is not None:
        if argv[0] != "smatch":
            return _main(args)
        from .smatch import start_early, stop_early

        if not _special_inputs(args):  # a pipe is read once, by the run (_spool_inputs)
            start_early(args)  # its threads score while the command loads
        try:
            return _main(args)
        finally:
            stop_early()  # a run that stopped before it took them (an error, another way)
    return _parsed(argv)


def _parsed(argv: list[str]) -> int:
    from .parser import _untranslated, argparse, build_parser

    saved = _untranslated()
    try:
        return _main(build_parser(argv).parse_args(argv))
    finally:
        if saved is not None:
            argparse._, argparse.ngettext = saved


class _ClosedStream:
    """``sys.stdout`` or ``sys.stderr`` when mrkit was started with that descriptor closed
    (``mrkit ... >&-``; Python then leaves the stream ``None``).  Standard output: a run that
    writes to it ends with ``cannot write standard output`` (exit 2, nothing written); a run
    writing to ``-o FILE`` is not affected.  Standard error: messages have nowhere to go
    and are dropped (``print(file=None)`` would put them on standard output)."""

    closed = True

    def __init__(self, name: str, fail: bool) -> None:
        self.name, self._fail = name, fail

    def _closed(self):
        from ..errors import OutputError

        raise OutputError(f"cannot write {self.name}: it is closed")

    def write(self, text) -> int:
        if self._fail:
            self._closed()
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    @property
    def buffer(self):
        return self._closed() if self._fail else _ClosedStream(self.name, False)

    def fileno(self) -> int:
        raise ValueError(f"{self.name} is closed")


def _closed_streams() -> None:
    """Stand-ins for standard streams that were closed when the process started."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream("standard output", True)
    if sys.stderr is None:
        sys.stderr = _ClosedStream("standard error", False)


def _main(args) -> int:
    _closed_streams()
    _quiet_libraries()
    _one_blas_thread()
    debug = bool(os.environ.get("MRKIT_DEBUG"))
    try:
        for attr in ("output", "plot"):  # every output path, checked before the work
            if isinstance(getattr(args, attr, None), str):
                from ..codecs._files import check_writable

                check_writable(getattr(args, attr))
        stdout = _spool_inputs(args)
        try:
            status = int(args._run(args) or 0)
            sys.stdout.flush()
        finally:
            if stdout is not None:
                sys.stdout = stdout
        return status
    except KeyboardInterrupt:
        print("mrkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _stdout_gone()
        return 0
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the one place every failure becomes one line
        if debug and not isinstance(exc, MrkitError):
            raise
        print(f"mrkit: {_shown(describe_failure(exc, args))}", file=sys.stderr)
        return 2


def console() -> int:
    """The ``mrkit`` console script: :func:`main`, then the process ends without the
    interpreter's teardown (freeing every module and object: about 15 M instructions, 4 ms,
    of a run, issue 14) when nothing is left for it to do (:func:`_nothing_at_exit`);
    otherwise, and for :func:`main` called in-process, Python exits as usual."""
    if sys.argv[1:2] and sys.argv[1] in QUICK:
        # the process ends after the run: a collection between the run and os._exit would
        # only walk the run's objects (main pauses the collector for these commands)
        import gc

        gc.disable()
    try:
        status = main()
    except SystemExit as exc:  # argparse's --help, --version and usage errors: their text is written
        if exc.code is not None and not isinstance(exc.code, int):
            raise
        status = exc.code or 0
    if isinstance(status, int) and 0 <= status <= 255 and _nothing_at_exit():
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 - a stream that cannot be flushed: Python's own exit reports it
            return status
        os._exit(status)
    return status


def _nothing_at_exit() -> bool:
    """Whether the interpreter's exit would do nothing a user sees: no ``atexit`` handler
    (tempfile's finalizers, multiprocessing, logging, concurrent.futures and Dask register
    one), no thread but this one (the interpreter would join non-daemon threads), and the
    standard streams still open.  The outputs mrkit writes are complete and renamed when
    :func:`main` returns (``codecs/_files.atomic_write``)."""
    import atexit

    callbacks = getattr(atexit, "_ncallbacks", None)
    if callbacks is None or callbacks():
        return False
    threading = sys.modules.get("threading")
    if threading is not None and (threading.active_count() > 1 or getattr(threading, "_threading_atexits", None)):
        return False
    return all(s is not None and not s.closed for s in (sys.stdout, sys.stderr))


# moved to mrkit.cli.parser (argparse loads only when it parses): the names stay here
_PARSER_NAMES = ("argparse", "build_parser", "top_parser", "_Parser", "_Commands", "_add_command",
                 "_terminal_columns", "_untranslated", "_import_argparse")


def __getattr__(name: str):
    if name in _PARSER_NAMES:
        from . import parser

        return getattr(parser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    sys.exit(main())
