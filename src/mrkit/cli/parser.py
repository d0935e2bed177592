"""The ``mrkit`` parser built with :mod:`argparse`: every command line the quick parser
(:mod:`mrkit.cli.quick_args`) leaves (``--help``, usage errors, abbreviations, every command
but the common forms of ``score`` and ``smatch``) is parsed here, and every usage message
and help text comes from here.  Imported only then: argparse loads ``re``, ``enum`` and
more (start-up, issue 14)."""

from __future__ import annotations

import os
import sys
import types

from . import COMMANDS, SUMMARIES


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
    mod = __import__(COMMANDS[name], globals(), None, ("__doc__",), 1)  # importlib.import_module(".NAME")
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
