"""The pipeline: read -> pair -> score -> aggregate, streaming, for every command.

Pairs flow in chunks: a reader yields items (raw text blocks or graphs), the pairing step
joins gold and system items (in order, or by id), chunks of pairs go through the caller's
executor (:mod:`mrkit.runtime.executor`) to a module-level scoring function, and every
pair's summable row lands in a :class:`mrkit.aggregate.corpus.Collector`.  Nothing holds
the whole corpus: memory grows only with the few numbers kept per pair.

Each family of metrics has its reading and pairing here (``amr``: sentence graphs paired
in order; ``mrp``: graphs paired by framework and id; ``document``: document graphs;
``coref``: documents paired by id; ``hierarchy``: SciCo topics), and
:func:`score_files` runs any registered metric on two files.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator, TypeVar

    T = TypeVar("T")


def is_sharded(spec: str) -> bool:
    """Whether ``spec`` names several files: a directory or a glob pattern (see
    :mod:`mrkit.pipeline.shards`)."""
    if spec == "-":
        return False
    import os

    return os.path.isdir(spec) or (not os.path.exists(spec) and any(c in spec for c in "*?["))


CHUNK = 256
"""Pairs per task handed to an executor (large enough to amortise a worker round trip,
small enough to keep every worker busy and memory flat)."""


def chunked(items: Iterable[T], size: int = CHUNK) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last may be shorter)."""
    from itertools import islice

    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def stream(fn: Callable[[list], list], items: Iterable[Any], executor, size: int = CHUNK) -> Iterator[Any]:
    """``fn`` over chunks of ``items`` through ``executor``; yields each chunk's results
    in input order, flattened.  ``fn`` takes a list and returns a list (module-level, so
    that a process executor can send it to its workers)."""
    for out in executor.map(fn, chunked(items, size)):
        yield from out
