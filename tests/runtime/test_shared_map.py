"""runtime/forked.py and ProcessExecutor.map_shared: this process runs tasks beside its
forked workers; results come in task order, equal to a serial run; the first error in task
order is the one raised (run here, in a worker, or of the stream itself), after every
earlier result; a worker that dies is an error, not a hang; the pool's way
(``MRKIT_SHARE_POOL``) gives the same."""

from __future__ import annotations

import os
import signal
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.errors import MrkitError
from mrkit.runtime import forked
from mrkit.runtime.executor import ProcessExecutor, SerialExecutor

pytestmark = pytest.mark.subprocess

WAYS = [pytest.param(False, id="forked"), pytest.param(True, id="pool")]


@pytest.fixture(params=WAYS)
def pool_way(request, monkeypatch):
    if request.param:
        monkeypatch.setenv("MRKIT_SHARE_POOL", "1")
    elif not forked.available():
        pytest.skip("no fork on this platform")
    else:
        monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    return request.param


def square(x: int) -> int:
    return x * x


def pid_after_nap(x: int) -> tuple[int, int]:
    time.sleep(0.002)
    return os.getpid(), x


class Failing:
    """Tasks that raise ValueError at the given indices (a module-level function of a
    picklable object: the pool's way pickles it)."""

    def __init__(self, bad: frozenset[int]) -> None:
        self.bad = bad

    def __call__(self, x: int) -> int:
        if x in self.bad:
            raise ValueError(f"task {x} failed")
        return x * 3


def stream_failing_at(n: int, stop: int):
    for i in range(n):
        if i == stop:
            raise ValueError(f"stream failed at {i}")
        yield i


def _run(ex, fn, tasks):
    """(results yielded, the exception's text or None)."""
    got = []
    try:
        for r in ex.map_shared(fn, tasks) if hasattr(ex, "map_shared") else ex.map(fn, tasks):
            got.append(r)
    except ValueError as exc:
        return got, str(exc)
    return got, None


@pytest.mark.parametrize("workers", [2, 3])
def test_results_in_order_equal_to_serial(pool_way, workers):
    for n in (0, 1, 5, 300):
        with ProcessExecutor(workers) as ex:
            assert list(ex.map_shared(square, (i for i in range(n)))) == [i * i for i in range(n)]


def test_this_process_and_one_worker_share_the_tasks(pool_way):
    with ProcessExecutor(2) as ex:
        got = list(ex.map_shared(pid_after_nap, iter(range(400))))
    assert [x for _, x in got] == list(range(400))
    pids = {pid for pid, _ in got}
    assert os.getpid() in pids and len(pids) == 2  # -j 2: this process and one forked worker


def test_one_worker_is_this_process_alone():
    ex = ProcessExecutor(1)
    got = list(ex.map_shared(pid_after_nap, range(5)))
    assert {pid for pid, _ in got} == {os.getpid()}


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 120), bad=st.frozensets(st.integers(0, 130), max_size=3),
       stop=st.none() | st.integers(0, 130), workers=st.sampled_from([2, 3]))
def test_the_first_error_in_task_order_wins(n, bad, stop, workers):
    tasks = (lambda: stream_failing_at(n, stop)) if stop is not None else (lambda: iter(range(n)))
    want = _run(SerialExecutor(), Failing(bad), tasks())
    for share_pool in (False, True):
        if share_pool:
            os.environ["MRKIT_SHARE_POOL"] = "1"
        try:
            with ProcessExecutor(workers) as ex:
                assert _run(ex, Failing(bad), tasks()) == want
        finally:
            os.environ.pop("MRKIT_SHARE_POOL", None)


def _killer(x: int) -> int:
    if x == 40 and os.environ.get("KILL_PARENT") != str(os.getpid()):
        os.kill(os.getpid(), signal.SIGKILL)  # a worker dies (as under the OOM killer)
    time.sleep(0.001)
    return x


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_a_worker_that_dies_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setenv("KILL_PARENT", str(os.getpid()))  # only a forked worker kills itself
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    got = []
    try:
        with ProcessExecutor(2) as ex:
            got.extend(ex.map_shared(_killer, iter(range(200))))
    except MrkitError as exc:
        assert "worker process stopped" in str(exc)
    else:  # this process ran task 40 itself: nothing died
        assert got == list(range(200))


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_leaving_early_leaves_no_worker(monkeypatch):
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    before = _children()
    with ProcessExecutor(2) as ex:
        it = ex.map_shared(pid_after_nap, iter(range(1000)))
        next(it)
        it.close()
    assert _children() == before


