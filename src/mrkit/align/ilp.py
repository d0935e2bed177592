"""Exact alignment: the integer linear program of the founders' note, solved by HiGHS.

Variables: ``x_ij`` (binary) for every useful pair; ``y_ef`` (continuous in [0, 1]) for a
gold edge e and a system edge f with the same label whose endpoint pairs are both useful.
Constraints: each gold / system node is used at most once; for a gold edge e = (i, l, i')
and a system node j, the y of the system edges leaving j with label l sum to at most
``x_ij`` (likewise for the target side, and symmetrically for every system edge and gold
node).  These aggregated constraints imply ``y_ef <= x_ij`` and keep the relaxation tight.
Objective: ``sum U_ij x_ij + sum y_ef``.
"""

from __future__ import annotations

import _thread
import os
import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from .problem import Problem


@dataclass
class ILPResult:
    """What the ILP returned: mapping, score, bound, whether it proved the optimum, and why it stopped."""

    mapping: np.ndarray
    score: float
    bound: float
    optimal: bool
    seconds: float
    status: str = "optimal"
    """``optimal``, ``time`` (the wall-clock safety net stopped it) or ``work`` (the node limit)."""


def _flush_c_stdio() -> None:
    """Flush the C library's stdio buffers (what HiGHS printed is then written out)."""
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except Exception:  # no C library to flush (e.g. Windows): nothing buffered there
        pass


@contextmanager
def _silenced_fds() -> None:
    """File descriptors 1 and 2 go to the null device for the duration.

    HiGHS writes its banner with C stdio, below Python: ``contextlib.redirect_stdout``
    cannot catch it, and in a notebook fd 1 is not even the cell's output.  C buffers are
    flushed before (so nothing printed earlier is lost) and after (so nothing HiGHS printed
    is written later).  A descriptor that was closed is closed again afterwards.
    """
    _flush_c_stdio()
    devnull = os.open(os.devnull, os.O_WRONLY)
    saved: list[tuple[int, int | None]] = []
    try:
        for fd in (1, 2):
            try:
                saved.append((fd, os.dup(fd)))
            except OSError:
                saved.append((fd, None))
            os.dup2(devnull, fd)
        yield
    finally:
        _flush_c_stdio()
        for fd, old in saved:
            if old is None:
                os.close(fd)
            else:
                os.dup2(old, fd)
                os.close(old)
        os.close(devnull)


_INT_MAX = 2**31 - 1

_SOLVERS: dict = {}
"""(process id, thread id) -> HiGHS instance: one solver per thread of each process,
created silently and reused."""

_SILENCING = _thread.allocate_lock()
"""Held while fds 1 and 2 point to the null device: two threads silencing at once would
each save the other's null device as the descriptor to restore (standard output lost for
the rest of the run)."""


def quiet_highs():
    """This thread's HiGHS instance, with no model and logging off.

    highspy (1.16) prints a banner from the constructor, before any option applies, on
    the C-level stdout: the instance is therefore built once per thread with fds 1 and 2
    pointing to the null device (one thread at a time), and reused (its model cleared) for
    every solve of that thread.  Worker processes (fork) and threads (``smatch -j 2``: the
    pairs the compiled stage leaves open reach the LP and ILP on either thread) get their
    own on first use: an instance holds one model, and two solves on one would mix them.
    """
    key = (os.getpid(), _thread.get_ident())
    h = _SOLVERS.get(key)
    if h is None:
        import highspy

        with _SILENCING, _silenced_fds():
            h = highspy.Highs()
            h.setOptionValue("output_flag", False)
        if len(_SOLVERS) >= 16:  # threads come and go: no unbounded growth
            _SOLVERS.clear()
        _SOLVERS[key] = h
    h.clearModel()
    return h


def configured_highs(time_limit: float | None = None, iterations: int | None = None,
                     max_nodes: int | None = None):
    """This thread's HiGHS instance (:func:`quiet_highs`) with every option mrkit sets:
    one thread, exact MIP gaps, and the limits given (``None``: none)."""
    # the instance is reused: every option mrkit ever sets is set on every solve
    h = quiet_highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1e-6)
    h.setOptionValue("presolve", "choose")
    h.setOptionValue("simplex_iteration_limit", _INT_MAX if iterations is None else int(iterations))
    h.setOptionValue("mip_max_nodes", _INT_MAX if max_nodes is None else max(1, int(max_nodes)))
    # HiGHS compares its time limit with the run clock of the instance, which adds
    # up over every run of the (reused) instance
    h.setOptionValue("time_limit", float("inf") if time_limit is None else h.getRunTime() + float(time_limit))
    return h


