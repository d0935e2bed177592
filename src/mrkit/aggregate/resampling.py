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
# the reducers live in their own module (a run without --bootstrap/--against loads no resampling);
# their names stay importable from here
from .reducers import (OnUse, _mean_columns, _mean_scalar, _prf_columns, _prf_scalar, f_measure,  # noqa: F401
                       mean_reduce, prf_reduce, ratio, recall_precision_reduce)

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
