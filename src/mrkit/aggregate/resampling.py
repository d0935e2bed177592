"""The one place that resamples: bootstrap intervals and paired tests between two systems.

Every corpus statistic mrkit reports is a *reducer* applied to the column sums of a table
of summable per-pair statistics (``(n, k)``; for Smatch the columns are matched, gold and
system triples; for a mean of pair scores they are the score and 1; for CoNLL-F1 the
recall and precision numerators and denominators of MUC, B-cubed and CEAFe).  So a
resample of the pairs is a vector of multiplicities ``w`` and its statistic is
``reduce(w @ table)``: no resampled copy of the corpus is ever built.

All draws come from ``numpy.random.default_rng(seed)`` in a fixed order (first every
bootstrap resample, then every randomisation round), drawn in blocks of rows, which gives
the same numbers as drawing the whole matrix at once: results are reproducible and do not
depend on the corpus being scored in chunks or in parallel.
"""

from __future__ import annotations

from ._lazy import np  # numpy on first use: a small corpus's summary needs none

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable, Iterator, Mapping

if TYPE_CHECKING:
    Reducer = Callable[["np.ndarray"], Mapping[str, "np.ndarray"]]
    """Column sums ``(..., k)`` -> named statistics ``(...)`` (e.g. precision, recall, f1)."""


def __getattr__(name: str):
    if name == "Reducer":  # the alias, built on first use: typing is not loaded at start-up
        from typing import Callable, Mapping

        value = globals()["Reducer"] = Callable[["np.ndarray"], Mapping[str, "np.ndarray"]]
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

BLOCK = 64
"""Resamples drawn and reduced at a time (bounds memory at ``BLOCK x n`` integers)."""


def interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of the finite values (NaN, NaN when there are none)."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return (float("nan"), float("nan"))
    lo, hi = (1 - level) / 2 * 100, (1 + level) / 2 * 100
    return (float(np.percentile(values, lo)), float(np.percentile(values, hi)))


def bootstrap_indices(n: int, samples: int, seed: int) -> np.ndarray:
    """``samples`` x ``n`` item indices drawn with replacement."""
    return np.random.default_rng(seed).integers(0, n, size=(samples, n))


def _index_blocks(rng: np.random.Generator, n: int, samples: int) -> Iterator[np.ndarray]:
    for start in range(0, samples, BLOCK):
        yield rng.integers(0, n, size=(min(BLOCK, samples - start), n))


def _weights(idx: np.ndarray, n: int) -> np.ndarray:
    """Multiplicity of every item in every resample (rows of ``idx``)."""
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


