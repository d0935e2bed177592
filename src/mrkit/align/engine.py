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
5. otherwise, when allowed, a short Lagrangian probe on integral problems the full
   Lagrangian stage skips as too big (:func:`_lagrangian_probe`), then the LP relaxation
   of the exact ILP (HiGHS): if a bound is reached the result is certified;
6. otherwise the ILP itself, warm-started with the best mapping, under the pair's work
   budget (:class:`Budget`); when the model or its root does not fit, the rest of the
   budget goes to more seeded restarts; a stopped pair reports its best score and bound.

Everything is deterministic for a given seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from . import _kernel
from .bounds import (LAGRANGIAN_ITERATIONS, LAGRANGIAN_MAX_WORK, assignment_bound, directed_bound,
                     lagrangian_bound, round_bound, trivial_bound)
from .config import WORK_PER_SECOND, AlignConfig, ExactMode  # noqa: F401  (defined there, numpy-free)
from .problem import Problem, restrict


EPS = 1e-6
"""A score within EPS of an LP or MIP bound from HiGHS reaches it (HiGHS's answers are
exact up to about 1e-7).  Integral problems (Smatch, MRP) have their bounds rounded down
first, so EPS only matters for graded scores (S2match)."""
TOL = 1e-9
"""A score within TOL of a bound mrkit computes itself (assignment, directed, Lagrangian,
branch-and-bound) reaches it: those are sums of at most a few thousand doubles, exact
far beyond TOL, so a graded score is never certified when a better one exists."""


@dataclass
class Alignment:
    """The alignment of one pair: mapping, score, its upper bound and how it was proven."""

    mapping: np.ndarray
    """System node index of every gold node, -1 when unmapped."""
    score: float
    bound: float
    certified: bool
    method: str
    """How the result was proven: ``bound`` (search reached a combinatorial bound: trivial, assignment, directed or Lagrangian),
    ``branch`` (branch-and-bound closed every branch), ``lp`` (search reached the LP-relaxation bound), ``ilp`` (exact solver); not proven (see ``bound``): ``heuristic``, or ``limit`` when the
    work budget stopped the pair (``details["stopped"]`` says why)."""
    seconds: float = 0.0
    details: dict = field(default_factory=dict)


SAFETY_FACTOR = 10.0
"""The wall clock only stops a pair that has run this many times its time limit (plus a
second): a safety net far above the work limit, for a solver that cannot be stopped by
counting.  A pair stopped by it has ``details["stopped"] == "wall-clock"``."""

PY_STEP = 50.0
"""Steps charged for one Python-level item of work (building the ILP model)."""


class Budget:
    """The work a pair may still do: ``time_limit * WORK_PER_SECOND`` steps, counted
    deterministically, and a wall-clock safety net far above it (see ``SAFETY_FACTOR``).

    ``Budget(None)`` never runs out.  ``stopped`` says why a stage was skipped or cut
    short: ``"work"`` (the deterministic limit) or ``"wall-clock"`` (the safety net).
    """

    def __init__(self, time_limit: float | None) -> None:
        self.limited = time_limit is not None
        self.left = float("inf") if time_limit is None else max(0.0, float(time_limit)) * WORK_PER_SECOND
        self.deadline = (None if time_limit is None
                         else time.perf_counter() + SAFETY_FACTOR * max(0.0, float(time_limit)) + 1.0)
        self.stopped: str | None = None

    def charge(self, steps: float) -> None:
        self.left -= steps

    def afford(self, steps: float) -> bool:
        """True if ``steps`` more fit (records why not)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.stopped = "wall-clock"
            return False
        if steps > self.left:
            self.stopped = self.stopped or "work"
            return False
        return True

    def seconds_left(self) -> float | None:
        """Wall-clock time to the safety net (for solvers that cannot count our steps)."""
        return None if self.deadline is None else max(1e-3, self.deadline - time.perf_counter())


def pair_budget(config: "AlignConfig") -> Budget:
    """The budget of one pair under ``config`` (unlimited with ``exact="always"``)."""
    return Budget(None if config.exact == "always" else config.time_limit)


def _eval_cost(p: Problem) -> float:
    """Steps of one move evaluation: two nodes' incident edges, before and after."""
    return 2.0 + 4.0 * len(p.a_edges) / max(1, p.n_a)


