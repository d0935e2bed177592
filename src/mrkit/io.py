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
