"""A stream of tasks shared by this process and workers forked for it, with no pool.

:func:`shared_map` is :meth:`mrkit.runtime.executor.ProcessExecutor.map_shared` where
``os.fork`` exists (Linux).  It is made for many short tasks of about the same size
(smatch's chunks of byte ranges, ~5-100 ms each), where a process pool's own costs are a
large share of the run: importing ``multiprocessing.pool`` (~30-40 ms of CPU), starting
its workers and threads (~20 ms before the first task runs), a round trip of every task
through its threads, and shutting it down.  Here:

- ``workers - 1`` processes are forked when the map starts; this process is the last one.
  Each forked worker already holds ``fn`` (and every module imported so far) and its first
  task, drawn before the fork (:data:`FIRST_BEFORE_FORK`).  No worker is forked for a
  stream that ends (or fails) at its first draw.
- Only this process draws the stream (for smatch: cuts the two files, once).  Each worker
  has a pipe of tasks and a pipe of results; this process keeps :data:`QUEUED` tasks
  (serialised by :func:`_dumps`, length-prefixed) in each worker's pipe and runs the next task itself, so a
  faster process simply runs more tasks and no task is drawn twice.  A stream with a
  ``here()`` method gives this process's own tasks through it (smatch: small chunks, so
  that between them this process keeps the worker's pipe full; the worker's come from
  iteration, large), and the workers' through iteration.  (Session 26 let every
  process draw the whole stream itself: with two processes the files were cut twice, ~15%
  of the CPU of a run of 25,000 Little Prince pairs.)
- A worker sends each result back through its pipe (length + :func:`_dumps`), and this process
  yields results in task order, running tasks itself while it waits.  A task that does
  not pickle is run here.
- No idle tail: once the stream has ended, this process takes back the tasks still
  queued to a worker, the last first (a worker runs its tasks in order; the one it runs now
  is left to it), and runs them itself; the worker's current task too when its result has
  not come after twice the time this process's last task took (a worker kept off its core
  by other jobs).  The worker's result for such a task, if it comes, is dropped (tasks must
  not depend on where they run: smatch's do not).  A worker still busy with one when the
  map ends is killed.  (Session 28: with three chunks queued, this
  process waited 5-15 ms for the worker's last ones on 25,000 Little Prince pairs.)
- Errors come out as in a serial run: an exception of task *n* (run here or in a
  worker) is raised when every earlier task's result has been yielded, and so is an
  exception of the stream itself; once a task has failed no later one is handed out.  A
  worker that dies without its results is an error (:class:`~mrkit.errors.MrkitError`),
  never a hang.
- Workers ignore Ctrl-C (this process handles it and kills them), leave with
  ``os._exit`` (no ``atexit``, no flush of this process's buffers), and stop when this
  process is gone (their task pipe ends).  Leaving the map early (an error, a consumer
  that stops) kills them.
"""

from __future__ import annotations

import os
TYPE_CHECKING = False  # typing is not loaded at run time (~3 ms before the fork, issue 14)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator

from ..errors import MrkitError

AHEAD = 64
"""Results this process keeps while it waits for an earlier one from a worker; beyond
that it stops taking tasks and waits (bounded memory if a worker stalls)."""

QUEUED = 3
"""Tasks handed to each worker and not yet answered: one it runs, two waiting in its pipe,
so that it does not wait while this process runs a task of its own (which, for smatch,
comes after cutting the workers' chunks and merging their results: with two queued, a
worker on 250,000 Little Prince pairs waited 0.54 s of its 2.3 s, with three 0.12 s; on a
loaded machine)."""

PIPE_BYTES = 1 << 20
"""Pipe buffer asked for each pipe (Linux ``F_SETPIPE_SZ``; the default 64 KB holds about
one chunk of smatch results).  Tasks are written without blocking, so a smaller buffer only
costs more wake-ups."""

FIRST_BEFORE_FORK = True
"""Whether each worker's first task is drawn before the fork and held by the worker from
the fork on (session 30: for smatch the first chunk is cut before the fork, so the worker
starts scoring at once instead of 2-5 ms later, when this process -- slowed by the
copy-on-write faults that follow a fork -- has cut it and sent it through the pipe)."""

TAKE_BACK = True
"""Whether this process takes back tasks queued to a worker once the stream has ended (see
the module docstring; tests switch it off)."""

_LEN = 8


