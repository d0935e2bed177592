"""``codecs._patterns.later``: a pattern compiled at its first use, answering as
``re.compile`` would; the PENMAN codec compiles none of its patterns at import."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import mrkit
from mrkit.codecs._patterns import later


@given(st.text(alphabet="ab~.,0123456789 \n#:x", max_size=40))
def test_later_answers_as_the_compiled_pattern(text):
    pattern, flags = r"^[ \t]*[^#\s]|~(?:[a-zA-Z]+\.?)?(\d+(?:,\d+)*)$", re.M
    lazy, eager = later(pattern, flags), re.compile(pattern, flags)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert (lazy.search(text) is None) == (eager.search(text) is None)
    assert lazy.pattern == eager.pattern and lazy.flags == eager.flags


def test_compiled_once_at_first_use():
    lazy = later(r"a+b")
    assert lazy._compiled is None
    assert lazy.fullmatch("aab") and lazy._compiled is not None
    first = lazy._compiled
    assert lazy.search("xab").group() == "ab" and lazy._compiled is first


def test_importing_the_penman_codec_compiles_no_pattern():
    code = ("import mrkit.codecs.penman as p\n"
            "print([n for n in ('_ALIGN', '_TOKEN', '_BLOCK', '_CONTENT') if getattr(p, n)._compiled is not None])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(Path(mrkit.__file__).resolve().parents[1]), "PATH": ""})
    assert out.stdout.strip() == "[]"
