"""Upper bounds on the best objective of a :class:`~mrkit.align.problem.Problem`.

* trivial: the unary part cannot exceed the best row (or column) maxima, and the edges
  matched cannot exceed the per-label multiset intersection of the two edge lists;
* assignment: give every allowed pair the weight ``U[i, j]`` plus half of the edges that
  could match if i -> j (per label and direction, the smaller of the two degrees); each
  matched edge is then paid for half at each endpoint, so a maximum-weight assignment
  bounds the objective.  Its solution is also a good start for the search.
"""

from __future__ import annotations

import numpy as np

from . import _kernel
from .problem import Problem


def trivial_bound(p: Problem) -> float:
    if p.n_a == 0 or p.n_b == 0:
        return 0.0
    unary = min(p.U.max(axis=1).sum(), p.U.max(axis=0).sum())
    edges = 0
    if len(p.a_edges) and len(p.b_edges):
        ca = np.bincount(p.a_edges[:, 2])
        cb = np.bincount(p.b_edges[:, 2])
        k = min(len(ca), len(cb))
        edges = int(np.minimum(ca[:k], cb[:k]).sum())
    return float(unary + edges)


def assignment_weights(p: Problem) -> np.ndarray:
    w = p.U.copy()
    ea, eb = p.a_edges, p.b_edges
    if len(ea) and len(eb):
        n_labels = int(max(ea[:, 2].max(), eb[:, 2].max())) + 1
        for col in (0, 1):  # outgoing, incoming
            Da = np.zeros((p.n_a, n_labels))
            Db = np.zeros((p.n_b, n_labels))
            np.add.at(Da, (ea[:, col], ea[:, 2]), 1.0)
            np.add.at(Db, (eb[:, col], eb[:, 2]), 1.0)
            for lab in np.intersect1d(np.flatnonzero(Da.sum(0)), np.flatnonzero(Db.sum(0))):
                rows = np.flatnonzero(Da[:, lab])
                cols = np.flatnonzero(Db[:, lab])
                w[np.ix_(rows, cols)] += 0.5 * np.minimum.outer(Da[rows, lab], Db[cols, lab])
    w *= p.allowed
    return w


def assignment_bound(p: Problem) -> tuple[float, np.ndarray]:
    """(bound, mapping): the maximum-weight assignment and its value."""
    mapping = np.full(p.n_a, -1, dtype=np.int32)
    if p.n_a == 0 or p.n_b == 0:
        return 0.0, mapping
    w = np.ascontiguousarray(assignment_weights(p), dtype=np.float64)
    total = _kernel.lsa(w, p.n_a, p.n_b, mapping)
    # pairs of weight 0 are as good as unmapped; disallowed pairs must not be used
    for i, j in enumerate(mapping):
        if j >= 0 and not p.useful[i, j]:
            mapping[i] = -1
    return float(total), mapping


def round_bound(p: Problem, bound: float) -> float:
    """Integral problems have integral optima: round the bound down."""
    return float(np.floor(bound + 1e-9)) if p.integral else bound
