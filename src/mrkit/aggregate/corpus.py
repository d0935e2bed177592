"""One corpus result for every metric and every command.

A metric scores pairs (sentence pairs, document pairs, MRP graphs, coreference documents,
SciCo topics); each pair gives one row of *summable* statistics (see
:mod:`mrkit.aggregate.resampling`) and, where an alignment is searched, whether its score
is certified optimal.  :class:`Collector` gathers those rows as pairs stream past (a few
numbers per pair, so memory stays flat); :class:`CorpusResult` is what every command
reports:

- ``summary``: ``pairs``, ``precision``, ``recall``, ``f1`` (the headline: micro unless
  the metric's corpus score is a mean), ``macro_f1`` (mean of the pair F1), and
  ``certified`` / ``certified_share`` where an alignment is searched;
- ``bootstrap(samples)``: percentile intervals of every summary statistic;
- ``compare(other)``: paired bootstrap and approximate randomisation against a second
  system scored on the same gold;
- ``records``: per-pair records with their ids (kept when asked for), ``rows()`` for
  TSV/CSV, ``to_dict()``, ``to_frame()`` (pandas, imported on use).

Command-specific detail (MRP's tuple types, document Smatch's subscores, every
coreference metric) sits in ``detail`` beside the summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from .resampling import Reducer, bootstrap, paired_test

MEASURES = ("precision", "recall", "f1")


@dataclass
class CorpusResult:
    """Scores of one metric on a corpus of pairs (see the module docstring)."""

    metric: str
    table: np.ndarray
    """``(pairs, k)`` summable statistics, one row per pair, in input order."""
    reduce: Reducer
    """Column sums -> named statistics (``precision``/``recall``/``f1`` or ``f1`` alone)."""
    ids: list[str | None]
    certified: np.ndarray | None = None
    """One bool per pair where an alignment is searched, else ``None``."""
    average: str = "micro"
    """``micro``: the headline is ``reduce`` of the summed table; ``macro``: the mean of
    the per-pair statistics."""
    records: list[dict] | None = None
    """Per-pair records (id, counts, scores, certification, ...) when kept."""
    detail: dict = field(default_factory=dict)
    """Command-specific results, reported beside the summary."""

    # ------------------------------------------------------------------ scores
    @property
    def pairs(self) -> int:
        return int(self.table.shape[0])

    def _micro(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.reduce(self.table.sum(axis=0)).items()}

    def per_pair(self) -> dict[str, np.ndarray]:
        """Every statistic of every pair (``reduce`` of each row)."""
        return {k: np.asarray(v, dtype=float) for k, v in self.reduce(self.table).items()}

    def scores(self) -> dict[str, float]:
        """The corpus statistics: micro (``reduce`` of the summed rows) or macro (mean of
        the rows' statistics), per :attr:`average`."""
        if self.average == "macro":
            return {k: float(np.mean(v)) if len(v) else float("nan") for k, v in self.per_pair().items()}
        return self._micro()

    @property
    def f1(self) -> float:
        return self.scores()["f1"]

    @property
    def precision(self) -> float | None:
        return self.scores().get("precision")

    @property
    def recall(self) -> float | None:
        return self.scores().get("recall")

    @property
    def macro_f1(self) -> float:
        f = self.per_pair()["f1"]
        return float(np.mean(f)) if len(f) else float("nan")

    @property
    def n_certified(self) -> int | None:
        return None if self.certified is None else int(np.sum(self.certified))

    @property
    def certified_share(self) -> float | None:
        if self.certified is None:
            return None
        return float(np.mean(self.certified)) if len(self.certified) else 1.0

    def summary(self) -> dict[str, Any]:
        """``pairs``, ``precision``, ``recall``, ``f1``, ``macro_f1`` and, where an
        alignment is searched, ``certified`` and ``certified_share``."""
        s = self.scores()
        out: dict[str, Any] = {"pairs": self.pairs}
        for k in MEASURES:
            if k in s:
                out[k] = s[k]
        out["macro_f1"] = self.macro_f1
        if self.certified is not None:
            out["certified"] = self.n_certified
            out["certified_share"] = self.certified_share
        return out

    # ------------------------------------------------------------------ statistics
    def _macro_table(self) -> tuple[np.ndarray, Reducer]:
        """Macro averages as a reducer over columns (statistic..., 1)."""
        per = self.per_pair()
        names = list(per)
        table = np.column_stack([per[k] for k in names] + [np.ones(self.pairs)])

        def reduce(sums: np.ndarray) -> dict[str, np.ndarray]:
            sums = np.asarray(sums, dtype=float)
            return {k: sums[..., i] / sums[..., -1] for i, k in enumerate(names)}

        return table, reduce

    def _stat_table(self) -> tuple[np.ndarray, Reducer]:
        return self._macro_table() if self.average == "macro" else (self.table, self.reduce)

    def bootstrap(self, samples: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, tuple[float, float]]:
        """Percentile intervals of the corpus statistics, resampling pairs."""
        table, reduce = self._stat_table()
        return bootstrap(table, reduce, samples, seed, level)

    def compare(self, other: "CorpusResult", samples: int = 1000, seed: int = 0,
                level: float = 0.95) -> dict[str, dict]:
        """This system against ``other`` on the same gold (pairs matched by position; the
        ids must agree): difference, paired-bootstrap interval and p-value, and
        approximate-randomisation p-value of every corpus statistic."""
        if self.pairs != other.pairs:
            raise ValueError(f"the two systems were scored on {self.pairs} and {other.pairs} pairs")
        if list(self.ids) != list(other.ids):
            k = next(i for i, (a, b) in enumerate(zip(self.ids, other.ids)) if a != b)
            raise ValueError(f"pair {k + 1} is {self.ids[k]!r} for one system and {other.ids[k]!r} for the other")
        ta, reduce = self._stat_table()
        tb, _ = other._stat_table()
        return paired_test(ta, tb, reduce, samples, seed, level)

    # ------------------------------------------------------------------ output
    def rows(self) -> list[dict]:
        """One flat row per pair (for TSV/CSV): ``pair`` (1-based), ``id``, the record's
        scalar fields (its counts among them, when the metric's records carry them), every
        statistic of the pair, and ``certified``."""
        per = self.per_pair()
        out = []
        for i in range(self.pairs):
            row: dict[str, Any] = {"pair": i + 1, "id": self.ids[i]}
            rec = self.records[i] if self.records is not None else {}
            for k, v in rec.items():
                if k not in row and (v is None or isinstance(v, (str, int, float, bool, np.integer, np.floating))):
                    row[k] = v.item() if isinstance(v, (np.integer, np.floating)) else v
            for k, v in per.items():
                row.setdefault(k, float(v[i]))
            if self.certified is not None:
                row.setdefault("certified", bool(self.certified[i]))
            out.append(row)
        return out

    def to_dict(self, per_pair: bool = False) -> dict:
        out: dict[str, Any] = {"metric": self.metric, "summary": self.summary()}
        if self.average != "micro":
            out["average"] = self.average
        out.update(self.detail)
        if per_pair:
            out["per_pair"] = self.records if self.records is not None else self.rows()
        return out

    def to_frame(self):
        """Per-pair rows as a pandas DataFrame (pandas is imported here, on use)."""
        try:
            import pandas as pd
        except ImportError as exc:  # optional dependency
            raise ImportError("to_frame() needs pandas (pip install pandas)") from exc
        return pd.DataFrame(self.rows())


class Collector:
    """Gathers per-pair rows as they stream past, then makes the :class:`CorpusResult`.

    ``keep_records``: keep every pair's record (for ``--per-pair``); otherwise only the
    summable row, the id and the certification of each pair are kept."""

    def __init__(self, metric: str, reduce: Reducer, width: int, *, certified: bool = False,
                 keep_records: bool = False, average: str = "micro") -> None:
        self.metric, self.reduce, self.width, self.average = metric, reduce, width, average
        self._rows: list[np.ndarray] = []
        self._pending: list[Sequence[float]] = []
        self.ids: list[str | None] = []
        self._certified: list[bool] | None = [] if certified else None
        self.records: list[dict] | None = [] if keep_records else None

    def add(self, pair_id: str | None, row: Sequence[float], certified: bool | None = None,
            record: dict | None = None) -> None:
        if len(row) != self.width:
            raise ValueError(f"{self.metric}: a row of {len(row)} statistics, expected {self.width}")
        self._pending.append(tuple(row))  # a copy: the caller may reuse its buffer
        if len(self._pending) >= 4096:
            self._flush()
        self.ids.append(pair_id)
        if self._certified is not None:
            self._certified.append(bool(certified))
        if self.records is not None:
            self.records.append(record if record is not None else {"id": pair_id})

    def extend(self, items: Iterable[tuple]) -> None:
        for item in items:
            self.add(*item)

    def _flush(self) -> None:
        if self._pending:
            self._rows.append(np.asarray(self._pending, dtype=np.float64).reshape(-1, self.width))
            self._pending = []

    def __len__(self) -> int:
        return len(self.ids)

    def result(self, detail: dict | None = None) -> CorpusResult:
        self._flush()
        table = np.concatenate(self._rows) if self._rows else np.zeros((0, self.width))
        cert = None if self._certified is None else np.asarray(self._certified, dtype=bool)
        return CorpusResult(self.metric, table, self.reduce, self.ids, cert, self.average,
                            self.records, dict(detail or {}))
