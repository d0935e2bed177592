"""Two threads for compiled work that lets go of the GIL.

The compiled reader (:func:`mrkit.features.triples.pair_codes_units`) and the kernels of the
coded metrics (SEMA, SemBLEU, WLK, SIMPLE) run without the GIL, so two calls of them on two
halves of a batch run on two cores at once inside one process: no fork, no pipe, no copy.
:func:`both` runs one call on a second thread while this thread runs the other.

Built on :mod:`_thread` (part of the interpreter, already loaded) rather than
:mod:`threading`, whose import costs more than a small corpus takes to score (start-up,
issue 14).  Who may use a second thread is the executor's decision
(:attr:`mrkit.runtime.executor.SerialExecutor.threads`): the automatic one (``-j 0``) when
the load average leaves a core free, never ``-j 1``.
"""

from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def both(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[Any, Any]:
    """``(first(), second())``, ``first`` on a new thread while this one runs ``second``;
    an exception of either is raised here, ``first``'s before ``second``'s (as if they had
    run one after the other), after both have ended."""
    done, started = _thread.allocate_lock(), _thread.allocate_lock()
    done.acquire()
    started.acquire()
    box: list = [None, None]  # result, exception

    def run() -> None:
        started.release()
        try:
            box[0] = first()
        except BaseException as exc:  # handed to the caller below
            box[1] = exc
        finally:
            done.release()

    _thread.start_new_thread(run, ())
    # wait until the new thread runs: it holds the GIL then until its compiled call lets go
    # of it (else this thread, running Python, could keep the GIL for up to the switch
    # interval, 5 ms, and the new one start late)
    started.acquire()
    try:
        mine = second()
    except BaseException:
        done.acquire()  # the first's work ends before the caller goes on
        if box[1] is not None:
            raise box[1] from None
        raise
    done.acquire()
    if box[1] is not None:
        raise box[1]
    return box[0], mine