ASSIGNMENT_STEP = 0.1
"""Steps charged per inner step of an assignment (``min(n)^2 * max(n)`` of them at most):
its inner loop is a few instructions, about a tenth of a move evaluation (measured: a
1,000-node chain takes 2.4 s for 10^9 of them)."""


def _assignment_cost(p: Problem) -> float:
    small, big = sorted((p.n_a, p.n_b))
    return ASSIGNMENT_STEP * small * small * big + float(p.n_a) * p.n_b


def _climb(p: Problem, start: np.ndarray, restarts: int, seed: int, target: float,
           budget: Budget | None = None) -> tuple[np.ndarray, float]:
    mapping = np.ascontiguousarray(start, dtype=np.int32).copy()
    cost = _eval_cost(p)
    max_evals = -1 if budget is None or budget.left == float("inf") else int(max(0.0, budget.left) // cost)
    score, evals, _used = _kernel.climb(
        p.U, p.allowed, p.useful, *p.edge_columns(), p.n_a, p.n_b, len(p.a_edges), len(p.b_edges),
        mapping, restarts, seed & 0xFFFFFFFFFFFFFFFF, target, max_evals,
    )
    if budget is not None:
        budget.charge(evals * cost + p.n_a + p.n_b + len(p.a_edges))
        if max_evals >= 0 and evals >= max_evals and score < target:
            budget.stopped = budget.stopped or "work"
    return mapping, float(score)


def _climb_rest(p: Problem, mapping: np.ndarray, score: float, bound: float, config: AlignConfig,
                budget: Budget) -> tuple[np.ndarray, float]:
    """Spend what is left of a limited budget on more seeded restarts, when the exact
    solver cannot be afforded: the limit the user set buys search, not an early stop.
    Stops at the bound, or when the (deterministic) work runs out."""
    if budget.left == float("inf") or budget.left <= 0 or budget.stopped == "wall-clock":
        return mapping, score
    m2, s2 = _climb(p, mapping, 2**31 - 1, config.seed + 1, bound - TOL, budget)
    budget.stopped = budget.stopped or "work"
    return (m2, s2) if s2 > score else (mapping, score)


def greedy_start(p: Problem) -> np.ndarray:
    """A cheap start when the assignment is too costly: gold nodes in order, each to its
    free system node of highest assignment weight (O(n_a * n_b))."""
    mapping = np.full(p.n_a, -1, dtype=np.int32)
    free = np.ones(p.n_b, dtype=bool)
    for i in range(p.n_a):
        row = np.where(free & (p.useful[i] > 0), p.weights[i], -1.0)
        j = int(np.argmax(row)) if p.n_b else -1
        if j >= 0 and row[j] > 0:
            mapping[i] = j
            free[j] = False
    return mapping


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
                      config: AlignConfig, budget: Budget | None = None) -> tuple[np.ndarray, float, bool]:
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
    small, big = sorted((p.n_a, p.n_b))
    node_cost = ASSIGNMENT_STEP * LAGRANGIAN_ITERATIONS * small * small * big + 4.0 * p.n_a * p.n_b
    while stack:
        if nodes == BRANCH_NODES:
            return mapping, score, False
        if budget is not None:
            if not budget.afford(node_cost):
                return mapping, score, False
            budget.charge(node_cost)
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
        m2, s2 = _climb(q, assignment_bound(q)[1], 1, config.seed, float("inf"), budget)
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


