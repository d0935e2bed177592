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

import sys
from array import array as typed_array

from ._lazy import np  # numpy on first use: see RowTable
from ..model.record import Record

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Any, Iterable, Sequence

    from .resampling import Reducer

_NEW = object()  # a detail not given: a new empty dict, as the dataclass's default_factory

MEASURES = ("precision", "recall", "f1")


def numpy_loaded() -> bool:
    """Whether numpy is imported already (then the plain-Python summary of a small table,
    which exists to spare that import, would only be slower: the numpy way is taken, to
    the same bits)."""
    return "numpy" in sys.modules


_SUM_IN_ORDER = sys.version_info < (3, 12)
"""Whether the builtin ``sum`` adds floats one after another, as a loop of ``+=`` does (from
Python 3.12 it compensates: other bits); then :func:`pairwise_sum`'s lanes are summed in C."""


def pairwise_sum(values: Sequence[float], lo: int = 0, n: int | None = None) -> float:
    """The sum of ``values[lo:lo + n]`` as numpy adds a contiguous float64 array (pairwise
    summation: blocks of 8 partial sums up to 128 values, halves above), so that a mean
    computed here has the bits of ``np.mean`` (tested against it)."""
    if n is None:
        n = len(values) - lo
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += values[i]
        return res
    if n <= 128:
        stop = n - n % 8
        if _SUM_IN_ORDER:  # eight partial sums, each adding its lane in order
            r = [sum(values[j + 8:lo + stop:8], values[j]) for j in range(lo, lo + 8)]
        else:
            r = []
            for j in range(lo, lo + 8):
                acc = values[j]
                for x in values[j + 8:lo + stop:8]:
                    acc += x
                r.append(acc)
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(stop, n):
            res += values[lo + k]
        return res
    half = n // 2
    half -= half % 8
    return pairwise_sum(values, lo, half) + pairwise_sum(values, lo + half, n - half)


class RowTable:
    """A small table of per-pair rows kept as Python tuples (a corpus that never filled one
    block of the :class:`Collector`).  It stands for the ``(pairs, k)`` float64 array: its
    ``shape``, ``sum``, indexing and ``np.asarray`` give the array's (numpy is imported
    then); ``column_sums`` is plain Python.  A corpus result whose rows are integer counts
    and whose reducer has a plain-Python twin (``reduce.scalar``) computes its summary
    without numpy, with the same bits (sums of integers are exact; means are
    :func:`pairwise_sum`)."""

    __slots__ = ("rows", "width", "_array", "_integral", "_values", "_sums", "_cols")

    def __init__(self, rows: list[tuple], width: int) -> None:
        self.rows, self.width = rows, width
        self._array = self._integral = self._values = self._sums = self._cols = None

    def transposed(self) -> list[tuple]:
        """The table's columns (``width`` tuples), made once: the integer test, the column
        sums and the per-pair values all read them."""
        if self._cols is None:
            self._cols = list(zip(*self.rows)) or [()] * self.width
        return self._cols

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.rows), self.width)

    def __len__(self) -> int:
        return len(self.rows)

    def array(self) -> "np.ndarray":
        if self._array is None:
            self._array = np.asarray(self.rows, dtype=np.float64).reshape(-1, self.width)
        return self._array

    def __array__(self, dtype=None, copy=None):
        a = self.array()
        return a if dtype is None else a.astype(dtype)

    def __getitem__(self, key):
        return self.array()[key]

    def sum(self, axis=None):
        return self.array().sum(axis=axis)

    def integral(self) -> bool:
        if self._integral is None:  # int columns at C speed, the others through float.is_integer
            self._integral = all(all(map(int.__instancecheck__, col)) or all(map(float.is_integer, map(float, col)))
                                 for col in self.transposed())
        return self._integral

    def column_sums(self) -> tuple[float, ...]:
        # rows are not changed once the table is made: summed once (column by column, left
        # to right from 0, as before), read by precision, recall and F1 alike
        if self._sums is None:
            self._sums = tuple(float(sum(col)) for col in self.transposed())
        return self._sums


def _plain_sums(table: RowTable) -> bool:
    """Whether the plain-Python column sums of ``table`` have numpy's bits: integer
    counts (exact), or a :class:`~mrkit.aggregate.columns.ColumnTable` (sums in row
    order, as numpy adds along axis 0)."""
    return getattr(table, "sequential_sums", False) or table.integral()


