"""Score many independent pairs, in order, optionally in worker processes."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterator, Sequence


def _run_chunk(args: tuple) -> list:
    from ..codecs._files import gc_paused

    fn, items, extra = args
    with gc_paused():
        return [fn(*item, *extra) for item in items]


def map_pairs(fn: Callable[..., Any], items: Sequence[tuple], extra: tuple = (), workers: int = 1,
              progress: Callable[[int], None] | None = None, min_parallel: int = 50,
              chunk_size: int | None = None, pool=None) -> list:
    """``[fn(*item, *extra) for item in items]``, in chunks over ``workers`` processes.

    ``workers=0`` uses every core; small inputs (fewer than ``min_parallel`` items) run in
    this process.  ``progress`` is called with the number of items finished.  ``fn`` must
    be a module-level function (it is pickled).  ``chunk_size``: items per task (default:
    about eight tasks per worker).  ``pool``: an open ``multiprocessing`` pool to use
    instead of starting one (then ``workers`` only sets the chunk size).
    """
    if workers == 0:
        workers = os.cpu_count() or 1
    if pool is None and (workers <= 1 or len(items) < min_parallel):
        out = []
        for item in items:
            out.append(fn(*item, *extra))
            if progress:
                progress(1)
        return out
    size = chunk_size or max(1, len(items) // (max(workers, 2) * 8))
    chunks = [(fn, items[k:k + size], extra) for k in range(0, len(items), size)]
    out = []
    with (nullcontext(pool) if pool is not None else new_pool(workers)) as active:
        for chunk in active.imap(_run_chunk, chunks):
            out.extend(chunk)
            if progress:
                progress(len(chunk))
    return out


def _worker_init(parent: int) -> None:
    """Make a worker leave quietly: Ctrl-C is the parent's to handle (it terminates the
    pool), SIGTERM ends the worker without a traceback, and on Linux the worker gets
    SIGTERM when the parent dies (else it would write its results into a closed pipe)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
        except Exception:  # no prctl: the checks below and the pool's own cleanup remain
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


@contextmanager
def new_pool(workers: int) -> Iterator:
    """A process pool (fork where available, so workers share the parent's modules) whose
    workers exit quietly when the run is interrupted or the parent dies.

    On an exception or Ctrl-C in the parent, the workers are killed at once and the pool's
    own clean-up is cancelled: ``Pool.terminate`` first takes the lock of the task queue,
    which a worker waiting for its next task holds, and so could wait forever (seen as a
    parent hung on Ctrl-C with ``-j 2``).  Nothing a killed worker was doing is kept."""
    import multiprocessing as mp

    pool = mp.get_context("fork" if sys.platform != "win32" else "spawn").Pool(
        workers, initializer=_worker_init, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        for proc in list(getattr(pool, "_pool", ())):
            try:
                proc.kill()
                proc.join(5)
            except Exception:  # already gone
                pass
        finalizer = getattr(pool, "_terminate", None)
        if finalizer is not None and hasattr(finalizer, "cancel"):
            finalizer.cancel()  # no terminate() at exit either: its threads are daemons
        raise
    else:
        pool.terminate()
