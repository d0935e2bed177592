"""The reducers: column sums of a table of summable per-pair statistics -> the named corpus
statistics (precision, recall, F1; a mean; recall and precision of the coreference scorers),
each with its plain-Python twin for one row (``.scalar``: the same operations in the same
order, so the same bits) and for whole columns (``.scalar.columns``).

Kept apart from :mod:`mrkit.aggregate.resampling` (bootstrap and paired tests, which use
them): every scoring run reduces, few resample (start-up, issue 14).
"""

from __future__ import annotations

from array import array

from ._lazy import np  # numpy on first use: a small corpus's summary needs none

# ------------------------------------------------------------------ compiled twins
# The column twins and the macro means in C (mrkit.aggregate._reduce), loaded when a result
# is first computed: the per-pair precision, recall and F1 of typed columns (prf_column),
# the per-pair means of (score, weight) columns (ratio_column), numpy's pairwise mean of a
# float64 array (mean) and the builtin sum of one (builtin_mean), each to the bit of its
# Python reference here and in mrkit.aggregate.corpus (tested).  Each gives None where the
# Python reference is to be taken: the extension is not built, MRKIT_PURE_REDUCE is set,
# the values are not a buffer of int64 or float64, or an int is beyond 2**53 (the Python
# divides such ints exactly, see the C file).  Here, not in a module of their own: one
# import less for every scoring command.
_COMPILED: list = []


def reduce_module():
    """:mod:`mrkit.aggregate._reduce`, or None when it is not built or ``MRKIT_PURE_REDUCE``
    is set (looked up once per process)."""
    if not _COMPILED:
        import os

        mod = None
        if not os.environ.get("MRKIT_PURE_REDUCE"):
            try:
                from . import _reduce as mod
            except ImportError:
                mod = None
        _COMPILED.append(mod)
    return _COMPILED[0]


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
    mod = reduce_module()
    if mod is None or len(columns) != 3:
        return None
    raw = mod.prf_column(PRF[name], *columns, ints)
    return None if raw is None else _doubles(raw)


def ratio_column(columns) -> array | None:
    """``float(x) / float(w) if w > 0 else nan`` of every row of the columns (x, w)
    (:func:`mrkit.aggregate.reducers._mean_columns`), as float64."""
    mod = reduce_module()
    if mod is None or len(columns) != 2:
        return None
    raw = mod.ratio_column(*columns)
    return None if raw is None else _doubles(raw)


def mean(values) -> float | None:
    """``pairwise_sum(values) / len(values)`` (numpy's mean) of a float64 array."""
    mod = reduce_module()
    return None if mod is None else mod.mean(values)


def builtin_mean(values) -> float | None:
    """``sum(list(values)) / len(values)`` of a non-empty float64 buffer, with this
    interpreter's builtin ``sum``."""
    mod = reduce_module()
    if mod is None:
        return None
    total = mod.builtin_sum(values)
    return None if total is None else total / len(values)


