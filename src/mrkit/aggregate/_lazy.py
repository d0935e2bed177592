"""numpy, imported on first use.

The aggregation layer names ``np`` everywhere, but the summary of a small corpus of
integer counts (Smatch on a few sentences) is computed in plain Python
(:class:`mrkit.aggregate.corpus.RowTable`), so a one-pair ``mrkit smatch`` need not pay
numpy's import (about 70 ms, a third of the whole command).  ``np.anything`` imports numpy
the first time it is used and from then on is numpy's own attribute."""

from __future__ import annotations


class _OnUse:
    def __init__(self, name: str) -> None:
        self._name = name
        self._module = None

    def __getattr__(self, attr: str):
        module = self._module
        if module is None:
            # importlib.import_module(name), without importing importlib at start-up
            module = self._module = __import__(self._name, fromlist=("__doc__",))
        return getattr(module, attr)


np = _OnUse("numpy")
