"""The process pool under :class:`mrkit.runtime.executor.ProcessExecutor`: fork where
available, workers that leave quietly on Ctrl-C or when the parent dies."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator


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
        # first stop the pool's worker handler: it replaces dead workers, and a worker forked
        # after the kill below waits forever for the task-queue lock a killed worker held, and
        # the interpreter's exit then waits forever for it (seen as a parent hung after an
        # input error with -j 2, one run in four)
        from multiprocessing.pool import TERMINATE

        handler = getattr(pool, "_worker_handler", None)
        if handler is not None:
            handler._state = TERMINATE
            try:
                pool._change_notifier.put(None)  # wake it up: it sees TERMINATE and leaves
            except Exception:
                pass
            handler.join(5)
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
