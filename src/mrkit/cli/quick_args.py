"""A small exact parser for the plain command lines of ``mrkit score`` and ``mrkit smatch``,
so that the common run does not import :mod:`argparse` (with ``re``, ``enum`` and the
building of the parser: about 12 M instructions, 3 ms, of every run; issue 14).

One source of truth: the options are those the command's own ``add_parser`` declares; it
runs against a :class:`Recorder` that notes each ``add_argument`` instead of building an
argparse parser.  :func:`quick_parse` then accepts only plain, fully spelled forms: the
command name first, known flags written in full, ``--long=value``, values that do not start
with ``-`` (``-`` alone is a value, as in argparse), positional arguments in one run, valid
types and choices.  Everything else (``--help``, ``-h``, abbreviations, unknown flags, ``--``,
values starting with ``-``, attached short values such as ``-j2``, an option with several
values, a missing required option, two options of one exclusive group, any usage error) gives
``None``, and argparse parses the command line exactly as before, with its own messages.
tests/cli/test_quick_args.py checks that the result is None or equal to argparse's
namespace (the same attributes, values and types) on generated command lines, but for one
quirk of argparse: an explicit ``--option=--`` loses its value there (a list), where this
parser keeps ``'--'``, the value written, which the run then names in one line.
"""

from __future__ import annotations


_KINDS = {None: "store", "store": "store", "store_true": "flag", "append": "append"}
_KEYS = {"action", "type", "choices", "default", "required", "help", "metavar", "dest", "nargs"}