def available() -> bool:
    """Whether this platform forks (Linux): elsewhere the pool's way is taken."""
    import sys

    return hasattr(os, "fork") and sys.platform.startswith("linux")


def _grow(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # not Linux, or above the system's limit
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, size: int) -> bytes | None:
    """``size`` bytes of ``fd`` (``None`` at its end)."""
    parts = []
    while size:
        chunk = os.read(fd, min(size, PIPE_BYTES))
        if not chunk:
            return None
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


def _dumps(obj: Any) -> bytes:
    """``obj`` as bytes: :mod:`marshal` when it holds only plain built-in values (smatch's
    tasks and results: ints, strings, bytes, tuples; no module to import, ~2-3 ms of
    start-up for ``pickle``, session 28), else :mod:`pickle`; the first byte tells which.
    Raises when neither can."""
    import marshal

    try:
        return b"m" + marshal.dumps(obj)
    except ValueError:  # an object marshal does not keep exactly (a class instance, a subclass)
        import pickle

        return b"p" + pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(data: bytes | bytearray | memoryview) -> Any:
    """The object of :func:`_dumps`'s bytes."""
    import marshal

    view = memoryview(data)
    if view[:1] == b"m":
        return marshal.loads(view[1:])
    import pickle

    return pickle.loads(view[1:])


def _work(fn: Callable[[Any], Any], tasks: int, out: int, first: tuple | None = None) -> None:
    """A forked worker: read a task (index, task) from ``tasks``, run it, send (index, result,
    exception) to ``out``; until the task pipe ends (this process is done or gone) or a task
    fails.  ``first``: a task (index, task) to run before reading any (drawn before the fork:
    no round trip through the pipe for the first one).  Never returns."""
    try:
        try:  # the C module: `signal` builds its enums first (~1-2 ms before the first task)
            import _signal as signal
        except ImportError:
            import signal

        from ..codecs._gc_paused import gc_paused

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        while True:
            if first is not None:
                (n, task), first = first, None
            else:
                head = _read_exact(tasks, _LEN)
                data = None if head is None else _read_exact(tasks, int.from_bytes(head, "little"))
                if data is None:
                    break
                n, task = _loads(data)
            failed = None
            try:
                with gc_paused():
                    msg = (n, fn(task), None)
            except Exception as exc:
                failed = exc
                msg = (n, None, exc)
            try:
                data = _dumps(msg)
            except Exception as exc:  # an exception (or result) that does not pickle
                data = _dumps((n, None, MrkitError(f"worker: {failed or exc!r}")))
                failed = failed or exc
            _write_all(out, len(data).to_bytes(_LEN, "little") + data)
            if failed is not None:
                break
    except BaseException:  # a broken pipe (the parent is gone), anything: leave quietly
        pass
    finally:
        os._exit(0)


class _Worker:
    """This process's side of a worker: its pid, the read end of its results, the write end
    of its tasks (non-blocking), the task bytes not yet written, the indices handed to it and
    not yet answered, and the bytes of a result not yet whole."""

    __slots__ = ("pid", "fd", "tasks", "out", "queued", "buf", "done")
    # queued: index -> task, handed to the worker and not yet answered (this process may
    # take one back: see the module docstring)

    def __init__(self, pid: int, fd: int, tasks: int) -> None:
        self.pid, self.fd, self.tasks = pid, fd, tasks
        self.out, self.queued, self.buf, self.done = bytearray(), {}, bytearray(), False

    def flush(self) -> None:
        """Write what the task pipe takes now of the pending task bytes."""
        while self.out:
            try:
                sent = os.write(self.tasks, self.out)
            except BlockingIOError:
                return
            except OSError:  # the worker has left: its results pipe tells the rest
                self.out.clear()
                return
            del self.out[:sent]


def _fork_workers(fn: Callable[[Any], Any], count: int, firsts: list | None = None) -> list[_Worker]:
    """``count`` forked workers; ``firsts``: the first task (index, task) of each, in order,
    as many as were drawn (each worker holds its own from the fork on)."""
    procs: list[_Worker] = []
    firsts = firsts or []
    try:
        for i in range(count):
            first = firsts[i] if i < len(firsts) else None
            tr, tw = os.pipe()  # tasks: this process -> the worker
            rr, rw = os.pipe()  # results: the worker -> this process
            _grow(tw)
            _grow(rw)
            pid = os.fork()
            if pid == 0:  # the worker: close what is the parent's (and its siblings'), then work
                os.close(tw)
                os.close(rr)
                for p in procs:
                    os.close(p.fd)
                    os.close(p.tasks)
                _work(fn, tr, rw, first)
            os.close(tr)
            os.close(rw)
            os.set_blocking(tw, False)
            procs.append(_Worker(pid, rr, tw))
            if first is not None:
                procs[-1].queued[first[0]] = first[1]
    except BaseException:
        _stop(procs)
        raise
    return procs


