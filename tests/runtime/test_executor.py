"""runtime/executor.py: serial and process executors give the same ordered results, keep a
bounded number of tasks in flight, pass a task's exception to the caller; make_executor's
choices and errors.  And pipeline.stream/chunked over either executor."""

from __future__ import annotations

import os

import pytest

from mrkit.errors import MrkitError
from mrkit.pipeline import chunked, stream
from mrkit.runtime.executor import KINDS, ProcessExecutor, SerialExecutor, ThreadExecutor, make_executor


def square(x: int) -> int:
    return x * x


def pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def fail_on_seven(x: int) -> int:
    if x == 7:
        raise ValueError(f"task {x} failed")
    return x


def squares_of_chunk(chunk: list[int]) -> list[int]:
    return [x * x for x in chunk]


# tests that start worker processes carry the ``subprocess`` marker
PROCESSES = pytest.mark.subprocess
EXECUTOR_MAKERS = [pytest.param(SerialExecutor, id="serial"),
                   pytest.param(lambda: ThreadExecutor(2), id="threads"),
                   pytest.param(lambda: ProcessExecutor(2), id="processes", marks=PROCESSES)]


class CountingTasks:
    """A generator of tasks that counts how many it has handed out."""

    def __init__(self, n: int) -> None:
        self.n, self.yielded = n, 0

    def __iter__(self):
        for i in range(self.n):
            self.yielded += 1
            yield i


@PROCESSES
def test_serial_and_process_executors_give_the_same_ordered_results():
    tasks = list(range(60))
    want = [x * x for x in tasks]
    assert list(SerialExecutor().map(square, tasks)) == want
    with ProcessExecutor(2) as ex:
        assert list(ex.map(square, tasks)) == want
        assert list(ex.map(square, iter(tasks))) == want  # a second map on the same pool
    assert list(ProcessExecutor(2).map(square, tasks)) == want  # map opens and closes its own pool


@PROCESSES
def test_process_executor_runs_tasks_in_other_processes():
    with ProcessExecutor(2) as ex:
        pids = {pid for pid, _ in ex.map(pid_and_square, range(20))}
    assert os.getpid() not in pids


@PROCESSES
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_process_executor_keeps_a_bounded_window_of_tasks_in_flight(workers):
    tasks = CountingTasks(200)
    with ProcessExecutor(workers) as ex:
        results = ex.map(square, tasks)
        assert tasks.yielded == 0  # lazy: nothing is read before the first result is asked for
        first = next(results)
        assert first == 0
        # the window is 2 tasks per worker: the first result comes back after 2 * workers tasks
        assert tasks.yielded == 2 * workers
        second = next(results)
        assert second == 1 and tasks.yielded == 2 * workers + 1
        assert list(results) == [x * x for x in range(2, 200)]
    assert tasks.yielded == 200


def test_serial_executor_reads_one_task_per_result():
    tasks = CountingTasks(10)
    results = SerialExecutor().map(square, tasks)
    assert tasks.yielded == 0
    assert next(results) == 0 and tasks.yielded == 1
    assert next(results) == 1 and tasks.yielded == 2


@pytest.mark.parametrize("make", EXECUTOR_MAKERS)
def test_an_exception_in_a_task_reaches_the_caller(make):
    ex = make()
    got = []
    with pytest.raises(ValueError, match="task 7 failed"):
        with ex:
            for r in ex.map(fail_on_seven, range(20)):
                got.append(r)
    assert got == list(range(7))  # every earlier result, in order, then the failure


@PROCESSES
def test_a_process_executor_can_be_used_again_after_a_failure():
    ex = ProcessExecutor(2)
    with pytest.raises(ValueError):
        list(ex.map(fail_on_seven, range(10)))
    assert list(ex.map(square, range(5))) == [0, 1, 4, 9, 16]


def test_process_executor_workers_default_to_every_core():
    assert ProcessExecutor(0).workers == (os.cpu_count() or 1)
    assert ProcessExecutor(3).workers == 3


# ------------------------------------------------------------------ make_executor

def test_make_executor_choices(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    kinds = lambda *a, **k: (lambda e: (e.name, e.workers))(make_executor(*a, **k))  # noqa: E731
    assert KINDS == ("auto", "serial", "threads", "processes", "dask")
    # auto: serial unless asked for processes or the input is worth it; never slower than one worker
    assert kinds() == ("serial", 1)
    assert kinds("auto", 0) == ("serial", 1)
    assert kinds("auto", 0, parallel_worth_it=True) == ("processes", 4)
    assert kinds("auto", 1) == ("serial", 1)
    assert kinds("auto", 1, parallel_worth_it=True) == ("serial", 1)
    assert kinds("auto", 3) == ("processes", 3)
    # explicit kinds are obeyed
    assert kinds("serial", 4) == ("serial", 1)
    assert kinds("processes", 0) == ("processes", 4)
    assert kinds("processes", 1) == ("processes", 1)
    assert kinds("threads", 0) == ("threads", len(os.sched_getaffinity(0)))
    assert kinds("threads", 3) == ("threads", 3)


def test_auto_processes_follow_a_preference_for_threads(monkeypatch):
    """-j 2 (auto): processes, or threads where the pipeline says its tasks let go of the GIL;
    --executor processes keeps processes whatever the pipeline prefers."""
    from mrkit.runtime import executor as ex

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    auto, named = make_executor("auto", 2), make_executor("processes", 2)
    assert auto.automatic and not named.automatic
    assert ex.thread_workers(auto) == 2 and ex.thread_workers(named) == 0
    assert ex.thread_workers(make_executor("auto", 1)) == 0
    assert ex.thread_workers(make_executor("threads", 3)) == 3
    assert ex.thread_workers(make_executor("auto", 0, parallel_worth_it=True)) == 2
    seen = []

    def where(x):
        seen.append(os.getpid())
        return x * x

    with auto:
        assert list(auto.map_shared(where, range(50), prefer="threads")) == [x * x for x in range(50)]
    assert set(seen) == {os.getpid()}  # threads of this process: no fork


def test_make_executor_auto_on_one_core_is_serial(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert isinstance(make_executor("auto", 0, parallel_worth_it=True), SerialExecutor)
    assert isinstance(make_executor("auto", 2), ProcessExecutor)  # asked for explicitly


def test_make_executor_errors():
    with pytest.raises(MrkitError, match=r"-j/--workers must be 0 \(automatic\) or a positive number, not -1"):
        make_executor("auto", -1)
    with pytest.raises(MrkitError, match=r"unknown executor 'fibres' \(one of auto, serial, threads, processes, dask\)"):
        make_executor("fibres", 2)


# ------------------------------------------------------------------ pipeline.stream

def test_chunked():
    assert list(chunked(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunked([], 3)) == []
    assert list(chunked(iter(range(3)), 3)) == [[0, 1, 2]]


@pytest.mark.parametrize("make", EXECUTOR_MAKERS)
@pytest.mark.parametrize("size", [1, 4, 256])
def test_stream_flattens_chunk_results_in_input_order(make, size):
    with make() as ex:
        assert list(stream(squares_of_chunk, range(50), ex, size)) == [x * x for x in range(50)]
