"""The lazy command line parser says exactly what the eager one said.

``mrkit --help`` lists the commands from a static table (``mrkit.cli.SUMMARIES``) and
builds a command's parser only when it is invoked; ``mrkit CMD ...`` builds that command
alone.  The reference here is the parser as it was built before (issue 14, start-up):
every command module imported and added.  Help texts, error lines and exit statuses must
be byte-identical, at several terminal widths.
"""

from __future__ import annotations

import contextlib
import importlib
import io

import pytest

from mrkit.cli import COMMANDS, SUMMARIES, build_parser, top_parser


def eager_parser():
    """Every command imported and built, as ``build_parser`` did before it was lazy."""
    parser, sub = top_parser()
    for name, module in COMMANDS.items():
        mod = importlib.import_module(f"mrkit.cli.{module}")
        p = mod.add_parser(sub)
        p.set_defaults(_run=mod.run)
    return parser


def outcome(parser, argv: list[str]) -> tuple:
    """(exit status or None, stdout, stderr, parsed namespace) of ``parser.parse_args``."""
    out, err = io.StringIO(), io.StringIO()
    status, ns = None, None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            ns = vars(parser.parse_args(argv))
        except SystemExit as exc:
            status = exc.code
    return status, out.getvalue(), err.getvalue(), ns


WIDTHS = ("80", "40", "132")

ARGVS = [
    [], ["--help"], ["-h"], ["--version"], ["--vers"], ["smatc"], ["nosuch", "a"], ["--bogus"],
    ["--bogus", "smatch", "a", "b"], ["-x", "score", "a", "b"], ["--help", "smatch"],
    ["smatch", "--bogus"], ["smatch", "-r"], ["smatch", "-r", "x", "a", "b"], ["smatch", "--ex", "a", "b"],
    ["smatch", "--jso", "a", "b"], ["smatch", "a", "b", "c"], ["smatch", "a", "b"], ["smatch", "-f", "a"],
    ["score", "--metric"], ["score", "a"], ["score", "-m", "sema", "a", "b", "--json"],
    ["coref"], ["coref", "--metric", "nosuch", "k", "r"], ["docamr"], ["docamr", "bogus"], ["docamr", "--help"],
    ["scico"], ["scico", "--help"], ["docsmatch", "g"], ["mrp", "--normalize"], ["convert", "--to"],
    ["validate"], ["report", "--bogus"], ["matrix", "-j", "two", "f"], ["select", "a"], ["analyze", "--help"],
    ["hierarchy", "g"], ["audit", "--bogus"], ["compare", "--bogus"],
]


@pytest.mark.parametrize("width", WIDTHS)
def test_top_level_help_is_the_eager_parsers(width, monkeypatch):
    monkeypatch.setenv("COLUMNS", width)
    assert build_parser(["--help"]).format_help() == eager_parser().format_help()
    assert build_parser().format_usage() == eager_parser().format_usage()


def test_the_static_table_is_what_each_command_says():
    sub = next(a for a in eager_parser()._actions if a.dest == "command")
    assert {a.dest: a.help for a in sub._choices_actions} == SUMMARIES
    assert list(SUMMARIES) == list(COMMANDS)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_help_is_the_eager_parsers(name, width, monkeypatch):
    monkeypatch.setenv("COLUMNS", width)
    expected = outcome(eager_parser(), [name, "--help"])
    assert expected[0] == 0 and expected[1]
    assert outcome(build_parser([name, "--help"]), [name, "--help"]) == expected
    # reached through the table (an option before the command): built when invoked
    assert outcome(build_parser(["--bogus"]), [name, "--help"]) == expected


@pytest.mark.parametrize("argv", ARGVS, ids=lambda a: " ".join(a) or "(none)")
def test_errors_and_statuses_are_the_eager_parsers(argv, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert outcome(build_parser(argv), argv) == outcome(eager_parser(), argv)


def test_a_command_is_imported_only_when_invoked():
    parser = build_parser(["--help"])
    sub = next(a for a in parser._actions if a.dest == "command")
    assert all(p is None for p in sub.choices.values())
    status, _, _, ns = outcome(parser, ["smatch", "a", "b"])
    assert status is None and ns["gold"] == "a" and ns["system"] == "b"
    assert list(sub.choices) == list(COMMANDS)  # the order of the table is kept
    assert [n for n, p in sub.choices.items() if p is not None] == ["smatch"]
    assert [a.dest for a in sub._choices_actions] == list(COMMANDS)


def test_a_command_missing_from_the_table_is_built_to_be_listed(monkeypatch):
    monkeypatch.delitem(SUMMARIES, "coref")
    parser = build_parser(["--help"])
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sub.choices["coref"] is not None and sub.choices["smatch"] is None
    monkeypatch.setenv("COLUMNS", "80")
    assert parser.format_help() == eager_parser().format_help()


def test_terminal_width_is_shutils(monkeypatch):
    import shutil

    from mrkit.cli import _terminal_columns

    for value in ("100", "0", "-3", "x", "", None):
        if value is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", value)
        assert _terminal_columns() == shutil.get_terminal_size().columns, value
