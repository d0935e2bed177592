"""The input formats of sentence AMR and how each input file's format is told: the names
``mrkit score`` and ``mrkit smatch`` need before any graph is read (kept out of
:mod:`mrkit.pipeline.amr`, whose reading and Smatch machinery the coded metrics of
``mrkit score`` never load: start-up, issue 14)."""

from __future__ import annotations

import os
import sys

from ..errors import InputError, MrkitError

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import IO

AMR_FORMATS = ("amr", "mrp")
"""Input formats that hold sentence AMR graphs (PENMAN, MRP of framework ``amr``)."""

STDIN = "-"

# suffixes that name PENMAN in :mod:`mrkit.codecs.registry` (``_SUFFIX``): a regular file
# with one of them is PENMAN without loading the registry of codecs
_PENMAN_SUFFIXES = (".amr", ".penman", ".txt")


def _penman_by_suffix(path: str) -> bool:
    """Whether the registry of codecs would call ``path`` PENMAN by its suffix alone: a
    regular file (no directory: the registry takes those for UCCA) whose name's suffix
    (from its last dot, not its first character) is one of PENMAN's."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot <= 0 or name[dot:].lower() not in _PENMAN_SUFFIXES:
        return False
    return os.path.isfile(path)


def input_format(path: str, format: str | None = None, head: bytes | None = None) -> str:
    """``format`` if given, else the format guessed from ``path`` (PENMAN when nothing
    tells); a format that cannot hold sentence AMR is an error naming the file."""
    if format is None and path != STDIN and _penman_by_suffix(path):
        return "amr"
    from ..codecs.registry import detect_format

    fmt = format or detect_format(path, head) or "amr"
    if fmt not in AMR_FORMATS:
        raise InputError(f"{fmt} input cannot be scored by Smatch (AMR as PENMAN or MRP)",
                         _label(path))
    return fmt


def file_size(path: str) -> int:
    """Bytes of ``path``; 0 when it cannot be looked at (the reader reports that)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def large_input(path: str, min_bytes: int) -> bool:
    """Whether ``path`` is a file of at least ``min_bytes`` bytes (standard input and a file
    that cannot be looked at: no); the automatic executors' measure of an input."""
    if path == STDIN:
        return False
    try:
        return os.path.getsize(path) >= min_bytes
    except OSError:
        return False


def _label(path: str) -> str:
    return "<stdin>" if path == STDIN else str(path)


def _stdin_bytes() -> IO[bytes]:
    return sys.stdin.buffer


def _check_paths(gold: str, system: str) -> None:
    if gold == STDIN and system == STDIN:
        raise MrkitError("only one of GOLD and SYSTEM can be '-' (standard input)")


def _stdin_head(path: str, format: str | None) -> bytes | None:
    """The first bytes of standard input, left unread (for guessing its format)."""
    if path != STDIN or format is not None:
        return None
    peek = getattr(_stdin_bytes(), "peek", None)
    return peek(4096)[:4096] if peek is not None else None


def _formats(gold: str, system: str, format: str | None) -> tuple[str, str]:
    _check_paths(gold, system)
    return input_format(gold, format, _stdin_head(gold, format)), input_format(system, format, _stdin_head(system, format))
