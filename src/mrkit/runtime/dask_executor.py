"""The Dask backend: tasks run on a ``dask.distributed`` cluster (``--executor dask``).

:class:`DaskExecutor` has the ``map`` of every executor (:mod:`mrkit.runtime.executor`):
tasks (chunks of raw text or of small items, never one pickled graph per pair) are
submitted to the cluster's scheduler with at most ``2 x workers`` in flight, and the
results (a few numbers per pair) come back in input order, so the caller merges them
exactly as from one process: every number equals the serial run, whatever the number of
workers or the chunk size.

The cluster is one of

- a ``distributed.Client`` the caller made (Python API; never closed here);
- an existing scheduler at ``scheduler`` (``--scheduler tcp://host:8786``: a cluster of
  ``dask-jobqueue``, ``dask-scheduler`` + ``dask-worker``, ...);
- a ``LocalCluster`` of ``workers`` single-threaded worker processes started on enter and
  closed on exit (``--executor dask -j N``).

A worker lost mid-run (killed, out of memory, its node gone) loses only the tasks it held:
the scheduler runs them again on another worker, and since a task is a pure function of
its input, the result does not change.  An error raised by a task (bad input:
:class:`mrkit.errors.InputError`) is not retried: it travels back and is raised here, and
the tasks still in flight are cancelled.

``dask`` is imported on enter, never by ``import mrkit`` or ``mrkit --help``.
"""

from __future__ import annotations

import os

from ..errors import MrkitError

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator

INSTALL = "pip install 'mrkit[dask]'"


def _call(fn: Callable[[Any], Any], task: Any) -> Any:
    """On a worker: ``fn(task)`` with the cyclic garbage collector paused (as every
    executor runs its tasks)."""
    from ..codecs._gc_paused import gc_paused

    with gc_paused():
        return fn(task)


def _distributed():
    try:
        import distributed
    except ImportError:  # the optional extra is not installed
        raise MrkitError(f"--executor dask needs dask.distributed ({INSTALL})") from None
    return distributed


class DaskExecutor:
    """Tasks on a Dask cluster (see the module docstring).

    ``workers``: worker processes of the local cluster started when neither ``client`` nor
    ``scheduler`` is given (0: every core); ``scheduler``: address of a running scheduler;
    ``client``: a ``distributed.Client`` to use (the caller's, left open); ``timeout``:
    seconds to wait for the scheduler."""

    name = "dask"

    def __init__(self, workers: int = 0, scheduler: str | None = None, client: Any = None,
                 timeout: float | None = None) -> None:
        if workers < 0:
            raise MrkitError(f"-j/--workers must be 0 (automatic) or a positive number, not {workers}")
        self._asked = workers
        self.scheduler = scheduler
        self.timeout = timeout
        """Seconds to wait for the scheduler (None: dask's ``distributed.comm.timeouts.connect``)."""
        self.workers = workers if workers > 0 else (os.cpu_count() or 1)
        self._given = client
        self.client = client
        self._owned: list = []  # what __enter__ started and __exit__ closes (client, cluster)
        self._depth = 0
        if client is not None:
            self.workers = self._cluster_threads(client) or self.workers

    @staticmethod
    def _cluster_threads(client) -> int:
        try:
            return int(sum(client.nthreads().values()))
        except Exception:  # a client not connected yet: the caller's number stands
            return 0

    # ------------------------------------------------------------------ lifetime
    def __enter__(self) -> "DaskExecutor":
        self._depth += 1
        if self.client is not None:
            return self
        distributed = _distributed()
        try:
            if self.scheduler:
                timeout = {} if self.timeout is None else {"timeout": self.timeout}
                client = distributed.Client(self.scheduler, set_as_default=False, **timeout)
                self._owned.append(client)
            else:
                cluster = distributed.LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=50)
                self._owned.append(cluster)
                client = distributed.Client(cluster, set_as_default=False)
                self._owned.append(client)
        except (OSError, TimeoutError) as exc:
            self._close()
            where = f"the dask scheduler at {self.scheduler}" if self.scheduler else "a local dask cluster"
            raise MrkitError(f"cannot reach {where}: {' '.join(str(exc).split()) or type(exc).__name__}") from None
        except BaseException:
            self._close()
            raise
        self.client = client
        if self.scheduler:
            self.workers = self._cluster_threads(client) or self.workers
        return self

    def __exit__(self, *exc) -> None:
        self._depth = max(0, self._depth - 1)
        if self._depth == 0:
            self._close()

    def _close(self) -> None:
        owned, self._owned = self._owned, []
        for thing in reversed(owned):  # the client first, then the cluster it talks to
            try:
                thing.close()
            except Exception:  # already gone (a scheduler that died): nothing to keep
                pass
        self.client = self._given

    # ------------------------------------------------------------------ work
    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """``fn`` over ``tasks`` on the cluster, results in input order, at most
        ``2 x workers`` tasks in flight (the input is read as results come back)."""
        if self.client is None:
            with self:
                yield from self.map(fn, tasks)
            return
        client = self.client
        from collections import deque

        window = 2 * max(1, self.workers)
        pending: deque = deque()
        try:
            for task in tasks:
                # pure=False: two equal tasks are two tasks (a key per submission)
                pending.append(client.submit(_call, fn, task, pure=False))
                if len(pending) >= window:
                    yield self._result(pending.popleft())
            while pending:
                yield self._result(pending.popleft())
        finally:
            if pending:  # an error or an early stop: what is still running is not needed
                try:
                    client.cancel(list(pending))
                except Exception:
                    pass

    @staticmethod
    def _result(future) -> Any:
        try:
            return future.result()
        except MrkitError:
            raise
        except Exception as exc:
            if type(exc).__name__ == "KilledWorker":  # the scheduler gave up on one task
                raise MrkitError("dask workers died again and again running one task (out of memory?): "
                                 + " ".join(str(exc).split())) from None
            raise
        finally:
            future.release()
