"""The alignment problem every graph metric hands to the engine.

A metric describes each graph as :class:`Features`: per node a multiset of unary
features (hashable values: a concept, an attribute, "top", an anchor position, ...) and a
set of labelled edges between node indices.  :func:`build_problem` turns two such
descriptions (gold ``a``, system ``b``) into arrays:

* ``U[i, j]``: unary score of mapping gold node i to system node j (the size of the
  multiset intersection of their features, or any graded score a metric supplies);
* gold edges and system edges as label ids over a shared vocabulary;
* ``allowed[i, j]``: the candidate constraint (which pairs may be aligned at all);
* ``useful[i, j]``: allowed pairs that can contribute anything (unary > 0 or an edge
  label that could match in the same direction); the others never help and are
  skipped by the search and the ILP.

The objective of a mapping is ``sum U[i, m(i)] + #matched edges``; see
``alignment-engine.md`` in the founders' notes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Hashable, Sequence

import numpy as np

from . import _kernel


@dataclass
class Features:
    """What a metric counts in one graph, over node indices ``0..n-1``."""

    n: int
    unary: list[Counter] = field(default_factory=list)
    edges: list[tuple[int, Hashable, int]] = field(default_factory=list)
    """(source, label, target); duplicates are removed by :func:`build_problem`."""

    def __post_init__(self) -> None:
        if not self.unary:
            self.unary = [Counter() for _ in range(self.n)]

    @property
    def total(self) -> float:
        """Number of tuples of this graph: unary features plus distinct edges."""
        return sum(sum(c.values()) for c in self.unary) + len(set(self.edges))


@dataclass
class Problem:
    """One alignment problem: the two graphs' sizes, unary scores, allowed pairs and edges."""

    n_a: int
    n_b: int
    U: np.ndarray
    allowed: np.ndarray
    useful: np.ndarray
    a_edges: np.ndarray  # (E_a, 3) int32: src, tgt, label
    b_edges: np.ndarray  # (E_b, 3)
    integral: bool
    """True when every score is an integer (bounds can be rounded down)."""

    # derived, filled by build_problem
    weights: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    """Assignment-bound weights (see :mod:`mrkit.align.bounds`)."""
    edge_bound: float = 0.0
    """Per-label multiset intersection of the two edge lists."""
    n_labels: int = 0
    """Size of the edge-label vocabulary shared by the two graphs."""
    _columns: list | None = field(default=None, repr=False)

    def edge_columns(self) -> list[np.ndarray]:
        """Contiguous (source, target, label) columns of the gold, then the system edges."""
        if self._columns is None:
            self._columns = [np.ascontiguousarray(e[:, k]) for e in (self.a_edges, self.b_edges)
                             for k in (0, 1, 2)]
        return self._columns

    def score(self, mapping: np.ndarray) -> float:
        """Objective value of a mapping (array of system indices, -1 = unmapped)."""
        m = np.asarray(mapping)
        s = float(sum(self.U[i, j] for i, j in enumerate(m) if j >= 0))
        if len(self.a_edges) and len(self.b_edges):
            bset = {(int(x), int(l), int(y)) for x, y, l in self.b_edges}
            for x, y, l in self.a_edges:
                mx, my = int(m[x]), int(m[y])
                if mx >= 0 and my >= 0 and (mx, int(l), my) in bset:
                    s += 1
        return s


def restrict(p: Problem, allowed: np.ndarray) -> Problem:
    """``p`` under a tighter candidate constraint (same edges, same label ids)."""
    allow = np.ascontiguousarray(allowed, dtype=np.uint8)
    return _problem(np.where(allow > 0, p.U, 0.0), allow, p.a_edges, p.b_edges, p.integral,
                    p.n_labels, p.edge_columns())


def _edge_arrays(edges: Sequence[tuple[int, Hashable, int]], vocab: dict) -> np.ndarray:
    seen = dict.fromkeys(edges)  # dedup, keep order
    arr = np.empty((len(seen), 3), dtype=np.int32)
    for k, (s, lab, t) in enumerate(seen):
        arr[k] = (s, t, vocab.setdefault(lab, len(vocab)))
    return arr


def unary_matrix(a: Sequence[Counter], b: Sequence[Counter]) -> np.ndarray:
    """``U[i, j] = |a[i] ∩ b[j]|`` (multiset intersection sizes)."""
    U = np.zeros((len(a), len(b)), dtype=np.float64)
    index: dict[Hashable, list[tuple[int, int]]] = {}
    for j, feats in enumerate(b):
        for f, c in feats.items():
            index.setdefault(f, []).append((j, c))
    for i, feats in enumerate(a):
        row = U[i]
        for f, c in feats.items():
            for j, cb in index.get(f, ()):
                row[j] += c if c < cb else cb
    return U


def build_problem(
    a: Features,
    b: Features,
    allowed: np.ndarray | None = None,
    unary: np.ndarray | None = None,
) -> Problem:
    """Turn two graphs' features into an alignment :class:`Problem`.

    ``allowed``: optional boolean (n_a, n_b) candidate constraint.  ``unary``: optional
    graded unary scores replacing the feature intersection (e.g. S2match).
    """
    vocab: dict = {}
    ea = _edge_arrays(a.edges, vocab)
    eb = _edge_arrays(b.edges, vocab)
    if unary is None:
        U = unary_matrix(a.unary, b.unary)
        integral = True
    else:
        U = np.array(unary, dtype=np.float64)
        integral = bool(np.all(U == np.round(U)))
    if U.shape != (a.n, b.n):
        raise ValueError(f"unary matrix has shape {U.shape}, expected {(a.n, b.n)}")
    if allowed is None:
        allow = np.ones((a.n, b.n), dtype=np.uint8)
    else:
        allow = np.ascontiguousarray(allowed, dtype=np.uint8)
        if allow.shape != (a.n, b.n):
            raise ValueError(f"candidate matrix has shape {allow.shape}, expected {(a.n, b.n)}")
        U = np.where(allow > 0, U, 0.0)
    return _problem(U, allow, ea, eb, integral, len(vocab))


def _problem(U: np.ndarray, allow: np.ndarray, ea: np.ndarray, eb: np.ndarray, integral: bool,
             n_labels: int, columns: list | None = None) -> Problem:
    """A :class:`Problem` with its derived arrays (useful pairs, assignment-bound
    weights, trivial edge bound); ``U`` must already be zero where ``allow`` is."""
    n_a, n_b = U.shape
    U = np.ascontiguousarray(U)
    w = np.empty((n_a, n_b), dtype=np.float64)
    useful = np.empty((n_a, n_b), dtype=np.uint8)
    p = Problem(n_a, n_b, U, allow, useful, ea, eb, integral)
    p._columns = columns
    edge_bound = _kernel.weights(U, allow, *p.edge_columns(), n_a, n_b, len(ea), len(eb), n_labels,
                                 w, useful)
    p.weights, p.edge_bound, p.n_labels = w, float(edge_bound), n_labels
    return p
