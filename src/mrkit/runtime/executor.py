"""Executors: how a stream of tasks (chunks of pairs) is run, chosen by the caller.

An executor maps a module-level function over an iterable of tasks and yields the results
in order.  It never reads ahead more than a few tasks per worker, so a stream of pairs
flows through it in bounded memory.  Metrics never choose one: the pipeline (and through
it ``-j`` / ``--executor`` on every command) does.

- :class:`SerialExecutor`: in this process;
- :class:`ProcessExecutor`: worker processes (fork where available), whose workers exit
  quietly on Ctrl-C or when the parent dies (:func:`mrkit.runtime.parallel.new_pool`);
  its :meth:`~ProcessExecutor.map_shared` makes this process one of the workers (on Linux
  without a pool: :mod:`mrkit.runtime.forked`), for streams of many short tasks;
- :class:`ThreadExecutor`: threads of this process (this one among them), for compiled work
  that lets go of the GIL (:func:`mrkit.runtime.threads.shared_map`);
- a distributed backend plugs in as one more class with the same ``map``, and one entry in
  :data:`EXECUTORS`.
"""

from __future__ import annotations

import os
import sys

from ..errors import MrkitError

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator, Protocol
else:
    Protocol = object  # Executor below is a protocol for type checkers, a plain base at run time


class Executor(Protocol):
    """Runs ``fn`` over tasks, in order.  ``workers``: how many run at once."""

    name: str
    workers: int

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]: ...

    def __enter__(self) -> "Executor": ...

    def __exit__(self, *exc) -> None: ...


class SerialExecutor:
    """Every task in this process, one after the other."""

    name = "serial"
    workers = 1
    local = True
    """Tasks may name files of this machine (a pipeline then sends byte ranges, not text)."""

    def __init__(self, threads: int = 1) -> None:
        self.threads = threads
        """1: one thread.  0 (the automatic executor, ``-j 0``): a pipeline may run compiled
        work that lets go of the GIL on a second thread (:mod:`mrkit.runtime.threads`; the
        coded ``score`` path does)."""

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        from ..codecs._gc_paused import gc_paused

        for task in tasks:
            with gc_paused():
                result = fn(task)
            yield result

    def __enter__(self) -> "SerialExecutor":
        return self

    def __exit__(self, *exc) -> None:
        return None


def _call(args: tuple) -> Any:
    from ..codecs._gc_paused import gc_paused

    fn, task = args
    with gc_paused():
        return fn(task)