def _children() -> set[int]:
    me = os.getpid()
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == me:
                        out.add(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


# ------------------------------------------------------------------ session 27: the stream is drawn once, here

def _draws_logged(n: int, log):
    for i in range(n):
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()} {i}\n")
        yield i


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_the_stream_is_drawn_once_by_this_process_alone(tmp_path, monkeypatch):
    """No task is drawn twice: only this process draws the stream (for smatch, cuts the
    files) and hands workers their tasks; the workers still run a share of them."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    log = tmp_path / "draws"
    with ProcessExecutor(2) as ex:
        got = list(ex.map_shared(pid_after_nap, _draws_logged(300, log)))
    assert [x for _, x in got] == list(range(300))
    assert len({pid for pid, _ in got}) == 2
    lines = log.read_text().split()
    assert lines[0::2] == [str(os.getpid())] * 300 and lines[1::2] == [str(i) for i in range(300)]


def _size_of(task: bytes) -> bytes:
    return task[:1] * (len(task) + 1)  # a result larger than its task


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
@pytest.mark.parametrize("workers", [2, 3])
def test_tasks_and_results_larger_than_the_pipes(monkeypatch, workers):
    """Tasks and results of 100-300 KB through pipes left at 4 KB: tasks are written
    without blocking while results are read, so nothing waits on both ends at once."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    monkeypatch.setattr(forked, "PIPE_BYTES", 4096)
    tasks = [bytes([65 + i % 26]) * (100_000 + 2_000 * i) for i in range(100)]
    with ProcessExecutor(workers) as ex:
        got = list(ex.map_shared(_size_of, iter(tasks)))
    assert got == [_size_of(t) for t in tasks]


def _call(task):
    return task()


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_a_task_that_does_not_pickle_runs_here(monkeypatch):
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    with ProcessExecutor(2) as ex:
        got = list(ex.map_shared(_call, [lambda: os.getpid()] * 20))
    assert got == [os.getpid()] * 20


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_workers_leave_by_themselves_at_the_end(monkeypatch):
    """At the end of a full map every worker waits for a task: its task pipe ends and it
    leaves (no kill); leaving early still kills (test_leaving_early_leaves_no_worker).
    (With tasks taken back at the end, a worker still running one is killed:
    test_tasks_taken_back_at_the_end.)"""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    monkeypatch.setattr(forked, "TAKE_BACK", False)
    killed = []
    real_kill = os.kill
    monkeypatch.setattr(os, "kill", lambda pid, sig: (killed.append(pid), real_kill(pid, sig)))
    before = _children()
    with ProcessExecutor(3) as ex:
        assert [x for _, x in ex.map_shared(pid_after_nap, iter(range(200)))] == list(range(200))
    assert killed == [] and _children() == before


