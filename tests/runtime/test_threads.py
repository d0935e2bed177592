"""mrkit.runtime.threads.both: two calls on two threads, results and errors as if one
after the other."""

from __future__ import annotations

import _thread

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrkit.runtime.threads import both


def test_results_in_order_first_on_another_thread():
    me = _thread.get_ident()
    first, second = both(lambda: ("a", _thread.get_ident()), lambda: ("b", _thread.get_ident()))
    assert first[0] == "a" and second[0] == "b"
    assert first[1] != me and second[1] == me


@given(st.sampled_from([None, ValueError, KeyError]), st.sampled_from([None, ValueError, KeyError]))
def test_the_first_error_is_the_first_calls(a, b):
    ran = []

    def call(name, exc):
        def f():
            ran.append(name)
            if exc is not None:
                raise exc(name)
            return name
        return f

    if a is None and b is None:
        assert both(call("first", a), call("second", b)) == ("first", "second")
    else:
        want = (a, "first") if a is not None else (b, "second")
        with pytest.raises(want[0]) as info:
            both(call("first", a), call("second", b))
        assert info.value.args == (want[1],)
    assert sorted(ran) == ["first", "second"]  # both ran to their end either way


def test_the_first_call_ends_before_an_error_of_the_second_is_raised():
    import time

    done = []

    def slow():
        time.sleep(0.05)
        done.append(1)

    def fail():
        raise RuntimeError("second")

    with pytest.raises(RuntimeError):
        both(slow, fail)
    assert done == [1]


def test_loads_no_threading():
    """Built on _thread: threading's import costs more than a small corpus takes."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys, mrkit.runtime.threads as t; "
                          "t.both(lambda: 1, lambda: 2); print('threading' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------ SharedMap / shared_map

from mrkit.runtime.threads import SharedMap, shared_map  # noqa: E402


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_shared_map_results_in_order_on_several_threads(workers):
    import time

    threads = set()

    def task(x):
        threads.add(_thread.get_ident())
        time.sleep(0.0005 * (x % 3))  # lets go of the GIL, as the compiled path does
        return x * 10

    assert list(shared_map(task, range(200), workers)) == [x * 10 for x in range(200)]
    assert len(threads) <= workers
    if workers > 1:
        assert len(threads) > 1  # the other threads took tasks too


class Stream:
    """Tasks 0..n-1, an error of the stream at draw ``fail_at``; counts the draws."""

    def __init__(self, n, fail_at=None):
        self.n, self.fail_at, self.drawn = n, fail_at, []

    def __iter__(self):
        return self

    def __next__(self):
        k = len(self.drawn)
        if k == self.fail_at:
            self.drawn.append("error")
            raise KeyError(k)
        if k >= self.n:
            raise StopIteration
        self.drawn.append(k)
        return k


@given(st.integers(1, 40), st.integers(0, 45), st.one_of(st.none(), st.integers(0, 45)), st.integers(1, 3))
def test_shared_map_errors_as_in_a_serial_run(n, bad, stop, workers):
    """The first error in task order wins, a task's or the stream's, after every earlier
    result; each task is drawn once and none after an error is run."""
    def task(x):
        if x == bad:
            raise ValueError(x)
        return x

    def serial():
        out = []
        try:
            for x in Stream(n, stop):
                out.append(task(x))
        except (ValueError, KeyError) as exc:
            return out, type(exc), exc.args
        return out, None, None

    want = serial()
    got, stream = [], Stream(n, stop)
    try:
        for v in shared_map(task, stream, workers):
            got.append(v)
    except (ValueError, KeyError) as exc:
        assert (got, type(exc), exc.args) == want
    else:
        assert (got, None, None) == want
    numbers = [d for d in stream.drawn if d != "error"]
    assert numbers == list(range(len(numbers)))  # drawn once each, in order


def test_leaving_early_stops_the_other_threads():
    import time

    ran = []

    def task(x):
        ran.append(x)
        time.sleep(0.001)
        return x

    it = shared_map(task, range(10_000), 2)
    assert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]
    it.close()  # returns once the other thread has ended its task
    count = len(ran)
    time.sleep(0.02)
    assert len(ran) == count < 100


def test_a_map_started_early_works_before_its_results_are_asked_for():
    import time

    ran = []

    def task(x):
        ran.append(_thread.get_ident())
        return x + 1

    m = SharedMap(task, range(20), 2).start()
    deadline = time.monotonic() + 5
    while not ran and time.monotonic() < deadline:
        time.sleep(0.001)
    assert ran and ran[0] != _thread.get_ident()  # the other thread began alone
    assert list(m.results()) == list(range(1, 21))


def test_closing_a_map_nobody_asked_restores_the_collector():
    import gc

    assert gc.isenabled()
    m = SharedMap(lambda x: x, range(1000), 2).start()
    assert not gc.isenabled()
    m.close()
    m.close()  # once is enough
    assert gc.isenabled()
