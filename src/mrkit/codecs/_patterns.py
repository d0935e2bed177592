"""Regular expressions compiled when first used, not when their module is imported.

Compiling a pattern costs a few hundred microseconds; a module of readers holds several
that only its fallback paths use (``codecs/penman.py``: the compiled reader needs none of
them), so every command would pay for them at start-up (issue 14).  :func:`later` returns
a stand-in that compiles the pattern at its first use and from then on answers with the
compiled pattern's own methods."""

from __future__ import annotations

import re


class _Later:
    __slots__ = ("_args", "_compiled", "__dict__")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args, self._compiled = (pattern, flags), None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        value = getattr(self._compiled, name)
        self.__dict__[name] = value  # the next use is a plain attribute
        return value


def later(pattern: str, flags: int = 0):
    """``re.compile(pattern, flags)``, compiled at the first use of an attribute."""
    return _Later(pattern, flags)
