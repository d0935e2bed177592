"""Where a report goes: standard output, or a file written whole and atomically."""

from __future__ import annotations

import sys


def emit(text: str, output: str | None) -> None:
    """Print to stdout (``output`` None or ``-``), or write the whole text atomically to a file
    (through symlinks, directly into FIFOs and devices; see :func:`mrkit.codecs._files.atomic_write`)."""
    text = text if text.endswith("\n") else text + "\n"
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        from ..codecs._files import atomic_write  # only for a file: printing loads none of it

        atomic_write(output, text)