def _stop(procs: list[_Worker]) -> None:
    """End every worker: one waiting for a task (none of its tasks unanswered) sees its task
    pipe end and leaves by itself; any other is killed.  Neither is waited for here (the
    kernel ends a process of a large memory in a millisecond or more, longer on a busy
    machine, while this process goes on to its result): :func:`reap` waits for them, when
    the executor closes (or at the next map)."""
    for p in procs:
        try:
            os.close(p.tasks)
        except OSError:
            pass
    for p in procs:
        if not p.done:
            if p.queued or p.out:
                try:
                    os.kill(p.pid, 9)
                except OSError:
                    pass
            _leave(p.pid)
            p.done = True
        try:
            os.close(p.fd)
        except OSError:
            pass


_UNREAPED: list[int] = []
"""Workers :func:`_stop` ended and nobody has waited for yet."""


def _leave(pid: int) -> None:
    try:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
    except OSError:  # not our child (any more)
        return
    _UNREAPED.append(pid)  # no atexit handler (it would keep the console from skipping the
    # interpreter's teardown, cli.console): a child left at exit is the init process's to reap


def reap(patience: float = 1.0) -> None:
    """Wait for the workers :func:`_stop` ended: a worker left to leave by itself that is
    still there after ``patience`` seconds is killed."""
    import time

    if not _UNREAPED:
        return
    deadline = time.monotonic() + patience
    while _UNREAPED:
        pid = _UNREAPED[-1]
        try:
            done = os.waitpid(pid, os.WNOHANG)[0]
            if not done and time.monotonic() >= deadline:
                os.kill(pid, 9)
                done = os.waitpid(pid, 0)[0]
        except OSError:
            done = True
        if done:
            _UNREAPED.pop()
        else:
            time.sleep(0.0005)


