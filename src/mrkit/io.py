"""Small file helpers shared by every codec and command."""

from __future__ import annotations

import gc
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def atomic_write(path: str | os.PathLike, text: str | bytes) -> None:
    """Write ``text`` (str, or bytes written as is) to ``path`` so that readers see the old
    file or the whole new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as fh:
                fh.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small objects.

    Reading a corpus allocates hundreds of thousands of long-lived objects; every
    generation-2 collection walks all of them, which made reading ten times slower.
    Nothing mrkit builds is cyclic garbage, so reference counting frees it anyway.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def numbered_lines(path: str | os.PathLike) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a UTF-8 text file; a file that cannot be opened or is
    not UTF-8 raises :class:`~mrkit.errors.InputError` naming the file (and line)."""
    from .errors import InputError

    name = os.fspath(path)
    try:
        fh = open(name, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", name) from None
    with fh:
        lineno = 0
        try:
            for lineno, line in enumerate(fh, 1):
                yield lineno, line
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", name, lineno + 1) from None


def json_lines(path: str | os.PathLike) -> Iterator[tuple[int, object]]:
    """``(line number, value)`` of every non-blank line of a JSON-lines file."""
    import json

    from .errors import InputError

    for lineno, line in numbered_lines(path):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc.msg}", os.fspath(path), lineno) from None