class Namespace:
    """The parsed arguments: :class:`argparse.Namespace`'s behaviour (attributes, ``==`` by
    attributes with any namespace, ``in``, the same ``repr``) without importing argparse."""

    def __init__(self, **kwargs) -> None:
        self.__dict__.update(kwargs)

    def __eq__(self, other):
        if not hasattr(other, "__dict__") or type(other).__name__ != "Namespace":
            return NotImplemented
        return vars(self) == vars(other)

    __hash__ = None

    def __contains__(self, key: str) -> bool:
        return key in self.__dict__

    def __repr__(self) -> str:
        shown, rest = [], {}
        for name, value in self.__dict__.items():
            if name.isidentifier():
                shown.append(f"{name}={value!r}")
            else:
                rest[name] = value
        if rest:
            shown.append(f"**{rest!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


class _Argument:
    __slots__ = ("dest", "kind", "type", "choices", "default", "required", "group", "usable", "positional")

    def __init__(self, dest, kind, type_, choices, default, required, group, usable, positional) -> None:
        self.dest, self.kind, self.type, self.choices, self.default = dest, kind, type_, choices, default
        self.required, self.group, self.usable, self.positional = required, group, usable, positional


class Recorder:
    """What a command's ``add_parser(sub)`` receives in place of argparse's subparsers
    action: ``add_parser`` returns the recorder itself, which notes the arguments, groups
    and defaults.  ``plain`` turns False at anything :func:`quick_parse` does not follow
    (then the command is always left to argparse)."""

    records_only = True  # tells cli.common.raw_description that no help is formatted

    def __init__(self) -> None:
        self.options: dict[str, _Argument] = {}
        self.positionals: list[_Argument] = []
        self.arguments: list[_Argument] = []
        self.defaults: dict = {}
        self.plain = True
        self._groups = 0

    def add_parser(self, name: str, **kwargs) -> "Recorder":
        return self

    def add_argument_group(self, *args, **kwargs) -> "Recorder":
        return self

    def add_mutually_exclusive_group(self, required: bool = False) -> "_Group":
        self._groups += 1
        if required:
            self.plain = False
        return _Group(self, self._groups)

    def set_defaults(self, **kwargs) -> None:
        self.defaults.update(kwargs)

    def add_argument(self, *flags: str, _group: int | None = None, **kw) -> None:
        kind = _KINDS.get(kw.get("action"), None) if isinstance(kw.get("action"), (str, type(None))) else None
        if kind is None or not flags or not set(kw) <= _KEYS or kw.get("default") == "==SUPPRESS==":
            self.plain = False
            return
        nargs = kw.get("nargs")
        positional = not flags[0].startswith("-")
        if positional:
            if len(flags) != 1 or kind != "store" or nargs not in (None, "?") or "dest" in kw:
                self.plain = False
                return
            dest = flags[0]
        else:
            dest = kw.get("dest")
            if dest is None:
                longs = [f for f in flags if len(f) > 1 and f[1] == "-"]
                dest = (longs[0] if longs else flags[0]).lstrip("-").replace("-", "_")
        default = kw.get("default", False if kind == "flag" else None)
        arg = _Argument(dest, kind, kw.get("type"), kw.get("choices"), default, bool(kw.get("required")),
                        _group, nargs is None if not positional else True, positional)
        if positional:
            arg.usable = nargs  # None: exactly one value; "?": zero or one
            self.positionals.append(arg)
        else:
            for flag in flags:
                self.options[flag] = arg
        self.arguments.append(arg)


class _Group:
    """A mutually exclusive group of a :class:`Recorder`."""

    __slots__ = ("_recorder", "_id")

    def __init__(self, recorder: Recorder, group: int) -> None:
        self._recorder, self._id = recorder, group

    def add_argument(self, *flags: str, **kw) -> None:
        self._recorder.add_argument(*flags, _group=self._id, **kw)


def _value(arg: _Argument, text: str):
    """``text`` converted by the argument's type and checked against its choices, as
    argparse does (a failure raises: the caller leaves the command line to argparse)."""
    value = text if arg.type is None else arg.type(text)
    if arg.choices is not None and value not in arg.choices:
        raise ValueError(text)
    return value


def quick_parse(argv: list[str]):
    """The namespace argparse would give for ``argv`` (a :class:`Namespace`), or None when
    ``argv`` is not a plain command line of a command of ``mrkit.cli.QUICK`` (argparse decides)."""
    from . import COMMANDS, QUICK

    if not argv or argv[0] not in QUICK:
        return None

    # importlib.import_module(".NAME", __package__) without importing importlib (start-up)
    module = __import__(COMMANDS[argv[0]], globals(), None, ("__doc__",), 1)
    rec = Recorder()
    module.add_parser(rec)
    if not rec.plain:
        return None
    try:
        return _parse(rec, argv, module.run)
    except Exception:  # noqa: BLE001 - a type that refuses a value: argparse says why
        return None


def _parse(rec: Recorder, argv: list[str], run):
    given: dict = {}
    seen: list[_Argument] = []
    words: list[str] = []
    run_state = 0  # positional words: 0 none yet, 1 in their run, 2 the run has ended
    tokens, i = argv[1:], 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token[:1] != "-" or token == "-":
            if run_state == 2:
                return None
            run_state = 1
            words.append(token)
            continue
        if run_state == 1:
            run_state = 2
        explicit = None
        if token.startswith("--") and "=" in token:
            token, explicit = token.split("=", 1)
            if not explicit:
                return None
        arg = rec.options.get(token)
        if arg is None or not arg.usable:
            return None
        if arg.kind == "flag":
            if explicit is not None:
                return None
            given[arg.dest] = True
        else:
            if explicit is None:
                if i >= len(tokens):
                    return None
                explicit = tokens[i]
                i += 1
                if explicit[:1] == "-" and explicit != "-":
                    return None
            value = _value(arg, explicit)
            if arg.kind == "append":
                items = given[arg.dest] if arg in seen else list(arg.default or ())
                items.append(value)
                value = items
            given[arg.dest] = value
        if arg not in seen:
            seen.append(arg)
    groups = [a.group for a in seen if a.group is not None]
    if len(groups) != len(set(groups)):
        return None  # two options of one exclusive group: argparse's error
    if any(a.required and a not in seen for a in rec.arguments):
        return None
    nargs = {a.usable for a in rec.positionals}
    if nargs == {None} and len(words) != len(rec.positionals):
        return None
    if nargs == {"?"} and len(words) > len(rec.positionals):
        return None
    if len(nargs) > 1:
        return None
    values = {"command": argv[0]}
    for arg in rec.arguments:
        if arg.dest in given:
            values[arg.dest] = given[arg.dest]
        elif arg.positional and rec.positionals.index(arg) < len(words):
            values[arg.dest] = _value(arg, words[rec.positionals.index(arg)])
        else:
            default = arg.default
            if isinstance(default, str):  # argparse converts a string default (a positional's: checks it too)
                default = _value(arg, default) if arg.positional else (
                    default if arg.type is None else arg.type(default))
            values[arg.dest] = default
    for key, value in rec.defaults.items():
        values.setdefault(key, value)
    values.setdefault("_run", run)
    return Namespace(**values)
