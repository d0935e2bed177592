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


class HeldWarnings:
    """The warnings of a reader, held until it has read its file whole: ``with held:``
    around each step of the reading (warnings raised inside are kept), then
    :meth:`show` once the file is read.  A file that fails gives one line (its error),
    not its warnings before it.  Each message is shown once per process, as
    ``warnings.warn`` does by default."""

    _shown: set = set()

    def __init__(self) -> None:
        self.caught: list = []

    def __enter__(self) -> "HeldWarnings":
        import warnings

        self._catch = warnings.catch_warnings(record=True)
        self._log = self._catch.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc) -> None:
        self.caught.extend(self._log)
        self._catch.__exit__(*exc)

    def show(self) -> None:
        import warnings

        for w in self.caught:
            key = (str(w.message), w.category)
            if key not in HeldWarnings._shown:
                HeldWarnings._shown.add(key)
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        self.caught = []


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
