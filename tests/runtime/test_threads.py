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
