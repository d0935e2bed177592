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

import importlib
import os
import sys
import types
import warnings


def _gettext(message: str) -> str:
    """``gettext.gettext``, the module imported at the first message asked for."""
    import gettext

    return gettext.gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    """``gettext.ngettext``, the module imported at the first message asked for."""
    import gettext

    return gettext.ngettext(singular, plural, n)


def _import_argparse() -> types.ModuleType:
    """``import argparse`` without importing :mod:`gettext` with it (about 1 ms: it compiles
    a regular expression at import): argparse binds ``gettext.gettext`` and ``ngettext``
    at import and calls them for its messages; while it is imported, a stand-in module
    gives it :func:`_gettext` and :func:`_ngettext`, which import the real module when a
    message is first asked for and answer exactly as it does.  A command run by
    :func:`main` where no catalogue can exist asks none (:func:`_untranslated`)."""
    if "argparse" in sys.modules or "gettext" in sys.modules:
        import argparse

        return argparse
    stand_in = types.ModuleType("gettext")
    stand_in.gettext, stand_in.ngettext = _gettext, _ngettext
    sys.modules["gettext"] = stand_in
    try:
        import argparse
    finally:
        if sys.modules.get("gettext") is stand_in:
            del sys.modules["gettext"]
    return argparse


argparse = _import_argparse()

from ..errors import InputError, MrkitError  # noqa: E402

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


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr (exit 2), not the usage block."""

    def error(self, message: str):
        self.exit(2, f"mrkit: {message} (see {self.prog} --help)\n")

    def _get_formatter(self):
        # argparse's own asks shutil for the width (and shutil loads zlib, bz2, lzma):
        # the same width, without the import, for every parser (checks at start-up too)
        return self.formatter_class(prog=self.prog, width=_terminal_columns() - 2)


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: $COLUMNS when positive, else the width of
    the terminal on stdout, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


class _Commands(argparse._SubParsersAction):
    """The subcommands: a command listed from :data:`SUMMARIES` (a name in the table of
    ``mrkit --help``, a placeholder parser) is imported and built when it is invoked."""

    def add_summary(self, name: str, summary: str) -> None:
        self._name_parser_map[name] = None
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), summary))

    def build(self, name: str) -> argparse.ArgumentParser:
        """Import command ``name`` and build its parser in the place of its placeholder."""
        names = list(self._name_parser_map)
        position = next(i for i, a in enumerate(self._choices_actions) if a.dest == name)
        del self._name_parser_map[name]
        del self._choices_actions[position]
        built = _add_command(self, name)
        self._choices_actions.insert(position, self._choices_actions.pop())  # back in its place
        table = self._name_parser_map  # also ``self.choices``: reordered in place
        ordered = [(n, table[n]) for n in names]
        table.clear()
        table.update(ordered)
        return built

    def __call__(self, parser, namespace, values, option_string=None):
        if values and self._name_parser_map.get(values[0], False) is None:
            self.build(values[0])
        super().__call__(parser, namespace, values, option_string)


def _add_command(sub, name: str) -> argparse.ArgumentParser:
    mod = importlib.import_module(f".{COMMANDS[name]}", __name__)
    p = mod.add_parser(sub)
    p.set_defaults(_run=mod.run)
    return p


def top_parser() -> tuple[argparse.ArgumentParser, _Commands]:
    """The ``mrkit`` parser without its commands, and the action its commands go into."""
    parser = _Parser(
        prog="mrkit",
        description="Read, convert, build and score meaning-representation graphs.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"mrkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands)
    sub.required = True
    return parser, sub


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The ``mrkit`` parser.  When ``argv`` starts with a command name, only that command's
    module is imported and only that command is in the parser (start-up cost of ``mrkit
    smatch ...`` is one module, not sixteen); otherwise (``mrkit --help``, a misspelt
    command, no ``argv``) every command is listed from :data:`SUMMARIES` without importing
    it, and the one the arguments name (``mrkit --opt CMD ...``) is built when it is reached."""
    parser, sub = top_parser()
    if argv and argv[0] in COMMANDS:
        _add_command(sub, argv[0])
        return parser
    for name in COMMANDS:
        if name in SUMMARIES:
            sub.add_summary(name, SUMMARIES[name])
        else:
            _add_command(sub, name)
    return parser


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
        print(f"mrkit: warning: {_one_line(message)}", file=sys.stderr if file is None else file)
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


class _LazyInspect(types.ModuleType):
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


def _same(message: str) -> str:
    return message


def _same_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _untranslated() -> tuple | None:
    """argparse's messages without gettext's look-up, where no catalogue can answer it.

    argparse passes each of its messages through ``gettext.gettext`` (the current domain,
    ``messages`` unless set), which searches ``<localedir>/<language>/LC_MESSAGES/<domain>.mo``
    on every call and imports :mod:`locale` to expand the language names (about 1 ms of a
    one-pair ``mrkit smatch``, issue 14).  When no directory is bound to the domain and
    Python's default locale directory does not exist, that search finds nothing and gettext
    returns the message itself (ngettext: the singular for 1, else the plural): exactly
    what these stand-ins return.  Returns what to put back (None: nothing was changed)."""
    gettext = sys.modules.get("gettext")
    if gettext is None:  # not imported: nothing bound; its default directory, as gettext makes it
        localedirs, domain, default = {}, "messages", os.path.join(sys.base_prefix, "share", "locale")
    else:
        localedirs = getattr(gettext, "_localedirs", None)
        domain = getattr(gettext, "_current_domain", None)
        default = getattr(gettext, "_default_localedir", None)
    if (not isinstance(localedirs, dict) or not isinstance(default, str) or domain in localedirs
            or os.path.isdir(default)):
        return None  # a catalogue may exist (or gettext is not the one we know): ask gettext
    saved = (argparse._, argparse.ngettext)
    argparse._, argparse.ngettext = _same, _same_plural
    return saved


def main(argv: list[str] | None = None) -> int:
    saved = _untranslated()
    try:
        return _main(argv)
    finally:
        if saved is not None:
            argparse._, argparse.ngettext = saved


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _lazy_inspect()
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    _quiet_libraries()
    _one_blas_thread()
    debug = bool(os.environ.get("MRKIT_DEBUG"))
    try:
        from ..codecs._files import check_writable

        for attr in ("output", "plot"):  # every output path, checked before the work
            if isinstance(getattr(args, attr, None), str):
                check_writable(getattr(args, attr))
        status = int(args._run(args) or 0)
        sys.stdout.flush()
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
        print(f"mrkit: {describe_failure(exc, args)}", file=sys.stderr)
        return 2


def console() -> int:
    """The ``mrkit`` console script: :func:`main`, then the process ends without the
    interpreter's teardown (freeing every module and object: about 15 M instructions, 4 ms,
    of a run, issue 14) when nothing is left for it to do (:func:`_nothing_at_exit`);
    otherwise, and for :func:`main` called in-process, Python exits as usual."""
    status = main()
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


if __name__ == "__main__":
    sys.exit(main())
