"""Threads for compiled work that lets go of the GIL.

The compiled reader (:func:`mrkit.features.triples.pair_codes_units`), the kernels of the
coded metrics (SEMA, SemBLEU, WLK, SIMPLE) and Smatch's chunk calls (``code_pairs_units``,
``smatch_stages``) run without the GIL, so calls of them on two threads run on two cores at
once inside one process: no fork, no pipe, no copy.  :func:`both` runs one call on a second
thread while this thread runs the other; :class:`SharedMap` runs a stream of tasks on
several threads (``mrkit smatch -j 2``).

Built on :mod:`_thread` (part of the interpreter, already loaded) and :mod:`_queue` rather
than :mod:`threading`, whose import costs more than a small corpus takes to score
(start-up, issue 14).  Who may use threads is the executor's decision: the automatic
:class:`~mrkit.runtime.executor.SerialExecutor` (``-j 0``) for a second thread of the coded
``score`` path (:attr:`~mrkit.runtime.executor.SerialExecutor.threads`), a
:class:`~mrkit.runtime.executor.ThreadExecutor`, or an automatic
:class:`~mrkit.runtime.executor.ProcessExecutor` asked to prefer threads; never ``-j 1``.
"""

from __future__ import annotations

import _thread
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator


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


AHEAD = 64
"""Results :func:`shared_map` keeps while this thread waits for an earlier one from another
thread; beyond that it stops taking tasks and waits (bounded memory if a thread stalls)."""


def shared_map(fn: Callable[[Any], Any], tasks: Iterable[Any], workers: int) -> Iterator[Any]:
    """``fn`` over ``tasks`` on ``workers`` threads of this process, this one among them;
    results in task order (:class:`SharedMap` started now)."""
    return SharedMap(fn, tasks, workers).start().results()


class SharedMap:
    """``fn`` over ``tasks`` on ``workers`` threads of this process, this one among them;
    results in task order.  For tasks whose work lets go of the GIL (smatch's chunks of
    byte ranges on the compiled path: coding and scoring run without it), where threads
    share one process's memory, files and imported modules instead of forking.

    - :meth:`start` starts ``workers - 1`` threads; each draws its next task from the
      stream itself, under a lock (each task is drawn once; a faster thread simply runs
      more of them).  :meth:`results` makes this thread one of the workers and yields the
      results in order.  Between the two the other threads already work (``mrkit smatch``
      starts them from the command line while the command loads: :func:`mrkit.pipeline.amr.smatch_ahead`).
    - Errors come out as in a serial run: an exception of task *n*, or of the stream at
      its *n*-th draw, is raised once every earlier task's result has been yielded; once
      one has happened no later task is drawn.  Ctrl-C (in this thread) is raised at once.
    - Leaving :meth:`results` early (an error, a consumer that stops, Ctrl-C), or
      :meth:`close` of a map whose results nobody takes, lets every other thread finish
      the task it runs and end, and returns once they have.
    - The cyclic garbage collector is paused while the other threads run (their tasks
      allocate many small objects, and the collector is one for all threads).
    """

    def __init__(self, fn: Callable[[Any], Any], tasks: Iterable[Any], workers: int) -> None:
        from _queue import SimpleQueue

        self.fn, self.it, self.workers = fn, iter(tasks), workers
        self.draw = _thread.allocate_lock()
        self.done: dict = {}  # task number -> (result, exception)
        self.news = SimpleQueue()  # 0 each time another thread has finished a task, None when it ends
        self.drawn = 0  # tasks drawn so far
        self.over = False  # no more to draw (the end, an error, leaving)
        self.others = 0  # other threads still running
        self._paused = None

    def _run_one(self, errors: type) -> bool:
        """Draw one task and run it on this thread; False when there is none left.  The
        ``errors`` of the stream or the task are kept in the task's place."""
        with self.draw:
            if self.over:
                return False
            k = self.drawn
            try:
                task = next(self.it)
            except StopIteration:
                self.over = True
                return False
            except errors as exc:
                self.over = True
                self.done[k] = (None, exc)
                return False
            self.drawn = k + 1
        try:
            self.done[k] = (self.fn(task), None)
        except errors as exc:
            self.over = True
            self.done[k] = (None, exc)
        return True

    def _work(self) -> None:
        try:
            while self._run_one(BaseException):
                self.news.put(0)
        finally:
            self.news.put(None)

    def start(self) -> "SharedMap":
        from ..codecs._gc_paused import gc_paused

        if self._paused is None:
            self._paused = gc_paused()
            self._paused.__enter__()
        for _ in range(max(0, self.workers - 1)):
            start(self._work, wait=False)
            self.others += 1
        return self

    def results(self) -> Iterator[Any]:
        done, out = self.done, 0  # the next result to yield
        try:
            while True:
                while out in done:  # every result ready, in order
                    value, exc = done.pop(out)
                    out += 1
                    if exc is not None:
                        raise exc
                    yield value
                if len(done) < AHEAD and self._run_one(Exception):
                    continue
                if out in done:
                    continue
                if self.over and out == self.drawn:
                    return  # every task drawn has been yielded
                if self.others == 0:  # (cannot be: the task ``out`` runs on another thread)
                    raise RuntimeError("SharedMap: a task's result is missing")
                if self.news.get() is None:  # another thread's result (or its end)
                    self.others -= 1
        finally:
            self.close()

    def close(self) -> None:
        """No more tasks drawn; returns once every other thread has ended."""
        self.over = True
        while self.others:
            if self.news.get() is None:
                self.others -= 1
        if self._paused is not None:
            paused, self._paused = self._paused, None
            paused.__exit__()