class CorpusResult(Record):
    """Scores of one metric on a corpus of pairs (see the module docstring).

    Fields (a record: printed, compared and replaced as the dataclass of these fields):
    ``metric``; ``table``, the ``(pairs, k)`` summable statistics, one row per pair, in
    input order; ``reduce``, column sums -> named statistics (``precision``/``recall``/``f1``
    or ``f1`` alone); ``ids``; ``certified``, one bool per pair where an alignment is
    searched (kept as a list of bools or a bytearray of 0/1 until read as an array), else
    ``None``; ``average``: ``micro``, the headline is ``reduce`` of the summed
    table, ``macro``, the mean of the per-pair statistics; ``records``, per-pair records (id,
    counts, scores, certification, ...) when kept; ``detail``, command-specific results,
    reported beside the summary."""

    _fields = ("metric", "table", "reduce", "ids", "certified", "average", "records", "detail")

    def __init__(self, metric: str, table: np.ndarray, reduce: Reducer, ids: list[str | None],
                 certified: np.ndarray | None = None, average: str = "micro",
                 records: list[dict] | None = None, detail: dict = _NEW) -> None:
        self.metric = metric
        self.table = table
        self.reduce = reduce
        self.ids = ids
        self.certified = certified
        self.average = average
        self.records = records
        self.detail = {} if detail is _NEW else detail

    # ------------------------------------------------------------------ scores
    @property
    def pairs(self) -> int:
        return len(self._raw("table"))

    def _raw(self, name: str):
        """``table`` or ``certified`` as kept, without turning it into a numpy array (the
        public attributes are numpy arrays: :class:`_AsArray`)."""
        return self.__dict__[name]

    def _plain(self):
        """The plain-Python reducer when the summary can do without numpy (see
        :class:`RowTable`) and numpy is not loaded anyway, else None."""
        scalar = getattr(self.reduce, "scalar", None)
        table = self._raw("table")
        if scalar is not None and isinstance(table, RowTable) and not numpy_loaded() and _plain_sums(table):
            return scalar
        return None

    def column_sums(self) -> tuple[float, ...]:
        """The sum of every column of :attr:`table` (plain Python for a small table)."""
        table = self._raw("table")
        if isinstance(table, RowTable) and not numpy_loaded() and _plain_sums(table):
            return table.column_sums()
        return tuple(float(x) for x in np.asarray(table).sum(axis=0))

    def _micro(self) -> dict[str, float]:
        scalar = self._plain()
        if scalar is not None:
            return dict(scalar(self._raw("table").column_sums()))
        return {k: float(v) for k, v in self.reduce(np.asarray(self.table).sum(axis=0)).items()}

    def per_pair(self) -> dict[str, np.ndarray]:
        """Every statistic of every pair (``reduce`` of each row)."""
        return {k: np.asarray(v, dtype=float) for k, v in self.reduce(np.asarray(self.table)).items()}

    def _per_pair_values(self) -> dict[str, Sequence[float]]:
        """:meth:`per_pair` as plain floats where the summary does without numpy."""
        scalar = self._plain()
        if scalar is None:
            return self.per_pair()
        table = self._raw("table")
        if getattr(table, "_values", None) is None or table._values[0] is not scalar:
            values_of = getattr(table, "values_of", None)  # a ColumnTable: whole columns
            out = values_of(scalar) if values_of is not None else None
            if out is None and getattr(scalar, "columns", None) is not None:
                # plain rows, a column at a time: the scalar's operations, the same bits
                out = scalar.columns(table.transposed())
            if out is None:
                out = {k: [] for k in scalar((0.0,) * table.width)}
                for row in table.rows:
                    for k, v in scalar(row).items():
                        out[k].append(v)
            table._values = (scalar, out)
        return table._values[1]

    @staticmethod
    def _mean(values: Sequence[float]) -> float:
        if not len(values):
            return float("nan")
        if isinstance(values, typed_array):  # ColumnCollector's float64 values: summed fastest as a list
            from .reducers import mean

            fast = mean(values)  # compiled, the same bits (None: not float64, not built, MRKIT_PURE_REDUCE)
            if fast is not None:
                return fast
            values = values.tolist()
        if isinstance(values, list):
            return pairwise_sum(values) / len(values)
        return float(np.mean(values))

    def scores(self) -> dict[str, float]:
        """The corpus statistics: micro (``reduce`` of the summed rows) or macro (mean of
        the rows' statistics), per :attr:`average`."""
        if self.average == "macro":
            return {k: self._mean(v) for k, v in self._per_pair_values().items()}
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
        return self._mean(self._per_pair_values()["f1"])

    @property
    def n_certified(self) -> int | None:
        certified = self._raw("certified")
        if certified is None:
            return None
        if isinstance(certified, bytearray):  # a byte per pair (ColumnCollector)
            return len(certified) - certified.count(0)
        return sum(map(bool, certified)) if isinstance(certified, list) else int(np.count_nonzero(certified))

    @property
    def certified_share(self) -> float | None:
        certified = self._raw("certified")
        if certified is None:
            return None
        return self.n_certified / len(certified) if len(certified) else 1.0

    def summary(self) -> dict[str, Any]:
        """``pairs``, ``precision``, ``recall``, ``f1``, ``macro_f1`` and, where an
        alignment is searched, ``certified`` and ``certified_share``. A metric whose
        statistics are not one P/R/F1 (the subscores' ``smatch_f1``, ``srl_f1``, ...)
        lists every corpus statistic under its own name, and has no ``macro_f1``."""
        s = self.scores()
        out: dict[str, Any] = {"pairs": self.pairs}
        if "f1" in s:
            for k in MEASURES:
                if k in s:
                    out[k] = s[k]
            out["macro_f1"] = self.macro_f1
        else:
            out.update(s)
        if self._raw("certified") is not None:
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
        return self._macro_table() if self.average == "macro" else (np.asarray(self.table), self.reduce)

    def bootstrap(self, samples: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, tuple[float, float]]:
        """Percentile intervals of the corpus statistics, resampling pairs."""
        table, reduce = self._stat_table()
        from .resampling import bootstrap

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
        from .resampling import paired_test

        return paired_test(ta, tb, reduce, samples, seed, level)

    # ------------------------------------------------------------------ output
    def rows(self) -> list[dict]:
        """One flat row per pair (for TSV/CSV): ``pair`` (1-based), ``id``, the record's
        scalar fields (its counts among them, when the metric's records carry them), every
        statistic of the pair, and ``certified``."""
        per = self._per_pair_values()
        certified = self._raw("certified")
        out = []
        for i in range(self.pairs):
            row: dict[str, Any] = {"pair": i + 1, "id": self.ids[i]}
            rec = self.records[i] if self.records is not None else {}
            for k, v in rec.items():
                if k not in row and (v is None or isinstance(v, (str, int, float, bool)) or _numpy_scalar(v)):
                    row[k] = v.item() if _numpy_scalar(v) else v
            for k, v in per.items():
                row.setdefault(k, float(v[i]))
            if certified is not None:
                row.setdefault("certified", bool(certified[i]))
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


