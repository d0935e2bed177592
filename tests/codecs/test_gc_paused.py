"""``gc_paused`` (a class, not a contextlib generator: start-up) pauses the collector and
puts it back as it found it, also on errors and when nested; the contextmanager stand-in
of ``codecs._files`` imports contextlib at its first call only."""

from __future__ import annotations

import gc

import pytest

from mrkit.cli.common import progress_bar
from mrkit.codecs._files import atomic_stream, gc_paused


def test_paused_and_restored_also_nested_and_on_errors():
    assert gc.isenabled()
    with gc_paused() as value:
        assert value is None and not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner one found it paused
    assert gc.isenabled()
    with pytest.raises(KeyError):
        with gc_paused():
            raise KeyError("x")
    assert gc.isenabled()


def test_a_paused_collector_stays_paused():
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_no_bar_is_a_context_of_none_and_errors_pass():
    with progress_bar(10, "x", enabled=False) as tick:
        assert tick is None
    with pytest.raises(ValueError):
        with progress_bar(None, "x", enabled=False):
            raise ValueError


def test_atomic_stream_keeps_its_generator_behaviour(tmp_path):
    out = tmp_path / "o.txt"
    assert atomic_stream.__name__ == "atomic_stream" and atomic_stream.__doc__
    with atomic_stream(out) as fh:
        fh.write(b"abc")
    assert out.read_bytes() == b"abc"
    with pytest.raises(RuntimeError):
        with atomic_stream(out) as fh:
            fh.write(b"partial")
            raise RuntimeError
    assert out.read_bytes() == b"abc"
