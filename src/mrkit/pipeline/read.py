"""Reading one input of the graph commands (``mrkit mrp``, ``mrkit analyze``): light,
with no engine, numpy or metric behind it, so that a command that only reads pays
nothing else at start-up."""

from __future__ import annotations

import io
import os
import sys
import warnings
from typing import Callable

from ..codecs.registry import guess_format, read_graphs, sniff_text as sniff
from ..errors import MrkitError
from ..model.graph import Graph


def read_side(path: str, fmt: str | None = None, texts: dict[str, str] | None = None,
              warn: Callable[[str], None] | None = None) -> list[Graph]:
    """The graphs of one input: ``path`` (``-`` is stdin) in format ``fmt`` (default:
    guessed from the suffix, else the content, else MRP).  Reader warnings (e.g. the
    deprecated edge key ``properties``) go to ``warn``.

    A directory or a glob of files (shards, :mod:`mrkit.pipeline.shards`) is read file by
    file in name order and its graphs joined (graphs are paired by framework and id, so
    shards need not line up); a bad shard stops with the usual error naming its file and
    line.  A directory of UCCA XML passages (and the list ``files.txt`` beside them) stays one
    UCCA input."""
    from .shards import expand, is_sharded

    if fmt != "ucca" and is_sharded(path):
        files = list(expand(path).values())
        # UCCA XML passages, with the files.txt list mrkit convert --to ucca writes beside them
        passages = [f for f in files if os.path.basename(f) != "files.txt"]
        if not (os.path.isdir(path) and fmt is None and passages
                and all(f.lower().endswith(".xml") for f in passages)):
            return [g for f in files for g in read_side(f, fmt, texts, warn)]
    source: object = path
    if path == "-":
        data = sys.stdin.read()
        fmt = fmt or sniff(data) or "mrp"
        if fmt == "ucca":
            raise MrkitError("UCCA XML cannot be read from stdin: give a file, directory or list")
        source = io.StringIO(data)
        source.name = "<stdin>"  # type: ignore[attr-defined]
    elif fmt is None:
        fmt = guess_format(path)
        if fmt is None or path.lower().endswith((".txt", ".jsonl")):
            fmt = _sniff_file(path) or fmt or "mrp"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        graphs = read_graphs(source, fmt, texts=texts)  # type: ignore[arg-type]
    for w in caught:
        if warn is not None:
            warn(str(w.message))
    return graphs


def _sniff_file(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return sniff(fh.read(65536))
    except OSError:
        return None  # the reader names the file and the reason


__all__ = ["read_side"]