def _stack(parts: list[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([np.atleast_1d(p[k]) for p in parts]) for k in parts[0]} if parts else {}


def bootstrap(table: np.ndarray, reduce: Reducer, samples: int = 1000, seed: int = 0,
              level: float = 0.95) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap interval of every statistic of ``reduce``, resampling rows
    (pairs, documents, topics) of ``table`` with replacement."""
    table = np.asarray(table, dtype=np.float64)
    n = table.shape[0]
    if n == 0 or samples <= 0:
        return {}
    rng = np.random.default_rng(seed)
    parts = [reduce(_weights(idx, n) @ table) for idx in _index_blocks(rng, n, samples)]
    return {k: interval(v, level) for k, v in _stack(parts).items()}


def bootstrap_values(stat: Callable[[np.ndarray], float], n: int, samples: int, seed: int) -> np.ndarray:
    """``stat(indices)`` over ``samples`` bootstrap resamples of ``n`` items (for
    statistics that are not reducers of summable columns, e.g. a rank statistic)."""
    rng = np.random.default_rng(seed)
    return np.array([stat(row) for idx in _index_blocks(rng, n, samples) for row in idx], dtype=float)


TIE = 1e-12
"""Differences this close to 0 are ties, whichever side floating point put them on: a
resample whose difference is 0 in exact arithmetic (the same items drawn for both systems'
scores to cancel) may come out as +-1e-17, and must count the same way every time."""


def paired_test(table_a: np.ndarray, table_b: np.ndarray, reduce: Reducer, samples: int = 1000,
                seed: int = 0, level: float = 0.95) -> dict[str, dict]:
    """Compare two systems scored on the same items (row ``i`` of both tables is item
    ``i``), for every statistic of ``reduce``:

    - ``difference``: the statistic of A minus that of B on the whole corpus;
    - ``ci``: paired-bootstrap percentile interval of the difference (items resampled,
      A's and B's rows of an item kept together);
    - ``p_bootstrap``: two-sided paired-bootstrap p-value (share of resampled differences
      on the other side of 0 or tied with it, doubled, capped at 1; 1 when the difference
      is 0; differences within ``TIE`` of 0 are ties);
    - ``p_randomization``: approximate randomisation: in each of ``samples`` rounds every
      item's rows are swapped between A and B with probability 1/2, and p = (hits + 1) /
      (samples + 1), hits counting rounds with a difference at least as large in absolute
      value as the observed one (two-sided).

    With ``samples <= 0`` only the differences are computed.
    """
    a = np.asarray(table_a, dtype=np.float64)
    b = np.asarray(table_b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired tables differ in shape: {a.shape} vs {b.shape}")
    n = a.shape[0]
    obs_a, obs_b = reduce(a.sum(axis=0)), reduce(b.sum(axis=0))
    observed = {k: float(obs_a[k]) - float(obs_b[k]) for k in obs_a}
    nan = float("nan")
    if n == 0 or samples <= 0:
        return {k: {"difference": d, "ci": (nan, nan), "p_bootstrap": None, "p_randomization": None}
                for k, d in observed.items()}
    rng = np.random.default_rng(seed)
    boot_parts = []
    for idx in _index_blocks(rng, n, samples):
        w = _weights(idx, n)
        ra, rb = reduce(w @ a), reduce(w @ b)
        boot_parts.append({k: np.asarray(ra[k]) - np.asarray(rb[k]) for k in ra})
    boot = _stack(boot_parts)
    d = b - a
    total_a = a.sum(axis=0)
    total_b = b.sum(axis=0)
    perm_parts = []
    for start in range(0, samples, BLOCK):
        rows = min(BLOCK, samples - start)
        # item's rows swapped where the draw is 0 (the sign -1 of a random +-1 flip)
        swap = (rng.integers(0, 2, size=(rows, n)) == 0).astype(np.float64)
        moved = swap @ d
        ra, rb = reduce(total_a + moved), reduce(total_b - moved)
        perm_parts.append({k: np.asarray(ra[k]) - np.asarray(rb[k]) for k in ra})
    perm = _stack(perm_parts)
    out: dict[str, dict] = {}
    for k, diff in observed.items():
        bv = boot[k][~np.isnan(boot[k])]
        pv = perm[k][~np.isnan(perm[k])]
        if abs(diff) <= TIE or np.isnan(diff) or len(bv) == 0:
            p_boot = 1.0
        else:
            other = (bv <= TIE).sum() if diff > 0 else (bv >= -TIE).sum()
            p_boot = min(1.0, 2 * float(other) / len(bv))
        hits = int((np.abs(pv) >= abs(diff) - TIE).sum())
        out[k] = {"difference": diff, "ci": interval(bv, level), "p_bootstrap": p_boot,
                  "p_randomization": (hits + 1) / (len(pv) + 1)}
    return out


# ------------------------------------------------------------------ reducers

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
    m, g, s = (c if getattr(c, "typecode", None) == "q" else list(map(float, c)) for c in columns)
    return OnUse({
        "precision": lambda: [mi / si if si > 0 else (1.0 if gi == 0 else 0.0) for mi, gi, si in zip(m, g, s)],
        "recall": lambda: [mi / gi if gi > 0 else (1.0 if si == 0 else 0.0) for mi, gi, si in zip(m, g, s)],
        "f1": lambda: [2 * mi / (gi + si) if gi + si > 0 else 1.0 for mi, gi, si in zip(m, g, s)],
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
    """:func:`_mean_scalar` of every row of the columns (score, weight) at once."""
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
