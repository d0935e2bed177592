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
    inc_ptr: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    inc_edge: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    b_ptr: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    b_lab: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    b_tgt: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]

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


def _degree_matrix(edges: np.ndarray, n: int, n_labels: int, col: int) -> np.ndarray:
    D = np.zeros((n, n_labels), dtype=np.float64)
    if len(edges):
        np.add.at(D, (edges[:, col], edges[:, 2]), 1.0)
    return D


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
    U = unary_matrix(a.unary, b.unary) if unary is None else np.array(unary, dtype=np.float64)
    if U.shape != (a.n, b.n):
        raise ValueError(f"unary matrix has shape {U.shape}, expected {(a.n, b.n)}")
    if allowed is None:
        allow = np.ones((a.n, b.n), dtype=np.uint8)
    else:
        allow = np.ascontiguousarray(allowed, dtype=np.uint8)
    L = len(vocab)
    # edge compatibility: i and j share an outgoing or an incoming label
    compat = np.zeros((a.n, b.n), dtype=bool)
    if L and len(ea) and len(eb):
        for col in (0, 1):
            Da = _degree_matrix(ea, a.n, L, col) > 0
            Db = _degree_matrix(eb, b.n, L, col) > 0
            compat |= (Da.astype(np.float32) @ Db.T.astype(np.float32)) > 0
    U = np.where(allow.astype(bool), U, 0.0)
    useful = (allow.astype(bool) & ((U > 0) | compat)).astype(np.uint8)
    integral = bool(np.all(U == np.round(U)))
    p = Problem(a.n, b.n, np.ascontiguousarray(U), allow, useful, ea, eb, integral)
    _index(p)
    return p


def _index(p: Problem) -> None:
    """CSR structures for the kernel: gold incident edges, system outgoing edges."""
    ea, eb = p.a_edges, p.b_edges
    pairs = [(int(s), k) for k, (s, t, _) in enumerate(ea)]
    pairs += [(int(t), k) for k, (s, t, _) in enumerate(ea) if t != s]
    pairs.sort()
    p.inc_ptr = np.zeros(p.n_a + 1, dtype=np.int32)
    for node, _ in pairs:
        p.inc_ptr[node + 1] += 1
    np.cumsum(p.inc_ptr, out=p.inc_ptr)
    p.inc_edge = np.array([k for _, k in pairs], dtype=np.int32)
    order = np.argsort(eb[:, 0], kind="stable") if len(eb) else np.zeros(0, dtype=np.int64)
    p.b_ptr = np.zeros(p.n_b + 1, dtype=np.int32)
    if len(eb):
        np.add.at(p.b_ptr, eb[:, 0] + 1, 1)
    np.cumsum(p.b_ptr, out=p.b_ptr)
    p.b_lab = np.ascontiguousarray(eb[order, 2], dtype=np.int32)
    p.b_tgt = np.ascontiguousarray(eb[order, 1], dtype=np.int32)
