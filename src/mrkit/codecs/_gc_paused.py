"""The garbage collector paused while a corpus is read and scored (kept apart from
:mod:`mrkit.codecs._files`, whose file helpers a run that prints its report never needs:
start-up, issue 14)."""

from __future__ import annotations

import gc


class gc_paused:
    """Pause the cyclic garbage collector while building many small objects
    (``with gc_paused(): ...``).

    Reading a corpus allocates hundreds of thousands of long-lived objects; every
    generation-2 collection walks all of them, which made reading ten times slower.
    Nothing mrkit builds is cyclic garbage, so reference counting frees it anyway.
    (A class, not a generator under ``contextlib.contextmanager``: every scoring command
    enters it, and contextlib need not be imported for that.)
    """

    __slots__ = ("_was",)

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc) -> bool:
        if self._was:
            gc.enable()
        return False
