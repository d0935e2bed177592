"""The compiled reductions (:mod:`mrkit.aggregate._reduce`), loaded when a result is first
computed: the per-pair precision, recall and F1 columns of typed columns
(:func:`prf_column`), the per-pair means of (score, weight) columns (:func:`ratio_column`),
numpy's pairwise mean of a float64 array (:func:`mean`) and the builtin ``sum`` of one
(:func:`builtin_mean`), each to the bit of its Python reference in
:mod:`mrkit.aggregate.reducers` and :mod:`mrkit.aggregate.corpus` (tested).  Each gives
None where the Python reference is to be taken: the extension is not built,
``MRKIT_PURE_REDUCE`` is set, the values are not a buffer of int64 or float64, or an int is
beyond 2**53 (the Python divides such ints exactly, see the C file).
"""

from __future__ import annotations

from array import array

_MODULE: list = []


def module():
    """:mod:`mrkit.aggregate._reduce`, or None when it is not built or ``MRKIT_PURE_REDUCE``
    is set (looked up once per process)."""
    if not _MODULE:
        import os

        mod = None
        if not os.environ.get("MRKIT_PURE_REDUCE"):
            try:
                from . import _reduce as mod
            except ImportError:
                mod = None
        _MODULE.append(mod)
    return _MODULE[0]


def _doubles(raw: bytes) -> array:
    out = array("d")
    out.frombytes(raw)
    return out


def int_flags(columns) -> int:
    """Bit k set: column k holds Python ints (an ``array('q')``, which the reference divides
    int by int); the other columns are floats to it."""
    flags = 0
    for k, c in enumerate(columns):
        if getattr(c, "typecode", None) == "q":
            flags |= 1 << k
    return flags


PRF = {"precision": 0, "recall": 1, "f1": 2}


def prf_column(name: str, columns, ints: int) -> array | None:
    """The per-pair ``name`` (precision, recall or f1) of the columns (matched, gold,
    system) as :func:`mrkit.aggregate.reducers._prf_columns` computes it, as float64."""
    mod = module()
    if mod is None or len(columns) != 3:
        return None
    raw = mod.prf_column(PRF[name], *columns, ints)
    return None if raw is None else _doubles(raw)


def ratio_column(columns) -> array | None:
    """``float(x) / float(w) if w > 0 else nan`` of every row of the columns (x, w)
    (:func:`mrkit.aggregate.reducers._mean_columns`), as float64."""
    mod = module()
    if mod is None or len(columns) != 2:
        return None
    raw = mod.ratio_column(*columns)
    return None if raw is None else _doubles(raw)


def mean(values) -> float | None:
    """``pairwise_sum(values) / len(values)`` (numpy's mean) of a float64 array."""
    mod = module()
    return None if mod is None else mod.mean(values)


def builtin_mean(values) -> float | None:
    """``sum(list(values)) / len(values)`` of a non-empty float64 buffer, with this
    interpreter's builtin ``sum``."""
    mod = module()
    if mod is None:
        return None
    total = mod.builtin_sum(values)
    return None if total is None else total / len(values)