class _AsArray:
    """``CorpusResult.table`` and ``.certified`` read as numpy arrays (float64 rows, bools),
    whatever the result keeps: a small corpus keeps plain Python (:class:`RowTable`, a list
    of bools) so that its summary needs no numpy, and the first reader of the attribute
    gets (and leaves behind) the array."""

    def __init__(self, name: str, dtype: str) -> None:
        self.name, self.dtype = name, dtype

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name]
        if value is not None and not hasattr(value, "dtype"):
            value = obj.__dict__[self.name] = np.asarray(value, dtype=self.dtype)
        return value

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.name] = value


# its __init__ assigns through them
CorpusResult.table = _AsArray("table", "float64")  # type: ignore[assignment]
CorpusResult.certified = _AsArray("certified", "bool")  # type: ignore[assignment]


def _numpy_scalar(v) -> bool:
    """A numpy integer or float (without importing numpy for plain values)."""
    return type(v).__module__ == "numpy" and hasattr(v, "item") and getattr(v, "ndim", None) == 0


class Collector:
    """Gathers per-pair rows as they stream past, then makes the :class:`CorpusResult`.

    ``keep_records``: keep every pair's record (for ``--per-pair``); otherwise only the
    summable row, the id and the certification of each pair are kept.  Rows wait as Python
    tuples until :attr:`BLOCK` of them have come, then become a float64 block; a corpus
    smaller than one block gives a :class:`RowTable` (its summary needs no numpy)."""

    BLOCK = 1 << 16
    """Rows per float64 block (65,536 rows: at most ~9 MB of tuples wait)."""

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
        if len(self._pending) >= self.BLOCK:
            self._flush()
        self.ids.append(pair_id)
        if self._certified is not None:
            self._certified.append(bool(certified))
        if self.records is not None:
            self.records.append(record if record is not None else {"id": pair_id})

    def add_many(self, ids: Sequence[str | None], rows: Sequence[Sequence[float]],
                 certified: Sequence[bool] | None = None, records: Sequence[dict | None] | None = None) -> None:
        """:meth:`add` of every pair of a chunk (the same table, ids and records), with one
        Python call per chunk instead of per pair."""
        if any(map(self.width.__ne__, map(len, rows))):  # at C speed
            raise ValueError(f"{self.metric}: a row of other than {self.width} statistics")
        pending = self._pending
        pending.extend(map(tuple, rows))  # a tuple stays itself: C speed
        if len(pending) >= self.BLOCK:  # blocks of exactly BLOCK rows, as add() makes them
            full = len(pending) - len(pending) % self.BLOCK
            self._pending = pending[:full]
            for at in range(0, full, self.BLOCK):
                self._pending = pending[at:at + self.BLOCK]
                self._flush()
            self._pending = pending[full:]
        self.ids.extend(ids)
        if self._certified is not None:
            self._certified.extend(map(bool, certified) if certified is not None else [False] * len(ids))
        if self.records is not None:
            self.records.extend(r if r is not None else {"id": i}
                                for i, r in zip(ids, records if records is not None else [None] * len(ids)))

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
        if not self._rows:  # fewer rows than one block: plain Python until numpy is needed
            table: Any = RowTable(list(self._pending), self.width)
            cert = None if self._certified is None else list(self._certified)
            return CorpusResult(self.metric, table, self.reduce, self.ids, cert, self.average,
                                self.records, dict(detail or {}))
        self._flush()
        table = np.concatenate(self._rows)
        cert = None if self._certified is None else np.asarray(self._certified, dtype=bool)
        return CorpusResult(self.metric, table, self.reduce, self.ids, cert, self.average,
                            self.records, dict(detail or {}))