def rowwise_lp(cost, rows):
    """A HiGHS model that maximises ``cost`` over columns in [0, 1] subject to ``rows``
    ``(columns, values, lower, upper)`` (the matrix written row-wise); integrality is the
    caller's."""
    import highspy

    n, m = len(cost), len(rows)
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = m
    lp.col_cost_ = np.array(cost, dtype=np.float64)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.ones(n)
    lp.row_lower_ = np.array([r[2] for r in rows], dtype=np.float64)
    lp.row_upper_ = np.array([r[3] for r in rows], dtype=np.float64)
    lp.sense_ = highspy.ObjSense.kMaximize
    starts, index, value = [0], [], []
    for cols, vals, _, _ in rows:
        index.extend(cols)
        value.extend(vals)
        starts.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=np.float64)
    lp.a_matrix_.num_col_ = n
    lp.a_matrix_.num_row_ = m
    return lp


class _Model:
    """The ILP of a problem, built once: its LP relaxation and the MIP share it."""

    def __init__(self, p: Problem) -> None:
        import highspy

        self.p = p
        pairs = np.argwhere(p.useful > 0)
        xid = {(int(i), int(j)): k for k, (i, j) in enumerate(pairs)}
        n_x = len(pairs)
        obj = [float(p.U[i, j]) for i, j in pairs]

        # y variables
        b_by_label: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for f, (s, t, lab) in enumerate(p.b_edges):
            b_by_label[int(lab)].append((f, int(s), int(t)))
        y_list: list[tuple[int, int, int, int, int, int]] = []  # e, f, i, j, i2, j2
        for e, (s, t, lab) in enumerate(p.a_edges):
            s, t = int(s), int(t)
            for f, js, jt in b_by_label.get(int(lab), ()):
                if (s, js) in xid and (t, jt) in xid:
                    if s == t and js != jt or s != t and js == jt:
                        continue  # a loop can only match a loop
                    y_list.append((e, f, s, js, t, jt))
        n_y = len(y_list)
        obj += [1.0] * n_y

        rows: list[tuple[list[int], list[float], float, float]] = []  # (indices, values, lower, upper)
        inf = highspy.kHighsInf
        by_i: dict[int, list[int]] = defaultdict(list)
        by_j: dict[int, list[int]] = defaultdict(list)
        for k, (i, j) in enumerate(pairs):
            by_i[int(i)].append(k)
            by_j[int(j)].append(k)
        for ks in list(by_i.values()) + list(by_j.values()):
            if len(ks) > 1:
                rows.append((ks, [1.0] * len(ks), -inf, 1.0))
        # aggregated linking constraints: sum of y over a group <= x of the shared pair
        groups: dict[tuple, list[int]] = defaultdict(list)
        for k, (e, f, i, j, i2, j2) in enumerate(y_list):
            y = n_x + k
            groups[("as", e, j)].append(y)       # gold edge e, its source to system node j
            groups[("at", e, j2)].append(y)      # gold edge e, its target to system node j2
            groups[("bs", f, i)].append(y)       # system edge f, its source to gold node i
            groups[("bt", f, i2)].append(y)      # system edge f, its target to gold node i2
        for key, ys in groups.items():
            kind, e_or_f, node = key
            if kind == "as":
                pair = (int(p.a_edges[e_or_f][0]), node)
            elif kind == "at":
                pair = (int(p.a_edges[e_or_f][1]), node)
            elif kind == "bs":
                pair = (node, int(p.b_edges[e_or_f][0]))
            else:
                pair = (node, int(p.b_edges[e_or_f][1]))
            x = xid[pair]
            rows.append((ys + [x], [1.0] * len(ys) + [-1.0], -inf, 0.0))

        self.lp = rowwise_lp(obj, rows)
        self.pairs, self.xid, self.y_list, self.n_x, self.n_y = pairs, xid, y_list, n_x, n_y

    @property
    def n_rows(self) -> int:
        return int(self.lp.num_row_)

    def _highs(self, time_limit: float | None, iterations: int | None = None, max_nodes: int | None = None):
        return configured_highs(time_limit, iterations, max_nodes)

    def lp_bound(self, time_limit: float | None = None, iterations: int | None = None) -> tuple[float, int]:
        """(optimal value of the LP relaxation, simplex iterations used): an upper bound of
        the objective, ``inf`` when the iteration or time limit stopped it."""
        import highspy

        if self.n_x + self.n_y == 0:
            return 0.0, 0
        h = self._highs(time_limit, iterations)
        h.setOptionValue("presolve", "off")  # tiny LPs: presolve costs more than it saves
        self.lp.integrality_ = []
        h.passModel(self.lp)
        h.run()
        used = int(h.getInfo().simplex_iteration_count)
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return float("inf"), used
        # the simplex solution is optimal up to tolerances
        return float(h.getInfo().objective_function_value) + 1e-7, used

    def solve(self, start: np.ndarray | None, time_limit: float | None,
              max_nodes: int | None = None) -> ILPResult:
        """The ILP solved by HiGHS from the climber's mapping ``start``.  The mapping read
        back is trusted as optimal only when it reaches the objective HiGHS reports: with a
        start solution, HiGHS 1.16 can report "optimal" with a better objective and return
        the start unchanged (a Bio pair: 15 of 17 triples certified); the model is then
        solved again without the start, and a mapping that still falls short is reported
        with HiGHS's value as its bound, never as optimal."""
        t0 = time.perf_counter()
        mapping, score, bound, optimal, reason = self._solved(start, time_limit, max_nodes)
        if not optimal and reason == "short" and start is not None:
            left = None if time_limit is None else max(0.0, float(time_limit) - (time.perf_counter() - t0))
            mapping2, score2, bound2, optimal2, reason2 = self._solved(None, left, max_nodes)
            if optimal2 or score2 > score:
                mapping, score, optimal, reason = mapping2, score2, optimal2, reason2
            bound = bound2 if optimal2 else max(bound, bound2)
        if start is not None:
            s0 = self.p.score(start)
            if s0 > score:
                mapping, score = np.array(start, dtype=np.int32), s0
        if reason == "short":
            reason = "work"
        return ILPResult(mapping, score, max(bound, score), optimal, time.perf_counter() - t0, reason)

    def _solved(self, start: np.ndarray | None, time_limit: float | None, max_nodes: int | None):
        """``(mapping, score, bound, optimal, reason)`` of one run of HiGHS; reason
        ``short``: HiGHS said optimal, but its mapping does not reach its objective."""
        import highspy

        p, pairs, xid, y_list, n_x, n_y = self.p, self.pairs, self.xid, self.y_list, self.n_x, self.n_y
        n_var = n_x + n_y
        h = self._highs(time_limit, max_nodes=max_nodes)
        self.lp.integrality_ = [highspy.HighsVarType.kInteger] * n_x + [highspy.HighsVarType.kContinuous] * n_y
        h.passModel(self.lp)

        if start is not None and n_var:
            sol = np.zeros(n_var)
            for i, j in enumerate(start):
                if j >= 0 and (i, int(j)) in xid:
                    sol[xid[(i, int(j))]] = 1.0
            for k, (e, f, i, j, i2, j2) in enumerate(y_list):
                if start[i] == j and start[i2] == j2:
                    sol[n_x + k] = 1.0
            hs = highspy.HighsSolution()
            hs.col_value = list(sol)
            hs.value_valid = True
            h.setSolution(hs)

        h.run()
        status = h.getModelStatus()
        info = h.getInfo()
        mapping = np.full(p.n_a, -1, dtype=np.int32)
        if n_var:
            values = np.asarray(h.getSolution().col_value[:n_x])
            if len(values) == n_x:
                for k in np.flatnonzero(values > 0.5):
                    i, j = pairs[k]
                    mapping[i] = j
        score = p.score(mapping)
        if n_var == 0:
            return mapping, score, score, True, "optimal"
        if status == highspy.HighsModelStatus.kOptimal:
            objective = float(info.objective_function_value)
            if score >= objective - _SHORT_TOL:
                return mapping, score, score, True, "optimal"
            # the objective HiGHS proved, which its mapping does not reach
            return mapping, score, max(objective, float(info.mip_dual_bound)), False, "short"
        reason = "time" if status == highspy.HighsModelStatus.kTimeLimit else "work"
        return mapping, score, float(info.mip_dual_bound), False, reason


_SHORT_TOL = 1e-6
"""How far below HiGHS's optimal objective the mapping it returns may score and still be
its optimum (its absolute gap, ``mip_abs_gap``)."""


def solve_ilp(p: Problem, start: np.ndarray | None = None, time_limit: float | None = 10.0) -> ILPResult:
    """Solve the ILP of a problem exactly (or until the time limit)."""
    return _Model(p).solve(start, time_limit)


def model_size(p: Problem) -> tuple[int, int]:
    """Upper bounds of the ILP's variables and nonzeros, without building it: every
    useful pair, and every pair of a gold and a system edge with the same label."""
    n_x = int(np.count_nonzero(p.useful))
    n_y = 0
    if len(p.a_edges) and len(p.b_edges):
        ca = np.bincount(p.a_edges[:, 2], minlength=p.n_labels)
        cb = np.bincount(p.b_edges[:, 2], minlength=p.n_labels)
        k = min(len(ca), len(cb))
        n_y = int(np.dot(ca[:k].astype(np.float64), cb[:k].astype(np.float64)))
    return n_x + n_y, 2 * n_x + 5 * n_y


def build_model(p: Problem) -> _Model:
    return _Model(p)
