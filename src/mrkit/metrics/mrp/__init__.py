"""MRP metrics: the CoNLL 2019/2020 MRP score (:mod:`.mrp`) and the framework metrics
(:mod:`.frameworks`: SDP, EDM, UCCA, Smatch).

``mrkit.metrics.mrp`` was the module :mod:`mrkit.metrics.mrp.mrp`; its names are still
available here (loaded on first use) for one release.
"""

from __future__ import annotations

import importlib


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    module = importlib.import_module(".mrp", __name__)
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
