"""Upper bounds on the best objective of a :class:`~mrkit.align.problem.Problem`.

* trivial: the unary part cannot exceed the best row (or column) maxima, and the edges
  matched cannot exceed the per-label multiset intersection of the two edge lists;
* assignment: give every allowed pair the weight ``U[i, j]`` plus half of the edges that
  could match if i -> j (per label and direction, the smaller of the two degrees); each
  matched edge is then paid for half at each endpoint, so a maximum-weight assignment
  bounds the objective.  Its solution is also a good start for the search;
* directed: the same with each edge paid in full at its source (or its target);
* Lagrangian: each possible edge match paid ``lam`` at its source pair and ``1 - lam`` at
  its target pair, ``lam`` tuned by subgradient steps (see ``_kernel.c``); it closes most
  of the half-edge gaps the assignment bound leaves on graded problems (S2match), where
  rounding down cannot.
"""

from __future__ import annotations

import numpy as np

from . import _kernel
from .problem import Problem


def trivial_bound(p: Problem) -> float:
    if p.n_a == 0 or p.n_b == 0:
        return 0.0
    unary = min(p.U.max(axis=1).sum(), p.U.max(axis=0).sum())
    return float(unary + p.edge_bound)


def assignment_bound(p: Problem) -> tuple[float, np.ndarray]:
    """(bound, mapping): the maximum-weight assignment and its value."""
    mapping = np.full(p.n_a, -1, dtype=np.int32)
    if p.n_a == 0 or p.n_b == 0:
        return 0.0, mapping
    total = _kernel.lsa(p.weights, p.n_a, p.n_b, mapping)
    # pairs of weight 0 are as good as unmapped; disallowed pairs must not be used
    rows = np.flatnonzero(mapping >= 0)
    mapping[rows[p.useful[rows, mapping[rows]] == 0]] = -1
    return float(total), mapping


def directed_bound(p: Problem) -> float:
    """The assignment bound with each edge paid in full at its source (or its target).

    Neither dominates the half-and-half bound nor the other; their minimum certifies many
    pairs the first bound leaves open (most useful for graded scores, which cannot be
    rounded down).
    """
    if p.n_a == 0 or p.n_b == 0:
        return 0.0
    w = np.empty((p.n_a, p.n_b), dtype=np.float64)
    useful = np.empty((p.n_a, p.n_b), dtype=np.uint8)
    mapping = np.full(p.n_a, -1, dtype=np.int32)
    best = float("inf")
    for mode in (1, 2):
        _kernel.weights(p.U, p.allowed, *p.edge_columns(), p.n_a, p.n_b, len(p.a_edges),
                        len(p.b_edges), p.n_labels, w, useful, mode)
        best = min(best, _kernel.lsa(w, p.n_a, p.n_b, mapping))
    return float(best)


LAGRANGIAN_ITERATIONS = 50
LAGRANGIAN_MAX_WORK = 5e7
"""Skip the Lagrangian bound when one assignment (about min(n)^2 * max(n) steps) times the
iterations would cost more than this many steps; the LP is then the next bound."""
LAGRANGIAN_MAX_CANDIDATES = 2_000_000


def lagrangian_bound(p: Problem, target: float = float("-inf"),
                     iterations: int = LAGRANGIAN_ITERATIONS, max_work: float = LAGRANGIAN_MAX_WORK) -> float:
    """Best Lagrangian bound found in ``iterations`` subgradient steps (stops once it is
    below ``target``); ``inf`` when the problem is too big for it (more than ``max_work``
    assignment steps) or has no edge to match."""
    if p.n_a == 0 or p.n_b == 0:
        return 0.0
    small, big = sorted((p.n_a, p.n_b))
    if float(small) * small * big * iterations > max_work:
        return float("inf")
    return float(_kernel.lagrangian(p.U, p.allowed, *p.edge_columns(), p.n_a, p.n_b, len(p.a_edges),
                                    len(p.b_edges), iterations, target, LAGRANGIAN_MAX_CANDIDATES))


def round_bound(p: Problem, bound: float) -> float:
    """Integral problems have integral optima: round the bound down."""
    return float(np.floor(bound + 1e-9)) if p.integral else bound