def align(p: Problem, config: AlignConfig = AlignConfig(), start: np.ndarray | None = None,
          budget: Budget | None = None) -> Alignment:
    """Best mapping of ``p`` with its certificate.

    ``start``: an optional mapping a caller already has (e.g. the optimum of the same
    problem under a candidate constraint); the search climbs from it first, then from
    the assignment start, and keeps the better of the two.

    ``config.time_limit`` bounds the whole pair (climbing, restarts, bounds,
    branch-and-bound, model building, LP and ILP) through a deterministic work budget
    (:class:`Budget`); ``exact="always"`` lifts it.  A pair stopped by it is reported
    uncertified with its best bound (method ``limit``, ``details["stopped"]``).
    ``budget``: a :class:`Budget` shared by several calls for one pair (a metric that
    aligns a pair more than once); by default each call has its own.
    """
    t0 = time.perf_counter()
    if p.n_a == 0 or p.n_b == 0:
        return Alignment(np.full(p.n_a, -1, dtype=np.int32), 0.0, 0.0, True, "bound", 0.0)
    if budget is None:
        budget = pair_budget(config)

    def done(mapping, score, bound, certified, method):
        details = {}
        if not certified and budget.stopped:
            method = "limit"
            details["stopped"] = budget.stopped
        return Alignment(mapping, score, bound, certified, method, time.perf_counter() - t0, details)

    bound = trivial_bound(p)
    budget.charge(float(p.n_a) * p.n_b + len(p.a_edges) + len(p.b_edges))
    a_cost = _assignment_cost(p)
    if budget.afford(a_cost):
        budget.charge(a_cost)
        b_assign, a_start = assignment_bound(p)
        bound = round_bound(p, min(b_assign, bound))
    else:
        budget.charge(4.0 * p.n_a * p.n_b)
        a_start = greedy_start(p)
        bound = round_bound(p, bound)
    target = bound - TOL
    mapping, score = None, -1.0
    if start is not None:
        mapping, score = _climb(p, start, 0, config.seed, target, budget)
    if score < target:
        m2, s2 = _climb(p, a_start, 0, config.seed, target, budget)
        if s2 > score:
            mapping, score = m2, s2
    if score >= target:
        return done(mapping, score, bound, True, "bound")
    if budget.afford(2 * a_cost):
        budget.charge(2 * a_cost)
        bound = round_bound(p, min(bound, directed_bound(p)))
        if score >= bound - TOL:
            return done(mapping, score, bound, True, "bound")
    else:
        return done(mapping, score, bound, False, "heuristic")
    small, big = sorted((p.n_a, p.n_b))
    lagrangian_work = float(LAGRANGIAN_ITERATIONS) * small * small * big
    lagrangian_cost = ASSIGNMENT_STEP * lagrangian_work
    lagrangian = float("inf")
    if lagrangian_work <= LAGRANGIAN_MAX_WORK and budget.afford(lagrangian_cost):
        budget.charge(lagrangian_cost)
        lagrangian = lagrangian_bound(p, _goal(p, score))
        bound = round_bound(p, min(bound, lagrangian))
        if score >= bound - TOL:
            return done(mapping, score, bound, True, "bound")
    if config.restarts and budget.afford(0.0):
        m2, s2 = _climb(p, mapping, config.restarts, config.seed, bound - TOL, budget)
        if s2 > score:
            mapping, score = m2, s2
        if score >= bound - TOL:
            return done(mapping, score, bound, True, "bound")
    if lagrangian < float("inf") and float(small) * small * big <= BRANCH_MAX_WORK:
        mapping, score, closed = _branch_and_bound(p, mapping, score, config, budget)
        if closed:
            return done(mapping, score, score, True, "branch")
    if config.exact == "never":
        return done(mapping, score, bound, False, "heuristic")
    if lagrangian == float("inf") and p.integral:
        probe = _lagrangian_probe(p, score, bound, budget)
        if probe is not None:
            return done(mapping, score, probe, True, "bound")
    from .ilp import build_model, model_size

    def give_up(bound: float) -> Alignment:
        best, value = _climb_rest(p, mapping, score, bound, config, budget)
        if value >= bound - TOL:
            return done(best, value, bound, True, "bound")
        return done(best, value, bound, False, "heuristic")

    n_var, n_nonzeros = model_size(p)
    if not budget.afford(PY_STEP * (n_var + n_nonzeros)):
        return give_up(bound)
    budget.charge(PY_STEP * (n_var + n_nonzeros))
    model = build_model(p)
    width = float(model.n_rows + model.n_x + model.n_y)
    # LP: a simplex iteration costs about a pass over the rows and columns
    lp_value, lp_iterations = model.lp_bound(budget.seconds_left(), _iterations(budget, width))
    budget.charge(lp_iterations * width)
    lp = round_bound(p, min(lp_value, bound))
    if score >= lp - EPS:
        return done(mapping, score, lp, True, "lp")
    if lp_value == float("inf"):  # the LP was stopped: no bound from it, no MIP
        budget.stopped = budget.stopped or "work"
        return give_up(bound)
    # MIP: the root node (cuts, heuristics) costs some LP solves, every further node about
    # a tenth of one; the node limit is the deterministic limit inside HiGHS
    root = MIP_ROOT_LPS * max(lp_iterations, 1) * width
    node = max(lp_iterations / 10.0, 1.0) * width
    if not budget.afford(root + node):
        return give_up(lp)
    max_nodes = None if budget.left == float("inf") else int(min(2**31 - 1, (budget.left - root) // node))
    res = model.solve(start=mapping, time_limit=budget.seconds_left(), max_nodes=max_nodes)
    if res.score >= score:
        mapping, score = res.mapping, res.score
    ilp_bound = round_bound(p, min(res.bound, lp))
    certified = res.optimal or score >= ilp_bound - EPS
    if not certified:
        budget.stopped = budget.stopped or ("wall-clock" if res.status == "time" else "work")
    return done(mapping, score, score if certified else ilp_bound, certified, "ilp")


PROBE_ITERATIONS = 10
"""Subgradient steps of the Lagrangian probe before the LP (see :func:`_lagrangian_probe`)."""
PROBE_MAX_WORK = 1e8
"""The probe runs when its assignments cost at most this many steps in all
(``min(n)^2 * max(n) * PROBE_ITERATIONS``: up to about 215 nodes a side)."""


def _lagrangian_probe(p: Problem, score: float, bound: float, budget: Budget) -> float | None:
    """The certified bound (== ``score``) when a short Lagrangian bound proves ``score``
    optimal, else ``None``; tried before the LP on integral problems too big for the full
    Lagrangian stage (``LAGRANGIAN_MAX_WORK``).  Document graphs under the sentence
    constraint are the case: 160 nodes a side, three or four subgradient steps prove the
    optimum the LP proves, without importing HiGHS or building the model.

    It changes nothing else: when it does not prove the score, its bound is dropped and
    its work is not charged, so the LP and ILP run on exactly the budget, bound and
    mapping they had without it (the cost of a failed probe is at most
    ``PROBE_ITERATIONS`` assignments).  When it proves the score, its work is charged."""
    small, big = sorted((p.n_a, p.n_b))
    cost = ASSIGNMENT_STEP * PROBE_ITERATIONS * float(small) * small * big
    if float(small) * small * big * PROBE_ITERATIONS > PROBE_MAX_WORK or cost > budget.left:
        return None  # (not budget.afford: a probe not run must not mark the pair stopped)
    b = round_bound(p, min(bound, lagrangian_bound(p, _goal(p, score), PROBE_ITERATIONS, PROBE_MAX_WORK)))
    if score >= b - TOL:
        budget.charge(cost)
        return b
    return None


MIP_ROOT_LPS = 10.0
"""The MIP's root node is charged this many LP relaxations (HiGHS's root, with its cuts
and heuristics, took about six times the LP's simplex iterations on the hardest pairs
measured)."""


def _iterations(budget: Budget, width: float) -> int | None:
    """Simplex iterations the budget affords for a model of this width."""
    if budget.left == float("inf"):
        return None
    return int(min(2**31 - 1, max(1.0, budget.left / max(width, 1.0))))