def _slow_first_fails_fourth(x: int) -> int:
    if x == 0:
        time.sleep(0.3)  # the first worker is still on task 0 ...
    if x == 3:
        raise ValueError("task 3 failed")  # ... when the second one fails and leaves
    return x


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_a_worker_that_leaves_after_its_error_is_that_error(monkeypatch):
    """A worker stops at its first failing task; the tasks it held after it are not lost
    work (nothing after the first error is needed): the error raised is the task's, after
    every earlier result, not 'a worker process stopped'."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    want = _run(SerialExecutor(), _slow_first_fails_fourth, iter(range(40)))
    assert want == ([0, 1, 2], "task 3 failed")
    with ProcessExecutor(3) as ex:
        assert _run(ex, _slow_first_fails_fourth, iter(range(40))) == want


# ------------------------------------------------------------------ session 28: no idle tail

def slow_in_workers(x: int) -> tuple[int, int]:
    """A task that takes 20 ms in a worker and none here: at the end of the stream this
    process takes back what is still queued to the workers."""
    if os.getpid() != PARENT:
        time.sleep(0.02)
    return os.getpid(), x


PARENT = os.getpid()


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
@pytest.mark.parametrize("workers", [2, 3])
def test_tasks_taken_back_at_the_end(monkeypatch, workers):
    """Once the stream has ended, this process runs the tasks still queued to a worker
    (all but the one it runs now, the last first): results in order, each once, equal to
    serial; the workers still busy are killed and none is left behind."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    global PARENT
    PARENT = os.getpid()
    before = _children()
    with ProcessExecutor(workers) as ex:
        got = list(ex.map_shared(slow_in_workers, iter(range(12))))
    assert [x for _, x in got] == list(range(12))
    mine = [x for pid, x in got if pid == os.getpid()]
    # each worker ran (or started) its first task; this process took back the rest
    assert len(mine) >= 12 - 2 * (workers - 1)
    assert _children() == before


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 60), bad=st.frozensets(st.integers(0, 70), max_size=2))
@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_taking_back_keeps_the_first_error(n, bad):
    """Tasks run twice (here and in a worker) give one result each, and the first error
    in task order is still the one raised, after every earlier result."""
    os.environ.pop("MRKIT_SHARE_POOL", None)
    fn = Failing(bad)
    want = _run(SerialExecutor(), fn, iter(range(n)))
    with ProcessExecutor(2) as ex:
        assert _run(ex, fn, iter(range(n))) == want


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_workers_ended_by_the_map_are_reaped_later(monkeypatch):
    """The map does not wait for its workers to end (this process goes on to its result);
    ``reap()`` (called when the executor closes, and at the next map) leaves no child behind."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    before = _children()
    assert list(forked.shared_map(square, iter(range(50)), 3)) == [i * i for i in range(50)]
    forked.reap()
    assert forked._UNREAPED == [] and _children() == before


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_no_atexit_handler_is_left(monkeypatch):
    """A map registers no exit handler (one would keep the console script from ending
    without the interpreter's teardown: cli.console), even when it ends its workers."""
    import atexit

    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    before = atexit._ncallbacks()
    with ProcessExecutor(2) as ex:
        assert list(ex.map_shared(slow_in_workers, iter(range(12)))) is not None
    assert atexit._ncallbacks() == before


# ------------------------------------------------------------------ session 30: this process's own draws; a first task at the fork

class _Sized:
    """A stream that gives this process its own tasks through ``here()`` (tagged), the
    workers theirs through iteration; one sequence of numbers either way."""

    def __init__(self, n: int) -> None:
        self.n, self.i = n, 0

    def __iter__(self):
        return self

    def _take(self, who: str):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return who, self.i - 1

    def __next__(self):
        return self._take("worker")

    def here(self):
        return self._take("here")


def _where(task):
    who, x = task
    return who, x, os.getpid()


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
@pytest.mark.parametrize("first_before_fork", [True, False])
def test_this_process_draws_its_own_tasks_through_here(monkeypatch, first_before_fork):
    """A stream with ``here()``: this process's own tasks come from it, the workers' from
    iteration; every task once, results in order; the workers' first task is drawn before
    the fork (or not) and run by a worker unless this process takes it back."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    monkeypatch.setattr(forked, "FIRST_BEFORE_FORK", first_before_fork)
    monkeypatch.setattr(forked, "TAKE_BACK", False)
    with ProcessExecutor(2) as ex:
        got = list(ex.map_shared(_where, _Sized(300)))
    assert [x for _, x, _ in got] == list(range(300))
    me = os.getpid()
    assert all(pid == me for who, _, pid in got if who == "here")
    assert all(pid != me for who, _, pid in got if who == "worker")
    assert {who for who, _, _ in got} == {"here", "worker"}
    assert got[0][0] == "worker"  # the worker's first task is the stream's first


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
@pytest.mark.parametrize("first_before_fork", [True, False])
@pytest.mark.parametrize("n,bad,stop", [(1, {0}, None), (5, {0}, None), (5, set(), 0), (5, set(), 1), (0, set(), None),
                                        (3, {1}, None), (40, {0, 7}, 20)])
def test_errors_of_the_first_tasks_as_in_a_serial_run(monkeypatch, first_before_fork, n, bad, stop):
    """The first task (drawn before the fork and run by the worker) failing, the stream
    failing at its first or second draw, an empty stream: the serial run's results and
    error, with the worker's first task drawn before the fork or not."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    monkeypatch.setattr(forked, "FIRST_BEFORE_FORK", first_before_fork)
    tasks = (lambda: stream_failing_at(n, stop)) if stop is not None else (lambda: iter(range(n)))
    want = _run(SerialExecutor(), Failing(frozenset(bad)), tasks())
    with ProcessExecutor(2) as ex:
        assert _run(ex, Failing(frozenset(bad)), tasks()) == want


@pytest.mark.skipif(not forked.available(), reason="no fork on this platform")
def test_no_worker_is_forked_for_a_stream_that_ends_at_once(monkeypatch):
    """A stream that is empty or fails at its first draw: nothing to hand out, no fork."""
    monkeypatch.delenv("MRKIT_SHARE_POOL", raising=False)
    forks = []
    real = forked._fork_workers
    monkeypatch.setattr(forked, "_fork_workers", lambda *a: forks.append(a) or real(*a))
    with ProcessExecutor(2) as ex:
        assert list(ex.map_shared(square, iter([]))) == []
        assert _run(ex, square, stream_failing_at(3, 0)) == ([], "stream failed at 0")
    assert forks == []
    with ProcessExecutor(2) as ex:
        assert list(ex.map_shared(square, iter([3]))) == [9]
    assert len(forks) == 1 and forks[0][2] == [(0, 3)]  # the one task went to the worker at its fork