def shared_map(fn: Callable[[Any], Any], tasks: Iterable[Any], workers: int) -> Iterator[Any]:
    """``fn`` of every task, in order, run by this process and ``workers - 1`` forked ones
    (see the module docstring).  ``tasks``: any iterable (drawn here only, once); tasks
    and results travel through :func:`_dumps` (marshal, else pickle)."""
    import select
    from time import perf_counter

    from ..codecs._gc_paused import gc_paused

    reap()  # workers of an earlier map, if nobody waited for them
    procs: list[_Worker] = []
    try:
        it = iter(tasks)
        here = getattr(tasks, "here", None)  # the stream's own size of a task for this process
        results: dict[int, tuple] = {}  # index -> (value, exception)
        nxt = 0      # the next index to yield
        drawn = 0    # tasks drawn from the stream
        end = None   # the number of tasks, once the stream has ended (or failed)
        stream_error: BaseException | None = None
        failed_at = None  # the first index known to have failed: nothing after it is handed out
        taken: set[int] = set()  # tasks queued to a worker that this process took back
        last_run = 0.0  # seconds this process took for its last task

        def draw(mine: bool = False):
            nonlocal drawn, end, stream_error
            if end is not None or failed_at is not None:
                return None
            try:
                task = here() if mine and here is not None else next(it)
            except StopIteration:
                end = drawn
                return None
            except Exception as exc:  # raised in its turn, after every earlier result
                end, stream_error = drawn, exc
                return None
            drawn += 1
            return (drawn - 1, task)

        def run_here(n: int, task: Any) -> None:
            nonlocal failed_at, last_run
            began = perf_counter()
            try:
                with gc_paused():
                    results[n] = (fn(task), None)
            except Exception as exc:
                results[n] = (None, exc)
                failed_at = n if failed_at is None else min(failed_at, n)
            last_run = perf_counter() - began

        def take_back() -> bool:
            """Run here the last task queued to a worker and not yet answered, but not the
            first (the one the worker runs now); False when there is none."""
            best, task = -1, None
            for p in procs:
                if p.done:
                    continue
                waiting = sorted(i for i in p.queued if i not in results and i not in taken)
                for i in waiting[1:] if waiting and min(p.queued) == waiting[0] else waiting:
                    if i > best and (failed_at is None or i < failed_at):
                        best, task = i, p.queued[i]
            if best < 0:
                return False
            taken.add(best)
            run_here(best, task)
            return True

        def feed() -> None:
            """Hand every worker tasks until :data:`QUEUED` are its."""
            for p in procs:
                while not p.done and len(p.queued) < QUEUED:
                    got = draw()
                    if got is None:
                        return
                    try:
                        data = _dumps(got)
                    except Exception:  # a task that does not pickle: run here, as this process's turn
                        run_here(*got)
                        return
                    p.out += len(data).to_bytes(_LEN, "little") + data
                    p.queued[got[0]] = got[1]
                    p.flush()

        def receive(timeout: float | None) -> None:
            nonlocal failed_at
            live = [p for p in procs if not p.done]
            if not live:
                return
            writing = [p.tasks for p in live if p.out]
            ready, can_write, _ = select.select([p.fd for p in live], writing, [], timeout)
            for p in live:
                if p.tasks in can_write:
                    p.flush()
                if p.fd not in ready:
                    continue
                chunk = os.read(p.fd, PIPE_BYTES)
                if not chunk:  # the worker has left (after its first failing task, or killed)
                    p.done = True
                    os.waitpid(p.pid, 0)
                    p.pid = 0
                    lost = [i for i in p.queued if i >= nxt and i not in results and (failed_at is None or i < failed_at)]
                    p.queued.clear()  # tasks after the first error are not needed
                    if p.buf or lost:
                        first = min(lost) if lost else nxt
                        raise MrkitError(f"a worker process stopped without the results of task {first + 1} "
                                         "(killed, or out of memory?)")
                    continue
                p.buf += chunk
                while len(p.buf) >= _LEN:
                    size = int.from_bytes(p.buf[:_LEN], "little")
                    if len(p.buf) < _LEN + size:
                        break
                    n, value, exc = _loads(p.buf[_LEN:_LEN + size])
                    del p.buf[:_LEN + size]
                    p.queued.pop(n, None)
                    if n < nxt or n in results:  # a task this process took back and ran already
                        continue
                    results[n] = (value, exc)
                    if exc is not None:
                        failed_at = n if failed_at is None else min(failed_at, n)

        # each worker's first task is drawn before the fork: it starts on it at once
        firsts = []
        for _ in range(max(0, workers - 1) if FIRST_BEFORE_FORK else 0):
            got = draw()
            if got is None:
                break
            try:  # a task that does not pickle is this process's, as in feed()
                _dumps(got)
            except Exception:
                run_here(*got)
                break
            firsts.append(got)
        if firsts or end is None:  # no fork for a stream that ended (or failed) at once
            procs[:] = _fork_workers(fn, max(0, workers - 1), firsts)
        while True:
            while nxt in results:
                value, exc = results.pop(nxt)
                if exc is not None:
                    raise exc
                yield value
                nxt += 1
            if end is not None and nxt >= end:
                if stream_error is not None:
                    raise stream_error
                return
            receive(0)
            if nxt in results:
                continue
            feed()
            if len(results) < AHEAD:
                got = draw(True)
                if got is not None:
                    run_here(*got)
                    continue
            # nothing to do here: the next result is a worker's (or the stream has just ended)
            if nxt in results or (end is not None and nxt >= end):
                continue
            if TAKE_BACK and (end is not None or failed_at is not None) and take_back():
                continue
            if not any(p.queued for p in procs):
                raise MrkitError(f"a worker process stopped without the results of task {nxt + 1} "
                                 "(killed, or out of memory?)")
            if TAKE_BACK and end is not None and nxt not in taken and any(nxt in p.queued for p in procs):
                # the stream has ended and the next result is a worker's current task: wait
                # about twice as long as this process's last task took, then run it here too
                # (a worker that other jobs keep off its core does not hold the end back)
                receive(max(0.001, 2 * last_run))
                if nxt not in results and any(nxt in p.queued for p in procs):
                    q = next(p for p in procs if nxt in p.queued)
                    taken.add(nxt)
                    run_here(nxt, q.queued[nxt])
                continue
            receive(1.0)
    finally:
        _stop(procs)
