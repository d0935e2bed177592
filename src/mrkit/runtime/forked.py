"""A stream of tasks shared by this process and workers forked for it, with no pool.

:func:`shared_map` is :meth:`mrkit.runtime.executor.ProcessExecutor.map_shared` where
``os.fork`` exists (Linux).  It is made for many short tasks of about the same size
(smatch's chunks of byte ranges, ~5-100 ms each), where a process pool's own costs are a
large share of the run: importing ``multiprocessing.pool`` (~30-40 ms of CPU), starting
its workers and threads (~20 ms before the first task runs), a round trip of every task
through its threads, and shutting it down.  Here:

- ``workers - 1`` processes are forked when the map starts; this process is the last one.
  Each forked worker already holds ``fn`` and the not-yet-started ``tasks`` iterator (a
  copy), so no task travels between processes: every process draws the same stream
  itself (the stream must be deterministic and open its files only when drawn; drawing
  it twice costs what making the tasks costs, for smatch the cutting of the files in C).
- Which process runs task *n* is decided by a shared counter (an anonymous shared page,
  guarded by a one-byte token in a pipe): a process that is free claims the next index,
  so a faster process simply runs more tasks, and no process waits for another's queue.
- A worker sends each result back through its own pipe (length + pickle), and this
  process yields results in task order, running tasks itself while it waits.
- Errors come out as in a serial run: an exception of task *n* (run here or in a
  worker) is raised when every earlier task's result has been yielded, and so is an
  exception of the stream itself.  A worker that dies without its result is an error
  (:class:`~mrkit.errors.MrkitError`), never a hang.
- Workers ignore Ctrl-C (this process handles it and kills them), leave with
  ``os._exit`` (no ``atexit``, no flush of this process's buffers), and stop when this
  process is gone (their pipe breaks, or ``getppid`` changes).  Leaving the map early
  (an error, a consumer that stops) kills them.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable, Iterator

from ..errors import MrkitError

AHEAD = 64
"""Results this process keeps while it waits for an earlier one from a worker; beyond
that it stops taking tasks and waits (bounded memory if a worker stalls)."""

PIPE_BYTES = 1 << 20
"""Pipe buffer asked for each worker's results (Linux ``F_SETPIPE_SZ``; the default
64 KB holds about one chunk of smatch results, and a worker whose pipe is full waits)."""

_LEN = 8


def available() -> bool:
    """Whether this platform forks (Linux): elsewhere the pool's way is taken."""
    import sys

    return hasattr(os, "fork") and sys.platform.startswith("linux")


class _Token:
    """The counter of claimed task indices, shared by every process of the map."""

    def __init__(self) -> None:
        import mmap

        self.page = mmap.mmap(-1, 8)  # anonymous and shared: forked workers see the same bytes
        self.r, self.w = os.pipe()
        os.write(self.w, b"\0")  # the one token: whoever holds it may move the counter

    def claim(self, alive: Callable[[], bool] | None = None) -> int:
        """The next task index (each index is claimed once, by one process).  ``alive``:
        asked every second while the token is away; ``False`` ends the wait with
        ``SystemExit`` (a worker whose parent died holding the token)."""
        if alive is not None:
            import select

            while not select.select([self.r], [], [], 1.0)[0]:
                if not alive():
                    raise SystemExit(0)
        os.read(self.r, 1)
        try:
            n = int.from_bytes(self.page[:8], "little")
            self.page[:8] = (n + 1).to_bytes(8, "little")
        finally:
            os.write(self.w, b"\0")
        return n

    def claimed(self) -> int:
        return int.from_bytes(self.page[:8], "little")

    def close(self) -> None:
        for fd in (self.r, self.w):
            try:
                os.close(fd)
            except OSError:
                pass
        self.page.close()


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