class ProcessExecutor:
    """Tasks in ``workers`` processes; at most ``2 * workers`` tasks in flight, so the
    input is consumed as results come back.  ``fn`` and the tasks must pickle (``fn``
    a module-level function)."""

    name = "processes"
    local = True

    def __init__(self, workers: int = 0, automatic: bool = False) -> None:
        self.workers = workers if workers > 0 else (os.cpu_count() or 1)
        self.automatic = automatic
        """Chosen by ``--executor auto`` (not asked for by name): :meth:`map_shared` then
        follows a pipeline's preference for threads."""
        self._ctx = None
        self._pool = None
        self._entered = False

    def __enter__(self) -> "ProcessExecutor":
        self._entered = True  # the pool starts with the first map(): see _start
        return self

    def _start(self, processes: int | None = None) -> None:
        """Fork the workers, at the first :meth:`map` rather than on entering: by then the
        caller has imported what its workers need (a pipeline imports its compiled readers
        and scorer before mapping), so every worker shares those modules instead of
        importing them again.  ``processes``: how many (default :attr:`workers`)."""
        from .parallel import new_pool

        self._ctx = new_pool(self.workers if processes is None else processes)
        self._pool = self._ctx.__enter__()

    def __exit__(self, *exc) -> None:
        ctx, self._ctx, self._pool, self._entered = self._ctx, None, None, False
        if ctx is not None:
            ctx.__exit__(*exc)
        forked = sys.modules.get(f"{__package__}.forked")
        if forked is not None:  # workers of map_shared that ended with the map: wait for them now
            forked.reap()

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        if not self._entered:
            with self:
                yield from self.map(fn, tasks)
            return
        if self._pool is None:
            self._start()
        from collections import deque

        window = 2 * self.workers
        pending: deque = deque()
        for task in tasks:
            pending.append(self._pool.apply_async(_call, ((fn, task),)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

    def map_shared(self, fn: Callable[[Any], Any], tasks: Iterable[Any], prefer: str | None = None) -> Iterator[Any]:
        """:meth:`map` with this process as one of the :attr:`workers`: ``workers - 1``
        processes are forked (none with one worker), and between handing them tasks this
        process runs tasks itself instead of waiting for results.  For many short tasks of
        similar size (smatch's chunks of byte ranges), where the parent would otherwise idle
        while its workers compute: ``-j 2`` is this process and one worker.

        Each worker keeps two tasks queued; this process then takes the next task itself,
        so a faster side simply takes more of the stream.  Results come back in task order;
        an exception of a task run here is kept in its place and raised when its turn comes,
        after the results of every earlier task (the first error in task order wins, as
        with :meth:`map`).  Pools are forked at the first call; a pool forked by :meth:`map`
        is used as it is.

        ``prefer="threads"``: the caller's tasks let go of the GIL for nearly all their
        work; an :attr:`automatic` executor then runs them on ``workers`` threads of this
        process instead (:func:`mrkit.runtime.threads.shared_map`: no fork, no pipes, no
        second copy of the heap), as scikit-learn's ``prefer`` does.  ``--executor
        processes`` keeps processes."""
        if prefer == "threads" and self.automatic and self.workers > 1:
            from .threads import shared_map as threads_map

            yield from threads_map(fn, tasks, self.workers)
            return
        if not self._entered:
            with self:
                yield from self.map_shared(fn, tasks)
            return
        if self.workers <= 1:
            yield from SerialExecutor().map(fn, tasks)
            return
        if self._pool is None and forked_available():  # no pool at all: see mrkit.runtime.forked
            from .forked import shared_map

            yield from shared_map(fn, tasks, self.workers)
            return
        if self._pool is None:
            self._start(self.workers - 1)
        from collections import deque

        from ..codecs._gc_paused import gc_paused

        window = 2 * (self.workers - 1)
        pending: deque = deque()  # in task order: AsyncResult, or (value, exception) run here
        in_flight = 0
        it = iter(tasks)
        more = True
        failed: list[BaseException] = []  # an error of the stream: raised after every earlier task

        def draw():
            nonlocal more
            try:
                return next(it)
            except StopIteration:
                pass
            except Exception as exc:
                failed.append(exc)
            more = False
            return _END

        while more or pending:
            while more and in_flight < window:
                task = draw()
                if task is _END:
                    break
                pending.append(self._pool.apply_async(_call, ((fn, task),)))
                in_flight += 1
            if more:
                task = draw()
                if task is not _END:
                    try:
                        with gc_paused():
                            pending.append((fn(task), None))
                    except Exception as exc:  # its turn comes after every earlier task's
                        pending.append((None, exc))
            while pending and (type(pending[0]) is tuple or not more or pending[0].ready()):
                head = pending.popleft()
                if type(head) is not tuple:
                    in_flight -= 1
                    yield head.get()
                elif head[1] is not None:
                    raise head[1]
                else:
                    yield head[0]
                if more and in_flight < window:
                    break  # hand the workers more before taking on the next task here
        if failed:
            raise failed[0]


_END = object()


class ThreadExecutor:
    """Tasks on ``workers`` threads of this process, this one among them
    (:func:`mrkit.runtime.threads.shared_map`; results in task order, errors as in a serial
    run).  Two threads run at once only where the tasks' work lets go of the GIL (the
    compiled smatch path does); Python work runs one thread at a time."""

    name = "threads"
    local = True

    def __init__(self, workers: int = 0) -> None:
        from .threads import cores

        self.workers = workers if workers > 0 else cores()

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        from .threads import shared_map

        return shared_map(fn, tasks, self.workers)

    def map_shared(self, fn: Callable[[Any], Any], tasks: Iterable[Any], prefer: str | None = None) -> Iterator[Any]:
        """:meth:`map` (this thread is one of the workers already)."""
        return self.map(fn, tasks)

    def __enter__(self) -> "ThreadExecutor":
        return self

    def __exit__(self, *exc) -> None:
        return None


def thread_workers(executor) -> int:
    """How many threads ``executor.map_shared(fn, tasks, prefer="threads")`` runs: its
    :attr:`~ThreadExecutor.workers` for a :class:`ThreadExecutor` or an automatic
    :class:`ProcessExecutor` of two workers or more, else 0 (no threads: this process alone,
    forked processes, a cluster)."""
    if isinstance(executor, ThreadExecutor):
        return executor.workers
    if isinstance(executor, ProcessExecutor) and executor.automatic and executor.workers > 1:
        return executor.workers
    return 0


def forked_available() -> bool:
    from .forked import available

    return available() and not os.environ.get("MRKIT_SHARE_POOL")


def free_cores() -> float:
    """Cores the one-minute load average leaves beside this process (``cores - load``); 0 on
    a single core, infinite where there is no load average (Windows: the caller trusts the
    input's size).  The automatic choices of the pipelines ask how much they need
    (:func:`mrkit.pipeline.amr.cores_free`)."""
    cores = os.cpu_count() or 1
    if cores <= 1:
        return 0.0
    try:
        return cores - os.getloadavg()[0]
    except (AttributeError, OSError):
        return float("inf")


PARALLEL_MIN_PAIRS = 1000
"""With ``-j 0`` (automatic), corpora of pairs that need an alignment search (MRP, the
aligning sentence metrics) run in worker processes from this many pairs on; below it, on a
busy 2-core machine, workers were slower than one process (wsj EDS 89 pairs 1.4 s with
-j 1, 2.0-3.0 s with -j 2; lpps 500 pairs 2.8 s vs 4.9 s).  Smatch on files decides by the
gold file's size instead (:data:`mrkit.pipeline.amr.PARALLEL_MIN_BYTES`)."""

KINDS = ("auto", "serial", "threads", "processes", "dask")
"""``--executor`` choices: ``auto`` and the keys of :data:`EXECUTORS`."""


def __getattr__(name: str):
    # the Dask executor's module loads when a run asks for it (start-up, issue 14; dask
    # itself loads only when a cluster starts)
    if name in ("DaskExecutor", "EXECUTORS"):
        from .dask_executor import DaskExecutor

        globals()["DaskExecutor"] = DaskExecutor
        globals()["EXECUTORS"] = {"serial": SerialExecutor, "threads": ThreadExecutor, "processes": ProcessExecutor,
                                  "dask": DaskExecutor}
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_executor(kind: str = "auto", workers: int = 0, *, parallel_worth_it: bool = False,
                  scheduler: str | None = None, client: Any = None) -> Executor:
    """The executor the caller asked for.

    ``kind``: ``serial``, ``threads``, ``processes`` or ``auto``; ``workers``: processes or
    threads (0 = every core).  ``auto`` with ``workers`` 0 runs serially unless the caller
    knows the input is large enough for workers to pay (``parallel_worth_it``): the default
    is never slower than one worker.  ``auto`` with ``workers`` 1 is serial, with more it is
    processes, or threads where the pipeline's tasks let go of the GIL (``prefer`` of
    :meth:`ProcessExecutor.map_shared`: smatch's compiled path).
    ``dask``: a Dask cluster (:class:`~mrkit.runtime.dask_executor.DaskExecutor`): the one at
    ``scheduler`` (an address), the caller's ``client``, or a local cluster of ``workers``
    processes; ``auto`` with a ``scheduler`` or a ``client`` is ``dask``.
    """
    if workers < 0:
        raise MrkitError(f"-j/--workers must be 0 (automatic) or a positive number, not {workers}")
    if kind not in KINDS:
        raise MrkitError(f"unknown executor {kind!r} (one of {', '.join(KINDS)})")
    if (scheduler or client is not None) and kind not in ("auto", "dask"):
        raise MrkitError(f"--scheduler is an address of a dask cluster: it needs --executor dask, not {kind}")
    if kind == "dask" or (kind == "auto" and (scheduler or client is not None)):
        from .dask_executor import DaskExecutor

        return DaskExecutor(workers, scheduler=scheduler, client=client)
    if kind == "auto":
        single = (os.cpu_count() or 1) == 1
        if workers == 0 and not parallel_worth_it and not single:
            return SerialExecutor(threads=0)
        if workers == 1 or (workers == 0 and (not parallel_worth_it or single)):
            return SerialExecutor()
        return ProcessExecutor(workers, automatic=True)
    if kind == "serial":
        return SerialExecutor()
    if kind == "threads":
        return ThreadExecutor(workers)
    return ProcessExecutor(workers)
