"""The one alignment engine: heuristic search, upper bound, exact ILP.

``align(problem)`` runs, in order:

1. the assignment bound (and the trivial bound), whose maximum-weight assignment is the
   smart start of the search;
2. compiled hill-climbing from that start; if the score reaches the bound, the result
   is **certified optimal**;
3. otherwise the directed and then the Lagrangian bound (:mod:`mrkit.align.bounds`),
   each of which may still certify the score; otherwise climbing from seeded random
   starts, stopping as soon as the bound is reached (most graded scores, S2match's, are
   certified by a bound without them);
4. otherwise a small branch-and-bound on the Lagrangian bound (at most
   ``BRANCH_NODES`` nodes): it splits on a gold node's image, climbs inside every
   branch it cannot close, and certifies the best mapping when every branch is closed;
5. otherwise, when allowed, the LP relaxation of the exact ILP (HiGHS): if its bound is
   reached the result is certified;
6. otherwise the ILP itself, warm-started with the best mapping, under a per-pair time
   limit; if the limit is hit, the best score and the best bound are reported.

Everything is deterministic for a given seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from . import _kernel
from .bounds import assignment_bound, directed_bound, lagrangian_bound, round_bound, trivial_bound
from .problem import Problem, restrict

ExactMode = Literal["auto", "always", "never"]

EPS = 1e-6
"""A score within EPS of an LP or MIP bound from HiGHS reaches it (HiGHS's answers are
exact up to about 1e-7).  Integral problems (Smatch, MRP) have their bounds rounded down
first, so EPS only matters for graded scores (S2match)."""
TOL = 1e-9
"""A score within TOL of a bound mrkit computes itself (assignment, directed, Lagrangian,
branch-and-bound) reaches it: those are sums of at most a few thousand doubles, exact
far beyond TOL, so a graded score is never certified when a better one exists."""


@dataclass(frozen=True)
class AlignConfig:
    """How hard to search.

    ``restarts``: random restarts of the hill-climber after the smart start.
    ``seed``: seed of the random starts.  ``exact``: ``"auto"`` solves the ILP only when
    the bound is not reached, ``"always"`` proves every pair with the ILP when the bound
    is not reached and with no time limit, ``"never"`` reports the bound instead.
    ``time_limit``: seconds per pair for the ILP in ``"auto"`` mode.
    """

    restarts: int = 4
    seed: int = 0
    exact: ExactMode = "auto"
    time_limit: float | None = 10.0


@dataclass
class Alignment:
    mapping: np.ndarray
    """System node index of every gold node, -1 when unmapped."""
    score: float
    bound: float
    certified: bool
    method: str
    """How the result was proven: ``bound`` (search reached a combinatorial bound: trivial, assignment, directed or Lagrangian),
    ``branch`` (branch-and-bound closed every branch), ``lp`` (search reached the LP-relaxation bound), ``ilp`` (exact solver), ``ilp-timeout`` / ``heuristic`` (not proven: see ``bound``)."""
    seconds: float = 0.0
    details: dict = field(default_factory=dict)


def _climb(p: Problem, start: np.ndarray, restarts: int, seed: int, target: float) -> tuple[np.ndarray, float]:
    mapping = np.ascontiguousarray(start, dtype=np.int32).copy()
    score, _evals, _used = _kernel.climb(
        p.U, p.allowed, p.useful, *p.edge_columns(), p.n_a, p.n_b, len(p.a_edges), len(p.b_edges),
        mapping, restarts, seed & 0xFFFFFFFFFFFFFFFF, target,
    )
    return mapping, float(score)


def _goal(p: Problem, score: float) -> float:
    """A bound below this certifies ``score`` (an integral bound below score + 1 rounds
    down to it): where an iterative bound may stop."""
    return score + (1.0 - 2e-9 if p.integral else TOL)


BRANCH_NODES = 64
"""Branch-and-bound nodes per pair before the LP / ILP takes over."""
BRANCH_MAX_WORK = 2e5
"""Branch only when one assignment costs at most this many steps (min(n)^2 * max(n),
about 58 nodes a side): every node runs up to 50 of them, and on bigger problems the
LP / ILP is the better use of the time."""


def _branch_and_bound(p: Problem, mapping: np.ndarray, score: float,
                      config: AlignConfig) -> tuple[np.ndarray, float, bool]:
    """Depth-first branch-and-bound over candidate constraints, bounded by the
    Lagrangian bound: (best mapping, its score, True if every branch was closed).

    A branch is closed when its bound does not exceed the best score.  Otherwise the
    search climbs inside it (the best mapping may improve) and splits it on the gold node
    of highest degree among those with two or more useful images: one child per image j
    (the node may map only to j, and j to no other node) and one where it is unmapped.
    The children cover every mapping of the parent.  When no node has two images left,
    the branch is settled exactly: images that do not collide are all taken (adding a
    pair never lowers the objective), a contested system node is split among its
    claimants.
    """

    def closed(b: float) -> bool:
        return round_bound(p, b) <= score + TOL

    degree = np.bincount(p.a_edges[:, :2].ravel(), minlength=p.n_a) if len(p.a_edges) else np.zeros(p.n_a)
    stack = [p.allowed]
    nodes = 0
    while stack:
        if nodes == BRANCH_NODES:
            return mapping, score, False
        nodes += 1
        allowed = stack.pop()
        q = restrict(p, allowed)
        b = lagrangian_bound(q, _goal(p, score))
        if closed(b):
            continue
        options = (q.useful > 0).sum(axis=1)
        split = np.flatnonzero(options >= 2)
        if len(split) == 0:
            rows, cols = np.nonzero(q.useful)
            claims = np.bincount(cols, minlength=p.n_b)
            if claims.max(initial=0) <= 1:
                leaf = np.full(p.n_a, -1, dtype=np.int32)
                leaf[rows] = cols
                value = p.score(leaf)
                if value > score:
                    mapping, score = leaf, value
                continue
            j = int(np.argmax(claims))
            child = allowed.copy()
            child[:, j] = 0
            stack.append(child)
            for i in rows[cols == j]:
                child = allowed.copy()
                child[:, j] = 0
                child[i, j] = 1
                stack.append(child)
            continue
        m2, s2 = _climb(q, assignment_bound(q)[1], 1, config.seed, float("inf"))
        if s2 > score:
            mapping, score = m2, s2
            if closed(b):
                continue
        i = int(split[np.argmax(degree[split] * (p.n_b + 1) - options[split])])
        child = allowed.copy()
        child[i, :] = 0
        stack.append(child)
        for j in np.flatnonzero(q.useful[i]):
            child = allowed.copy()
            child[i, :] = 0
            child[:, j] = 0
            child[i, j] = 1
            stack.append(child)
    return mapping, score, True


def align(p: Problem, config: AlignConfig = AlignConfig(), start: np.ndarray | None = None) -> Alignment:
    """Best mapping of ``p`` with its certificate.

    ``start``: an optional mapping a caller already has (e.g. the optimum of the same
    problem under a candidate constraint); the search climbs from it first, then from
    the assignment start, and keeps the better of the two.
    """
    t0 = time.perf_counter()
    if p.n_a == 0 or p.n_b == 0:
        return Alignment(np.full(p.n_a, -1, dtype=np.int32), 0.0, 0.0, True, "bound", 0.0)
    b_assign, a_start = assignment_bound(p)
    bound = round_bound(p, min(b_assign, trivial_bound(p)))
    target = bound - TOL
    mapping, score = None, -1.0
    if start is not None:
        mapping, score = _climb(p, start, 0, config.seed, target)
    if score < target:
        m2, s2 = _climb(p, a_start, 0, config.seed, target)
        if s2 > score:
            mapping, score = m2, s2
    if score >= target:
        return Alignment(mapping, score, bound, True, "bound", time.perf_counter() - t0)
    bound = round_bound(p, min(bound, directed_bound(p)))
    if score >= bound - TOL:
        return Alignment(mapping, score, bound, True, "bound", time.perf_counter() - t0)
    lagrangian = lagrangian_bound(p, _goal(p, score))
    bound = round_bound(p, min(bound, lagrangian))
    if score >= bound - TOL:
        return Alignment(mapping, score, bound, True, "bound", time.perf_counter() - t0)
    if config.restarts:
        m2, s2 = _climb(p, mapping, config.restarts, config.seed, bound - TOL)
        if s2 > score:
            mapping, score = m2, s2
        if score >= bound - TOL:
            return Alignment(mapping, score, bound, True, "bound", time.perf_counter() - t0)
    small, big = sorted((p.n_a, p.n_b))
    if lagrangian < float("inf") and float(small) * small * big <= BRANCH_MAX_WORK:
        mapping, score, closed = _branch_and_bound(p, mapping, score, config)
        if closed:
            return Alignment(mapping, score, score, True, "branch", time.perf_counter() - t0)
    if config.exact == "never":
        return Alignment(mapping, score, bound, False, "heuristic", time.perf_counter() - t0)
    from .ilp import build_model

    # the time limit is a budget for the whole pair: what the LP used, the MIP cannot
    deadline = None if config.exact == "always" or config.time_limit is None else t0 + config.time_limit

    def remaining() -> float | None:
        return None if deadline is None else max(1e-3, deadline - time.perf_counter())

    model = build_model(p)
    lp = round_bound(p, min(model.lp_bound(remaining()), bound))
    if score >= lp - EPS:
        return Alignment(mapping, score, lp, True, "lp", time.perf_counter() - t0)
    res = model.solve(start=mapping, time_limit=remaining())
    if res.score >= score:
        mapping, score = res.mapping, res.score
    ilp_bound = round_bound(p, min(res.bound, lp))
    certified = res.optimal or score >= ilp_bound - EPS
    return Alignment(
        mapping, score, score if certified else ilp_bound, certified,
        "ilp" if certified else "ilp-timeout", time.perf_counter() - t0,
    )
