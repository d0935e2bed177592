"""Mention-pair scores of a pair scorer (a cross-encoder's output), as a TSV file.

A header line names the columns; ``topic``, ``i`` and ``j`` are required, then any of
``none``, ``coref``, ``parent``, ``child`` (probabilities: ``parent``: mention i is a
parent, an ancestor, of mention j; ``child``: i is a child of j)::

    topic   i   j   none    coref   parent  child
    1       0   1   0.05    0.90    0.03    0.02

``i`` and ``j`` are positions of mentions in the topic's ``mentions`` list of the SciCo
file (from 0), as SciCo's code numbers them.  Blank lines and lines starting with ``#``
are skipped.  Bad input (no header, a missing required column, a value that is not a
number, a pair written twice) is an :class:`~mrkit.errors.InputError` naming file and
line.
"""

from __future__ import annotations

import math
import os

from ..errors import InputError
from ._files import numbered_lines

CLASS_COLUMNS = ("none", "coref", "parent", "child")


def read_pair_scores(path: str | os.PathLike) -> dict[str, dict[tuple[int, int], dict[str, float]]]:
    """topic id -> (i, j) -> column -> score."""
    name = os.fspath(path)
    header = None
    out: dict[str, dict] = {}
    for lineno, line in numbered_lines(name):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        cells = text.split("\t") if "\t" in text else text.split()
        if header is None:
            header = [c.strip().lower() for c in cells]
            missing = [c for c in ("topic", "i", "j") if c not in header]
            if missing:
                raise InputError(f"the header must name the columns topic, i, j (missing: {', '.join(missing)})",
                                 name, lineno)
            scores = [c for c in header if c in CLASS_COLUMNS]
            if not scores:
                raise InputError("the header names no score column (none, coref, parent, child)", name, lineno)
            if len(set(header)) != len(header):
                raise InputError("a column is named twice in the header", name, lineno)
            continue
        if len(cells) != len(header):
            raise InputError(f"{len(cells)} cells, the header has {len(header)}", name, lineno)
        row = dict(zip(header, cells))
        try:
            i, j = int(row["i"]), int(row["j"])
        except ValueError:
            raise InputError(f"mention positions must be integers: i={row['i']!r}, j={row['j']!r}",
                             name, lineno) from None
        if i < 0 or j < 0:
            raise InputError(f"mention positions must be >= 0: i={i}, j={j}", name, lineno)
        values = {}
        for c in scores:
            try:
                v = float(row[c])
            except ValueError:
                v = math.nan
            if not math.isfinite(v):
                raise InputError(f"column {c}: {row[c]!r} is not a finite number", name, lineno)
            values[c] = v
        topic = out.setdefault(row["topic"], {})
        if (i, j) in topic:
            raise InputError(f"pair ({i}, {j}) of topic {row['topic']} is written twice", name, lineno)
        topic[(i, j)] = values
    if header is None:
        raise InputError("empty file: no header line (topic, i, j, scores)", name)
    return out