def prf_reduce(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Columns (matched, gold, system) -> precision, recall, F1, with the convention of
    :func:`mrkit.aggregate.prf.prf` (empty against empty is a perfect match)."""
    sums = np.asarray(sums, dtype=np.float64)
    m, g, s = sums[..., 0], sums[..., 1], sums[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(s > 0, m / np.where(s > 0, s, 1), np.where(g == 0, 1.0, 0.0))
        r = np.where(g > 0, m / np.where(g > 0, g, 1), np.where(s == 0, 1.0, 0.0))
        f = np.where(g + s > 0, 2 * m / np.where(g + s > 0, g + s, 1), 1.0)
    return {"precision": p, "recall": r, "f1": f}


def _prf_scalar(sums) -> dict[str, float]:
    """:func:`prf_reduce` of one row of sums, in plain Python: the same operations in the
    same order, so the same bits."""
    m, g, s = (float(x) for x in sums)
    p = m / s if s > 0 else (1.0 if g == 0 else 0.0)
    r = m / g if g > 0 else (1.0 if s == 0 else 0.0)
    f = 2 * m / (g + s) if g + s > 0 else 1.0
    return {"precision": p, "recall": r, "f1": f}


class OnUse:
    """A read-only mapping of named per-pair columns, each computed the first time it is
    read (a summary reads ``f1`` alone: its mean; per-pair reports read them all).  Keys
    keep their order; it reads like the dict it stands for."""

    __slots__ = ("_make", "_done")

    def __init__(self, make: dict) -> None:
        self._make, self._done = make, {}  # name -> function of no argument; name -> column

    def __getitem__(self, key: str):
        done = self._done
        if key not in done:
            done[key] = self._make[key]()
        return done[key]

    def get(self, key: str, default=None):
        return self[key] if key in self._make else default

    def __contains__(self, key) -> bool:
        return key in self._make

    def __iter__(self):
        return iter(self._make)

    def __len__(self) -> int:
        return len(self._make)

    def keys(self):
        return self._make.keys()

    def items(self) -> list[tuple]:
        return [(k, self[k]) for k in self._make]

    def values(self) -> list:
        return [self[k] for k in self._make]


def _prf_columns(columns) -> OnUse:
    """:func:`_prf_scalar` of every row of the columns (matched, gold, system) at once
    (:class:`mrkit.aggregate.columns.ColumnTable`): the same operations, the same bits;
    each statistic computed when it is first read (:class:`OnUse`)."""
    # int64 columns stay ints: int / int of values below 2**53 is the division of their
    # exact doubles, as the scalar's float / float
    ints = int_flags(columns)
    plain: list = []

    def python() -> list:
        if not plain:
            plain.extend(c if ints >> k & 1 else list(map(float, c)) for k, c in enumerate(columns))
        return plain

    def made(name: str, rows):
        def column():
            # typed columns: the compiled twin (float64, the same bits; None: the Python)
            fast = prf_column(name, columns, ints)
            return fast if fast is not None else rows(*python())
        return column

    return OnUse({
        "precision": made("precision", lambda m, g, s: [mi / si if si > 0 else (1.0 if gi == 0 else 0.0)
                                                        for mi, gi, si in zip(m, g, s)]),
        "recall": made("recall", lambda m, g, s: [mi / gi if gi > 0 else (1.0 if si == 0 else 0.0)
                                                  for mi, gi, si in zip(m, g, s)]),
        "f1": made("f1", lambda m, g, s: [2 * mi / (gi + si) if gi + si > 0 else 1.0 for mi, gi, si in zip(m, g, s)]),
    })


prf_reduce.scalar = _prf_scalar  # what mrkit.aggregate.corpus uses for small tables
_prf_scalar.columns = _prf_columns


def mean_reduce(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Columns (score, 1) -> the mean score, reported as ``f1`` (the headline)."""
    sums = np.asarray(sums, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return {"f1": np.where(sums[..., 1] > 0, sums[..., 0] / np.where(sums[..., 1] > 0, sums[..., 1], 1), np.nan)}


def _mean_scalar(sums) -> dict[str, float]:
    """:func:`mean_reduce` of one row of sums, in plain Python (the same bits)."""
    total, weight = (float(x) for x in sums)
    return {"f1": total / weight if weight > 0 else float("nan")}


def _mean_columns(columns) -> dict[str, list[float]]:
    """:func:`_mean_scalar` of every row of the columns (score, weight) at once (typed
    columns: by the compiled twin, float64, the same bits)."""
    fast = ratio_column(columns)
    if fast is not None:
        return {"f1": fast}
    return {"f1": [float(x) / float(w) if w > 0 else float("nan") for x, w in zip(*columns)]}


mean_reduce.scalar = _mean_scalar
_mean_scalar.columns = _mean_columns


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 for 0/0 (the CoNLL reference scorer's convention)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den != 0, den, 1), 0.0)


def f_measure(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Harmonic mean, 0 when both are 0 (the reference scorer's convention)."""
    s = recall + precision
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s != 0, 2 * recall * precision / np.where(s != 0, s, 1), 0.0)


def recall_precision_reduce(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Columns (recall numerator, recall denominator, precision numerator, precision
    denominator) -> recall, precision, F1 (0/0 counts as 0, as the coreference scorers)."""
    sums = np.asarray(sums, dtype=np.float64)
    r = ratio(sums[..., 0], sums[..., 1])
    p = ratio(sums[..., 2], sums[..., 3])
    return {"precision": p, "recall": r, "f1": f_measure(r, p)}
