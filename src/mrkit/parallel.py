"""Score many independent pairs, in order, optionally in worker processes."""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Sequence


def _run_chunk(args: tuple) -> list:
    fn, items, extra = args
    return [fn(*item, *extra) for item in items]


def map_pairs(fn: Callable[..., Any], items: Sequence[tuple], extra: tuple = (), workers: int = 1,
              progress: Callable[[int], None] | None = None, min_parallel: int = 50,
              chunk_size: int | None = None) -> list:
    """``[fn(*item, *extra) for item in items]``, in chunks over ``workers`` processes.

    ``workers=0`` uses every core; small inputs (fewer than ``min_parallel`` items) run in
    this process.  ``progress`` is called with the number of items finished.  ``fn`` must
    be a module-level function (it is pickled).  ``chunk_size``: items per task (default:
    about eight tasks per worker).
    """
    if workers == 0:
        workers = os.cpu_count() or 1
    if workers <= 1 or len(items) < min_parallel:
        out = []
        for item in items:
            out.append(fn(*item, *extra))
            if progress:
                progress(1)
        return out
    import multiprocessing as mp

    size = chunk_size or max(1, len(items) // (workers * 8))
    chunks = [(fn, items[k:k + size], extra) for k in range(0, len(items), size)]
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    out = []
    with ctx.Pool(workers) as pool:
        for chunk in pool.imap(_run_chunk, chunks):
            out.extend(chunk)
            if progress:
                progress(len(chunk))
    return out
