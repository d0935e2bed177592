"""The corpus result of a registered graph metric: a
:class:`~mrkit.aggregate.corpus.CorpusResult` (one summable row per pair, the metric's
reducer, ids, certification where an alignment is searched) with the accessors of the
former ``MetricResult`` that the meta-evaluation and user code read."""

from __future__ import annotations

import sys

from ..aggregate._lazy import np  # numpy on first use: a small corpus of counts needs none
from ..aggregate.corpus import _NEW, Collector, CorpusResult, RowTable

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Sequence

    from ..aggregate.resampling import Reducer


class MetricScores(CorpusResult):
    """Scores of one metric on a corpus of (gold, system) pairs.

    ``f1`` (= ``corpus``) is the metric's corpus score: micro F1 for Smatch, SEMA and
    S2match, corpus BLEU for SemBLEU, the mean of pairs for the others; ``detail`` holds
    the metric's settings and counts (``details``).  Its fields are
    :class:`~mrkit.aggregate.corpus.CorpusResult`'s and ``columns``, the names of the
    summable statistics of a pair (the columns of ``table``)."""

    _fields = CorpusResult._fields + ("columns",)

    def __init__(self, metric, table, reduce, ids, certified=None, average="micro", records=None,
                 detail=_NEW, columns: tuple[str, ...] = ()) -> None:
        super().__init__(metric, table, reduce, ids, certified, average, records, detail)
        self.columns = columns

    @property
    def name(self) -> str:
        return self.metric

    @property
    def corpus(self) -> float:
        """The corpus score (1 for an empty corpus, as before)."""
        return self.f1 if self.pairs else 1.0

    @property
    def pair_scores(self) -> list[float]:
        """The headline score of every pair, in input order."""
        return list(map(float, self._per_pair_values()["f1"]))

    @property
    def macro(self) -> float:
        """Mean of the pair scores (summed by the builtin ``sum``, as before; 1 for an empty
        corpus)."""
        values = self._per_pair_values()["f1"]
        if len(values):
            from ..aggregate.reducers import builtin_mean

            fast = builtin_mean(values)  # a float64 buffer: compiled, the same bits
            if fast is not None:
                return fast
        per = list(map(float, values))
        return sum(per) / len(per) if per else 1.0

    @property
    def details(self) -> dict:
        return self.detail

    def with_records(self) -> "MetricScores":
        """Keep a per-pair record (id, summable columns, scores) of every pair."""
        per = self.per_pair()
        records = []
        for i in range(self.pairs):
            rec: dict = {"id": self.ids[i]}
            for k, name in enumerate(self.columns):
                if name == "weight":  # the 1 of a mean of pairs
                    continue
                v = float(self.table[i, k])
                rec[name] = int(v) if v.is_integer() and name != "score" else v
            for k, v in per.items():
                rec[k] = float(v[i])
            if self.certified is not None:
                rec["certified"] = bool(self.certified[i])
            records.append(rec)
        self.records = records
        return self


def metric_scores(name: str, rows: Sequence[Sequence[float]], ids: Sequence[str | None],
                  reduce: Reducer, columns: Sequence[str], certified: Sequence[bool] | None = None,
                  details: dict | None = None) -> MetricScores:
    """The result of metric ``name`` from one row of summable statistics per pair.  Fewer
    rows than one :class:`~mrkit.aggregate.corpus.Collector` block of integer counts (SEMA,
    SemBLEU) stay plain Python (:class:`~mrkit.aggregate.corpus.RowTable`: the summary needs
    no numpy, to the same bits); ``table`` reads as the float64 array either way."""
    if len(rows) < Collector.BLOCK and "numpy" not in sys.modules and _integers(rows):
        table = RowTable([tuple(r) for r in rows], len(columns))
        cert = None if certified is None else [bool(c) for c in certified]
        return MetricScores(name, table, reduce, list(ids), cert, detail=dict(details or {}),
                            columns=tuple(columns))
    table = np.asarray(rows, dtype=np.float64).reshape(-1, len(columns))
    cert = None if certified is None else np.asarray(certified, dtype=bool)
    return MetricScores(name, table, reduce, list(ids), cert, detail=dict(details or {}),
                        columns=tuple(columns))


def column_scores(name: str, columns: Sequence, ids: Sequence[str | None], reduce: Reducer,
                  names: Sequence[str], details: dict | None = None) -> MetricScores:
    """:func:`metric_scores` of rows given as typed columns (``array.array`` of int64 or
    float64, one per statistic: a compiled kernel's counts), kept as a
    :class:`~mrkit.aggregate.columns.ColumnTable` (no Python object per pair; the summary
    and per-pair values in plain Python, the same bits) where :func:`metric_scores` would
    keep a small plain table; otherwise exactly :func:`metric_scores` of the rows."""
    from ..aggregate.corpus import numpy_loaded

    n = len(columns[0]) if len(columns) else 0
    if n < Collector.BLOCK and not numpy_loaded():
        from ..aggregate.columns import ColumnTable

        return MetricScores(name, ColumnTable(columns), reduce, list(ids), None, detail=dict(details or {}),
                            columns=tuple(names))
    # the float64 table metric_scores makes of the rows, filled column by column from the
    # columns' buffers: no Python tuple per pair (SICK x50, 246,450 pairs of SemBLEU's 8
    # counts: ~50 MB of tuples and ints at the peak of the run, issue 14's flat memory)
    from array import array

    table = np.empty((n, len(names)), dtype=np.float64)
    for j, column in enumerate(columns):
        table[:, j] = np.frombuffer(column, dtype=column.typecode) if isinstance(column, array) else column
    return MetricScores(name, table, reduce, list(ids), None, detail=dict(details or {}), columns=tuple(names))


def mean_column_scores(name: str, scores, ids: Sequence[str | None], details: dict | None = None) -> MetricScores:
    """:func:`mean_scores` of the scores given as an ``array.array`` of float64."""
    from array import array

    from ..aggregate.reducers import mean_reduce

    return column_scores(name, [scores, array("d", [1.0]) * len(scores)], ids, mean_reduce, MEAN_COLUMNS,
                         details)


MEAN_COLUMNS = ("score", "weight")
"""The summable row of a metric whose corpus score is the mean of pairs: (score, 1)."""


def _integers(rows) -> bool:
    return all(type(x) is int for row in rows for x in row)


def mean_scores(name: str, per: Sequence[float], ids: Sequence[str | None],
                details: dict | None = None) -> MetricScores:
    """The result of a metric whose corpus score is the mean of its pair scores."""
    from ..aggregate.reducers import mean_reduce

    return metric_scores(name, [(x, 1.0) for x in per], ids, mean_reduce, MEAN_COLUMNS, None, details)
