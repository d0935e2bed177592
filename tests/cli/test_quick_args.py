"""The quick parser of ``mrkit score`` / ``mrkit smatch`` (``mrkit.cli.quick_args``) against
argparse: on every command line its namespace is None (argparse decides) or equal to
argparse's: the same attributes, values and types."""

from __future__ import annotations

import contextlib
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.cli import main
from mrkit.cli.parser import build_parser
from mrkit.cli.quick_args import Namespace, Recorder, quick_parse


def argparse_result(argv: list[str]):
    """argparse's namespace for ``argv``, or ``"exit"`` when it stops (help, usage error)."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return build_parser(argv).parse_args(argv)
        except SystemExit:
            return "exit"


def _argparse_dashes(expected, argv: list[str]):
    """argparse's namespace with its one known quirk undone: an explicit ``--option=--``
    loses its value (argparse strips the ``--`` separator from the option's values: ``[]``
    for the option, ``[[]]`` for an appended one), where the quick parser keeps ``'--'``, the
    value the user wrote (the run then says what is wrong with it in one line; argparse's
    list would reach the command as a value of the wrong type)."""
    if not any(t.startswith("--") and t.endswith("=--") for t in argv[1:]):
        return expected
    fixed = dict(vars(expected))
    for key, value in fixed.items():
        if value == []:
            fixed[key] = "--"
        elif isinstance(value, list):
            fixed[key] = ["--" if v == [] else v for v in value]
    return Namespace(**fixed)


def check(argv: list[str]):
    quick = quick_parse(argv)
    if quick is None:
        return None
    expected = argparse_result(argv)
    assert expected != "exit", argv
    expected = _argparse_dashes(expected, argv)
    assert repr(quick) == repr(expected), argv  # every value, exactly (floats by repr: nan too)
    if "nan" not in repr(quick):
        assert quick == expected and vars(quick) == vars(expected), argv
    assert {k: type(v) for k, v in vars(quick).items()} == {k: type(v) for k, v in vars(expected).items()}, argv
    for key, value in vars(quick).items():  # lists too: same element types
        if isinstance(value, list):
            assert [type(x) for x in value] == [type(x) for x in getattr(expected, key)], (argv, key)
    return quick


def actions(command: str):
    """argparse's actions of ``command`` (every option it has: the test's vocabulary)."""
    parser = build_parser([command])
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices[command]._actions


VALUES = ["0", "1", "3", "-1", "2.5", "1e3", "abc", "", "-", "--", "sema", "sembleu", "smatch", "wlk", "json",
          "tsv", "amr", "mrp", "auto", "serial", "both", "best", "mean", "concept", " 7", "1_0", "x=y", "-x",
          "nan", "0.95", "g.amr"]
WORDS = ["gold.amr", "system.amr", "-", "", "a b", "3", "x=y"]
JUNK = ["--", "-h", "--help", "--version", "-j2", "-k3", "-m=sema", "--per", "--js", "--met", "-x", "--no-such",
        "--json=1", "--output=", "-rf", "--exact=yes", "---json"]


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(["score", "smatch"]))
    options = [a for a in actions(command) if a.option_strings]
    pieces = []
    for _ in range(draw(st.integers(0, 9))):
        kind = draw(st.sampled_from(["word", "word", "option", "option", "option", "equals", "junk"]))
        if kind == "word":
            pieces.append(draw(st.sampled_from(WORDS)))
        elif kind == "junk":
            pieces.append(draw(st.sampled_from(JUNK)))
        else:
            action = draw(st.sampled_from(options))
            flag = draw(st.sampled_from(action.option_strings))
            values = [*(action.choices or ()), *VALUES]
            if action.nargs == 0:
                pieces.append(flag if kind == "option" else f"{flag}={draw(st.sampled_from(values))}")
            elif kind == "equals":
                pieces.append(f"{flag}={draw(st.sampled_from(values))}")
            else:
                pieces.append(flag)
                pieces += [draw(st.sampled_from(values)) for _ in range(draw(st.integers(0, 2)))]
    return [command, *pieces]


TYPED = {int: ["0", "2", "17", "-3", "+4", " 5", "1_000", "x", "2.0"], float: ["0.5", "10", "1e-3", "nan", "-1", "inf", "x"],
         None: ["out.json", "x", "-", "a b", "-v"]}


@st.composite
def plain_command_lines(draw):
    """Mostly valid command lines: options with one value of their type or choices, the
    positional words in one run (before, between or after the options)."""
    command = draw(st.sampled_from(["score", "smatch"]))
    options = [a for a in actions(command) if a.option_strings and a.nargs in (None, 0)]
    pieces = []
    if command == "score" and draw(st.integers(0, 9)):
        pieces += [draw(st.sampled_from(["-m", "--metric"])), draw(st.sampled_from([*actions(command)[3].choices, "x"]))]
    for _ in range(draw(st.integers(0, 6))):
        action = draw(st.sampled_from(options))
        flag = draw(st.sampled_from(action.option_strings))
        if action.nargs == 0:
            pieces.append(flag)
            continue
        value = draw(st.sampled_from([*(action.choices or ()), *TYPED.get(action.type, TYPED[None])]))
        if flag.startswith("--") and draw(st.booleans()):
            pieces.append(f"{flag}={value}")
        else:
            pieces += [flag, value]
    words = [draw(st.sampled_from(WORDS)) for _ in range(draw(st.integers(0, 3) if command == "smatch" else st.sampled_from([2, 2, 2, 1, 3])))]
    at = draw(st.integers(0, len(pieces) // 2)) * 2
    return [command, *pieces[:at], *words, *pieces[at:]]


@settings(max_examples=600, deadline=None)
@given(command_lines())
def test_quick_namespace_is_none_or_argparses(argv):
    check(argv)


@settings(max_examples=800, deadline=None)
@given(plain_command_lines())
def test_quick_namespace_of_plain_lines_is_none_or_argparses(argv):
    check(argv)


PLAIN = [
    ["score", "-m", "sema", "gold.amr", "system.amr"],
    ["score", "-m", "sema", "gold.amr", "system.amr", "--json"],
    ["score", "gold.amr", "system.amr", "--metric", "sembleu", "-k", "2", "--reference", "-o", "out.json"],
    ["score", "--metric=wlk", "-k", "3", "--edge-to-node", "gold.amr", "system.amr", "--digits", "6"],
    ["score", "-m", "smatch", "gold.amr", "system.amr", "-r", "8", "--seed", "3", "--time-limit", "2.5",
     "--exact", "-j", "2", "--executor", "serial", "--format", "tsv", "--per-pair"],
    ["score", "-m", "sema", "-", "system.amr", "--bootstrap", "100", "--confidence", "0.9", "--stats-seed", "7",
     "--against", "other.amr", "--output", "-"],
    ["smatch", "gold.amr", "system.amr"],
    ["smatch", "gold.amr", "system.amr", "--json", "-j", "2"],
    ["smatch", "--example"],
    ["smatch", "gold.amr"],
    ["smatch", "gold.amr", "system.amr", "--subscores", "--justinstance", "--top", "concept", "--also-gold", "g2",
     "--also-gold", "g3", "--multi-ref", "mean", "--format", "amr", "--format=json", "--no-ilp"],
]

LEFT_TO_ARGPARSE = [
    [], ["--help"], ["score"], ["score", "--help"], ["score", "-h"], ["smatch", "-f", "s.amr", "g.amr"],
    ["score", "gold.amr", "system.amr"],  # -m is required
    ["score", "-m", "nope", "gold.amr", "system.amr"], ["score", "-m", "sema", "gold.amr"],
    ["score", "-m", "sema", "gold.amr", "system.amr", "third.amr"], ["score", "--met", "sema", "a", "b"],
    ["score", "-m", "sema", "a", "b", "-j2"], ["score", "-m", "sema", "a", "b", "-k", "-1"],
    ["score", "-m", "sema", "a", "--", "b"], ["score", "-m", "sema", "a", "-j", "2", "b"],
    ["smatch", "a", "--json", "b"], ["smatch", "a", "b", "--justinstance", "--justrelation"],
    ["smatch", "a", "b", "--top", "root"], ["smatch", "a", "b", "-r", "x"], ["mrp", "a", "b"],
    ["--version"], ["smatch", "a", "b", "--json=yes"], ["smatch", "a", "b", "--output="],
]


def test_plain_command_lines_are_parsed_quickly_and_equal():
    for argv in PLAIN:
        assert check(argv) is not None, argv


def test_everything_else_is_left_to_argparse():
    for argv in LEFT_TO_ARGPARSE:
        assert quick_parse(argv) is None, argv


def test_help_and_errors_still_come_from_argparse(capsys):
    for argv in (["score", "--help"], ["score", "-m", "nope", "a", "b"], ["smatch", "a", "--json", "b"]):
        try:
            main(argv)
        except SystemExit as exc:
            status = exc.code
        out = capsys.readouterr()
        expected = argparse_result(argv)
        assert expected == "exit"
        assert status in (0, 2)
        assert (out.out if status == 0 else out.err).strip()


def test_namespace_behaves_as_argparses():
    import argparse

    quick, real = Namespace(b=1, a="x", **{"not id": 2}), argparse.Namespace(b=1, a="x", **{"not id": 2})
    assert quick == real and real == quick and repr(quick) == repr(real)
    assert ("a" in quick) and ("c" not in quick)
    assert quick != Namespace(a="x") and quick != {"a": "x", "b": 1}


def test_the_recorder_gives_up_on_what_it_does_not_follow():
    for add in (lambda r: r.add_argument("--n", action="count"), lambda r: r.add_argument("x", nargs="*"),
                lambda r: r.add_argument("--x", default="==SUPPRESS=="), lambda r: r.add_argument("--x", const=1),
                lambda r: r.add_mutually_exclusive_group(required=True)):
        rec = Recorder()
        add(rec)
        assert not rec.plain


def test_an_explicit_double_dash_value_is_kept():
    """``--option=--``: argparse strips the ``--`` from the value (a list reaches the
    command); the quick parser keeps what was written, and the run names it in one line
    (these lines were found by the generated command lines above)."""
    for argv in (["smatch", "gold.amr", "gold.amr", "--format=--"], ["smatch", "g", "s", "--against=--"],
                 ["score", "-m", "sema", "g", "s", "--output=--"]):
        assert check(argv) is not None, argv
    assert quick_parse(["smatch", "g", "s", "--format=--"]).formats == ["--"]
    assert quick_parse(["smatch", "g", "s", "--against=--"]).against == "--"
