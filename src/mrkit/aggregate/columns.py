"""A summable table kept as typed columns: the per-pair counts of a compiled kernel.

:class:`ColumnTable` is a :class:`~mrkit.aggregate.corpus.RowTable` (a small table whose
summary needs no numpy) whose columns are ``array.array`` of int64 (counts) or float64
(scores), as a kernel returns them, with no Python object per pair:

* ``column_sums`` adds each column in order (integers: exact; floats: one addition after
  another from the first row, which is how numpy adds a C-ordered table along axis 0, so
  the same bits as ``np.asarray(table).sum(axis=0)``: ``sequential_sums``);
* the per-pair values of the corpus result come from the reducer's column twin
  (``reduce.scalar.columns``: the scalar reducer's operations, in the same order, over
  whole columns) instead of one call per row;
* ``rows`` (tuples) and the float64 array are built only when something asks for them
  (``--bootstrap``, ``--against``, records).

:class:`ColumnCollector` gathers such columns a chunk at a time, with per-pair values a
chunk brings already computed (:func:`chunk_values`, in whichever process scored the
chunk): after a parallel map this process only concatenates typed arrays (issue 14).
"""

from __future__ import annotations

from array import array

from .corpus import CorpusResult, RowTable

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Sequence

    from .resampling import Reducer


class ColumnTable(RowTable):
    """``(pairs, width)`` summable statistics as ``width`` typed columns (equal lengths)."""

    sequential_sums = True
    """Column sums are taken in row order (see the module docstring)."""

    def __init__(self, columns: Sequence[array], known: tuple | None = None,
                 sums: tuple[float, ...] | None = None) -> None:
        self.columns = list(columns)
        self.width = len(self.columns)
        self._array = self._values = None
        self._integral = all(c.typecode == "q" for c in self.columns)
        self._rows = None
        self._sums = sums  # the column sums when known already (a ColumnCollector's chunks')
        self.known = known
        """``(scalar, {name: per-pair values})``: statistics of ``scalar.columns`` computed
        already (:func:`chunk_values`); :meth:`values_of` gives them instead of computing
        them again."""

    @property
    def rows(self) -> list[tuple]:  # type: ignore[override]
        if self._rows is None:
            self._rows = list(zip(*self.columns))
        return self._rows

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), self.width)

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def integral(self) -> bool:
        return self._integral

    def transposed(self) -> list:
        return self.columns

    def column_sums(self) -> tuple[float, ...]:
        # the columns are not changed once the table is made: summed once, read by the
        # micro precision, recall and F1 alike (given by a ColumnCollector: its chunks' sums)
        if self._sums is None:
            self._sums = self._column_sums()
        return self._sums

    def _column_sums(self) -> tuple[float, ...]:
        out = []
        for c in self.columns:
            if c.typecode == "q":
                out.append(float(sum(c)))
            else:
                s = 0.0
                for x in c:
                    s += x
                out.append(s)
        return tuple(out)

    def values_of(self, scalar) -> dict[str, list[float]] | None:
        """Every per-pair statistic by ``scalar.columns`` (None: it has no column twin)."""
        columns = getattr(scalar, "columns", None)
        if columns is None:
            return None
        if self.known is None or self.known[0] is not scalar:
            return columns(self.columns)
        from .reducers import OnUse

        given = self.known[1]
        rest = None

        def make(name):
            def value():
                nonlocal rest
                if name in given:
                    return given[name]
                rest = rest or columns(self.columns)
                return rest[name]
            return value

        return OnUse({name: make(name) for name in columns([c[:0] for c in self.columns])})


def chunk_values(reduce: Reducer, columns: Sequence[array], names: Sequence[str]) -> dict[str, array]:
    """The per-pair statistics ``names`` of a chunk's columns, as the corpus result computes
    them (``reduce.scalar.columns``: the same operations, the same bits), as float64 arrays
    for :meth:`ColumnCollector.add_columns`."""
    per = reduce.scalar.columns(columns)
    out = {}
    for name in names:  # the compiled columns are float64 arrays already (made for this call: not copied)
        v = per[name]
        out[name] = v if isinstance(v, array) and v.typecode == "d" else array("d", v)
    return out


class ColumnCollector:
    """Gathers per-pair rows a chunk at a time as typed columns (int64 while every count is
    an int, else float64), then makes the :class:`~mrkit.aggregate.corpus.CorpusResult`
    (its table a :class:`ColumnTable`: no Python object per pair, no numpy for the
    summary).  A chunk may bring per-pair statistics already computed (:func:`chunk_values`
    with this collector's reducer); when every chunk brings them, the result reads them
    instead of computing them after the last chunk.  ``certified``: one byte per pair."""

    def __init__(self, metric: str, reduce: Reducer, width: int, *, certified: bool = False,
                 keep_records: bool = False) -> None:
        self.metric, self.reduce, self.width = metric, reduce, width
        self.columns = [array("q") for _ in range(width)]
        self._sums: list = [0] * width  # exact sums so far (None: summed in row order at the end)
        self.values: dict[str, array] | None = None
        self.ids: list[str | None] = []
        self._certified = bytearray() if certified else None
        self.records: list[dict] | None = [] if keep_records else None

    def __len__(self) -> int:
        return len(self.ids)

    def add_columns(self, ids: Sequence[str | None], columns: Sequence[array], certified: bytes | None = None,
                    values: dict[str, array] | None = None, records: Sequence[dict] | None = None,
                    sums: Sequence[int] | None = None) -> None:
        """The pairs of one chunk: their ids, ``width`` typed columns (int64 or float64,
        each its own), one certification byte each (0 or 1), their :func:`chunk_values`
        (optional), records (when kept) and the columns' sums where they are exact in any
        grouping (None for a column whose sum is not; without ``sums``: int64 columns are
        summed here); a column without a sum is summed after the last chunk, in row order."""
        n = len(ids)
        if len(columns) != self.width or any(len(c) != n for c in columns):
            raise ValueError(f"{self.metric}: a chunk of {n} pairs whose columns do not hold {self.width} "
                             "statistics each")
        own = self.columns
        for i, c in enumerate(columns):
            if own[i].typecode == "q" and c.typecode != "q":  # a float: this column is float64 from now on
                own[i] = array("d", own[i])
            own[i].extend(c if c.typecode == own[i].typecode else array(own[i].typecode, c))
        if sums is None:  # int64 sums are exact in any grouping; float64 ones only when told so
            sums = [sum(c) if c.typecode == "q" else None for c in columns]
        self._sums = [None if a is None or b is None else a + b for a, b in zip(self._sums, sums)]
        if values is not None and (self.values is not None or not self.ids):
            if self.values is None:
                self.values = {name: array("d") for name in values}
            for name, v in values.items():
                self.values[name].extend(v)
        else:
            self.values = None  # a chunk without them: computed after the last chunk
        self.ids.extend(ids)
        if self._certified is not None:
            self._certified += certified if certified is not None else bytes(n)
        if self.records is not None:
            self.records.extend(records if records is not None else ({"id": i} for i in ids))

    def result(self, detail: dict | None = None) -> CorpusResult:
        known = None if self.values is None else (getattr(self.reduce, "scalar", None), self.values)
        sums = tuple(float(x) for x in self._sums) if all(x is not None for x in self._sums) else None
        table = ColumnTable(self.columns, known, sums)
        return CorpusResult(self.metric, table, self.reduce, self.ids, self._certified,
                            "micro", self.records, dict(detail or {}))
