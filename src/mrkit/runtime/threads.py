"""Two threads for compiled work that lets go of the GIL.

The compiled reader (:func:`mrkit.features.triples.pair_codes_units`) and the kernels of the
coded metrics (SEMA, SemBLEU, WLK, SIMPLE) run without the GIL, so two calls of them on two
halves of a batch run on two cores at once inside one process: no fork, no pipe, no copy.
:func:`both` runs one call on a second thread while this thread runs the other.

Built on :mod:`_thread` (part of the interpreter, already loaded) rather than
:mod:`threading`, whose import costs more than a small corpus takes to score (start-up,
issue 14).  Who may use a second thread is the executor's decision
(:attr:`mrkit.runtime.executor.SerialExecutor.threads`): the automatic one (``-j 0``) on
two cores or more, never ``-j 1``.
"""

from __future__ import annotations

import _thread
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def start(fn: Callable[[], Any], wait: bool = True) -> Callable[[], Any]:
    """Run ``fn()`` on a new thread from now on; the function returned waits for its end and
    gives its result, or raises its exception (every time it is called).  ``wait``: return
    once the new thread runs (it holds the GIL then until its first compiled call or system
    call lets go of it), for a caller about to run Python that would keep the GIL for up to
    the switch interval, 5 ms, and the new thread start late; a caller that lets go of the
    GIL soon (system calls, compiled calls) need not wait."""
    done, started = _thread.allocate_lock(), _thread.allocate_lock()
    done.acquire()
    started.acquire()
    box: list = [None, None]  # result, exception

    def run() -> None:
        started.release()
        try:
            box[0] = fn()
        except BaseException as exc:  # handed to whoever joins
            box[1] = exc
        finally:
            done.release()

    _thread.start_new_thread(run, ())
    if wait:
        started.acquire()

    def join() -> Any:
        with done:
            pass
        if box[1] is not None:
            raise box[1]
        return box[0]

    return join


def both(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[Any, Any]:
    """``(first(), second())``, ``first`` on a new thread while this one runs ``second``;
    an exception of either is raised here, ``first``'s before ``second``'s (as if they had
    run one after the other), after both have ended."""
    join = start(first)
    try:
        mine = second()
    except BaseException:
        join()  # the first's work ends (and its error comes first) before the caller goes on
        raise
    return join(), mine


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else
    every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
