"""runtime/parallel.py: a pool left on an error keeps no worker behind.  Its worker
handler used to replace the killed workers; a replacement waited forever for the lock a
killed worker held, and the interpreter's exit waited forever for it (a parent hung after
an input error with -j 2, about one run in four)."""

from __future__ import annotations

import multiprocessing as mp
import time

import pytest

from mrkit.runtime.parallel import new_pool

pytestmark = pytest.mark.subprocess


def square(x: int) -> int:
    return x * x


def test_a_pool_left_on_an_error_keeps_no_worker():
    for _ in range(3):
        with pytest.raises(ValueError):
            with new_pool(2) as pool:
                assert pool.apply_async(square, (3,)).get(10) == 9
                raise ValueError("boom")
        time.sleep(0.3)  # time for a handler that is still running to fork a replacement
        assert mp.active_children() == []
