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
"""

from __future__ import annotations

from array import array

from .corpus import RowTable

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Sequence


class ColumnTable(RowTable):
    """``(pairs, width)`` summable statistics as ``width`` typed columns (equal lengths)."""

    sequential_sums = True
    """Column sums are taken in row order (see the module docstring)."""

    def __init__(self, columns: Sequence[array]) -> None:
        self.columns = list(columns)
        self.width = len(self.columns)
        self._array = self._values = None
        self._integral = all(c.typecode == "q" for c in self.columns)
        self._rows = None

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
        return columns(self.columns)
