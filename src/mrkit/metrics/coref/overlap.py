"""The key/response contingency every coreference metric is computed from.

For key clusters ``K_i`` and response clusters ``R_j`` (each mention in one cluster per
side, see :func:`mrkit.model.clusters.prepare`), :class:`Overlap` holds the cluster sizes and
the non-zero intersection sizes ``n_ij = |K_i & R_j|``.  Building it is linear in the
number of mentions; every metric then reads only these numbers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from ...model.clusters import Clusters


@dataclass
class Overlap:
    """The sizes of key and response clusters and the mentions each pair of them shares."""

    key_sizes: list[int]
    response_sizes: list[int]
    cells: list[tuple[int, int, int]]
    """``(i, j, n_ij)`` for every key cluster i and response cluster j that share n_ij > 0 mentions."""

    @classmethod
    def of(cls, key: Clusters, response: Clusters) -> "Overlap":
        where = {m: j for j, cluster in enumerate(response) for m in cluster}
        nr = len(response)
        get = where.get
        # a cell (i, j) is coded as the integer i * nr + j (cheaper to count than a tuple)
        codes = [i * nr + j for i, cluster in enumerate(key) for j in map(get, cluster) if j is not None]
        cells = [(c // nr, c % nr, n) for c, n in Counter(codes).items()]
        return cls(list(map(len, key)), list(map(len, response)), cells)

    # totals every metric reads: computed once per overlap (the metrics of one document
    # share it), never changed afterwards
    @cached_property
    def n_key(self) -> int:
        """Key mentions."""
        return sum(self.key_sizes)

    @cached_property
    def n_response(self) -> int:
        """Response mentions."""
        return sum(self.response_sizes)

    @cached_property
    def n_common(self) -> int:
        """Mentions both sides have."""
        return sum(n for _, _, n in self.cells)

    @cached_property
    def n_key_entities(self) -> int:
        """Key clusters that are not empty."""
        return len(self.key_sizes) - self.key_sizes.count(0)

    @cached_property
    def n_response_entities(self) -> int:
        """Response clusters that are not empty."""
        return len(self.response_sizes) - self.response_sizes.count(0)

    @cached_property
    def cell_positions(self) -> tuple[list[int], list[int], int, int]:
        """Row and column of every cell in a matrix over the key and response clusters
        that have cells: (rows, columns, number of rows, number of columns)."""
        rows: dict[int, int] = {}
        cols: dict[int, int] = {}
        ri = [rows.setdefault(i, len(rows)) for i, _, _ in self.cells]
        cj = [cols.setdefault(j, len(cols)) for _, j, _ in self.cells]
        return ri, cj, len(rows), len(cols)

    def key_common(self) -> list[int]:
        """For every key cluster, how many of its mentions the response has."""
        out = [0] * len(self.key_sizes)
        for i, _, n in self.cells:
            out[i] += n
        return out

    def response_common(self) -> list[int]:
        out = [0] * len(self.response_sizes)
        for _, j, n in self.cells:
            out[j] += n
        return out


def pairs(n: int) -> int:
    return n * (n - 1) // 2