def _work(fn: Callable[[Any], Any], tasks: Iterator[Any], token: _Token, out: int, parent: int) -> None:
    """A forked worker: claim an index, draw the stream up to it, run that task, send the
    result; until the stream ends, a task fails, or the parent is gone.  Never returns."""
    try:
        import pickle
        import signal

        from ..codecs._files import gc_paused

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle

        def alive() -> bool:
            return os.getppid() == parent

        index = 0
        n = token.claim(alive)
        for task in tasks:  # an error of the stream itself: the parent meets it too
            if index == n:
                failed = None
                try:
                    with gc_paused():
                        msg = (n, fn(task), None)
                except Exception as exc:
                    failed = exc
                    msg = (n, None, exc)
                try:
                    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception as exc:  # an exception (or result) that does not pickle
                    data = pickle.dumps((n, None, MrkitError(f"worker: {failed or exc!r}")))
                    failed = failed or exc
                _write_all(out, len(data).to_bytes(_LEN, "little") + data)
                if failed is not None or not alive():
                    break
                n = token.claim(alive)
            index += 1
    except BaseException:  # a broken pipe (the parent is gone), anything: leave quietly
        pass
    finally:
        os._exit(0)


class _Worker:
    __slots__ = ("pid", "fd", "buf", "done")

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd, self.buf, self.done = pid, fd, bytearray(), False


def shared_map(fn: Callable[[Any], Any], tasks: Iterable[Any], workers: int) -> Iterator[Any]:
    """``fn`` of every task, in order, run by this process and ``workers - 1`` forked ones
    (see the module docstring).  ``tasks``: an iterable whose iteration has not started
    (a generator not yet drawn, a list)."""
    import pickle
    import select

    from ..codecs._files import gc_paused

    token = _Token()
    procs: list[_Worker] = []
    parent = os.getpid()
    try:
        for _ in range(max(0, workers - 1)):
            r, w = os.pipe()
            _grow(w)
            pid = os.fork()
            if pid == 0:  # the worker: close what is the parent's, then work
                os.close(r)
                for p in procs:
                    os.close(p.fd)
                _work(fn, iter(tasks), token, w, parent)
            os.close(w)
            procs.append(_Worker(pid, r))
        it = iter(tasks)
        results: dict[int, tuple] = {}  # index -> (value, exception)
        nxt = 0      # the next index to yield
        drawn = 0    # tasks this process has drawn from its copy of the stream
        end = None   # the number of tasks, once this process has drawn them all
        stream_error: BaseException | None = None

        def receive(timeout: float | None) -> None:
            live = [p for p in procs if not p.done]
            if not live:
                return
            ready, _, _ = select.select([p.fd for p in live], [], [], timeout)
            for p in live:
                if p.fd not in ready:
                    continue
                chunk = os.read(p.fd, 1 << 20)
                if not chunk:  # the worker has left
                    p.done = True
                    os.waitpid(p.pid, 0)
                    p.pid = 0
                    if p.buf:
                        raise MrkitError("a worker process stopped in the middle of sending its results")
                    continue
                p.buf += chunk
                while len(p.buf) >= _LEN:
                    size = int.from_bytes(p.buf[:_LEN], "little")
                    if len(p.buf) < _LEN + size:
                        break
                    n, value, exc = pickle.loads(p.buf[_LEN:_LEN + size])
                    del p.buf[:_LEN + size]
                    results[n] = (value, exc)

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
            if end is None and len(results) < AHEAD:
                n = token.claim()
                task = None
                while drawn <= n:
                    try:
                        task = next(it)
                    except StopIteration:
                        end = drawn
                        break
                    except Exception as exc:  # raised in its turn, after every earlier result
                        end, stream_error = drawn, exc
                        break
                    drawn += 1
                if end is None or n < end:
                    try:
                        with gc_paused():
                            results[n] = (fn(task), None)
                    except Exception as exc:
                        results[n] = (None, exc)
                continue
            # nothing to do here: the next result is a worker's
            if all(p.done for p in procs):
                raise MrkitError(f"a worker process stopped without the results of task {nxt + 1} "
                                 "(killed, or out of memory?)")
            receive(1.0)
    finally:
        for p in procs:
            if not p.done:
                try:
                    os.kill(p.pid, 9)
                except OSError:
                    pass
                try:
                    os.waitpid(p.pid, 0)
                except OSError:
                    pass
            try:
                os.close(p.fd)
            except OSError:
                pass
        token.close()
