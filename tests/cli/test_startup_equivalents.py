"""What the command line no longer builds or loads at start-up (issue 14) answers exactly
as what it replaces: argparse's messages without gettext's look-up, the engine options
told from the command line, the conventions of classic Smatch told from the options."""

from __future__ import annotations

import argparse
import gettext
import itertools
import os
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mrkit.cli as cli
from mrkit.align import AlignConfig
from mrkit.cli.common import ENGINE_DEFAULTS, engine_config, engine_options_given
from mrkit.cli.smatch_options import conventions_of, default_conventions

# messages argparse passes through gettext (a sample of its own, as written in argparse.py)
MESSAGES = ["usage: ", "positional arguments", "options", "show this help message and exit",
            "unrecognized arguments: %s", "the following arguments are required: %s",
            "invalid choice: %(value)r (choose from %(choices)s)", "expected one argument",
            "%(prog)s: error: %(message)s\n", "argument %(argument_name)s: %(message)s", ".__call__() not defined"]


def test_without_a_catalogue_the_stand_ins_answer_as_gettext(monkeypatch, tmp_path):
    monkeypatch.setattr(gettext, "_default_localedir", str(tmp_path / "no-such-dir"))
    monkeypatch.setattr(gettext, "_localedirs", {})
    monkeypatch.setenv("LANGUAGE", "de:fr")
    expected = [gettext.gettext(m) for m in MESSAGES]
    plural = [gettext.ngettext("expected %s argument", "expected %s arguments", n) for n in range(4)]
    before = (argparse._, argparse.ngettext)
    saved = cli._untranslated()
    try:
        assert saved == before
        assert [argparse._(m) for m in MESSAGES] == expected == MESSAGES
        assert [argparse.ngettext("expected %s argument", "expected %s arguments", n) for n in range(4)] == plural
    finally:
        argparse._, argparse.ngettext = saved
    assert (argparse._, argparse.ngettext) == before


def test_where_a_catalogue_may_exist_gettext_is_asked(monkeypatch, tmp_path):
    monkeypatch.setattr(gettext, "_default_localedir", str(tmp_path))  # exists
    assert cli._untranslated() is None
    monkeypatch.setattr(gettext, "_default_localedir", str(tmp_path / "none"))
    monkeypatch.setattr(gettext, "_localedirs", {"messages": str(tmp_path)})  # bound by someone
    assert cli._untranslated() is None
    monkeypatch.setattr(gettext, "_localedirs", {})
    monkeypatch.setattr(gettext, "_current_domain", "mine")
    monkeypatch.setattr(gettext, "_localedirs", {"mine": str(tmp_path)})
    assert cli._untranslated() is None


def test_the_default_directory_is_gettexts():
    import os
    import sys

    assert gettext._default_localedir == os.path.join(sys.base_prefix, "share", "locale")


def test_argparse_imported_without_gettext_asks_it_on_first_message():
    """In a fresh interpreter ``mrkit.cli.parser`` imports argparse without gettext; argparse's
    messages then come from the real gettext, imported at the first one."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\nimport mrkit.cli.parser\nimport argparse\n"
            "print('gettext' in sys.modules, type(sys.modules.get('gettext')).__name__)\n"
            "m = argparse._('usage: ')\nimport gettext\n"
            "print(m == gettext.gettext('usage: '), type(sys.modules['gettext']).__name__, hasattr(gettext, 'translation'))\n"
            "print(argparse.ngettext('a', 'b', 1), argparse.ngettext('a', 'b', 2))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(Path(cli.__file__).resolve().parents[2]), "PATH": ""})
    assert out.stdout.split() == ["False", "NoneType", "True", "module", "True", "a", "b"]


def test_main_puts_argparse_back(monkeypatch, capsys):
    monkeypatch.setattr(gettext, "_default_localedir", "/nonexistent/mrkit-test-locale")
    before = (argparse._, argparse.ngettext)
    with pytest.raises(SystemExit):
        cli.main(["smatch", "--bogus"])
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err
    assert (argparse._, argparse.ngettext) == before


def engine_args(seed=0, restarts=4, exact=False, no_ilp=False, time_limit=10.0):
    return SimpleNamespace(seed=seed, restarts=restarts, exact=exact, no_ilp=no_ilp, time_limit=time_limit)


def test_engine_defaults_are_the_configs():
    assert engine_config(engine_args(**ENGINE_DEFAULTS)) == AlignConfig()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([0, 1, -1, 7]), st.sampled_from([4, 0, 3, 5]), st.booleans(), st.booleans(),
       st.sampled_from([10.0, 10, 0.5, 1e9]))
def test_engine_options_given_is_a_config_other_than_the_default(seed, restarts, exact, no_ilp, time_limit):
    args = engine_args(seed, restarts, exact, no_ilp, time_limit)
    assert engine_options_given(args) == (engine_config(args) != AlignConfig())


def test_default_conventions_is_is_default():
    for top, mod_domain, roles, standardize in itertools.product(
            (None, "smatch", "concept"), (False, True), (None, "as-written", "reify", "dereify"), (False, True)):
        args = SimpleNamespace(top=top, mod_domain=mod_domain, roles=roles, standardize=standardize)
        try:
            expected = conventions_of(args).is_default
        except Exception:  # noqa: BLE001 - --standardize with other choices: refused later, not default
            expected = False
        assert default_conventions(args) == expected, vars(args)
