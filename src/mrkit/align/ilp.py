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

import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .problem import Problem


@dataclass
class ILPResult:
    mapping: np.ndarray
    score: float
    bound: float
    optimal: bool
    seconds: float


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
        n_var = n_x + n_y
        obj += [1.0] * n_y

        rows: list[tuple[list[int], list[float], float]] = []  # (indices, values, upper)
        by_i: dict[int, list[int]] = defaultdict(list)
        by_j: dict[int, list[int]] = defaultdict(list)
        for k, (i, j) in enumerate(pairs):
            by_i[int(i)].append(k)
            by_j[int(j)].append(k)
        for ks in list(by_i.values()) + list(by_j.values()):
            if len(ks) > 1:
                rows.append((ks, [1.0] * len(ks), 1.0))
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
            rows.append((ys + [x], [1.0] * len(ys) + [-1.0], 0.0))

        inf = highspy.kHighsInf
        lp = highspy.HighsLp()
        lp.num_col_ = n_var
        lp.num_row_ = len(rows)
        lp.col_cost_ = np.array(obj, dtype=np.float64)
        lp.col_lower_ = np.zeros(n_var)
        lp.col_upper_ = np.ones(n_var)
        lp.row_lower_ = np.full(len(rows), -inf)
        lp.row_upper_ = np.array([r[2] for r in rows], dtype=np.float64)
        lp.sense_ = highspy.ObjSense.kMaximize
        # row-wise matrix
        starts, index, value = [0], [], []
        for idx, val, _ in rows:
            index.extend(idx)
            value.extend(val)
            starts.append(len(index))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=np.float64)
        lp.a_matrix_.num_col_ = n_var
        lp.a_matrix_.num_row_ = len(rows)
        self.lp = lp
        self.pairs, self.xid, self.y_list, self.n_x, self.n_y = pairs, xid, y_list, n_x, n_y

    def _highs(self, time_limit: float | None):
        import highspy

        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 1e-6)
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        return h

    def lp_bound(self, time_limit: float | None = None) -> float:
        """Optimal value of the LP relaxation: an upper bound of the objective."""
        import highspy

        if self.n_x + self.n_y == 0:
            return 0.0
        h = self._highs(time_limit)
        h.setOptionValue("presolve", "off")  # tiny LPs: presolve costs more than it saves
        self.lp.integrality_ = []
        h.passModel(self.lp)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return float("inf")
        # the simplex solution is optimal up to tolerances
        return float(h.getInfo().objective_function_value) + 1e-7

    def solve(self, start: np.ndarray | None, time_limit: float | None) -> ILPResult:
        import highspy

        t0 = time.perf_counter()
        p, pairs, xid, y_list, n_x, n_y = self.p, self.pairs, self.xid, self.y_list, self.n_x, self.n_y
        n_var = n_x + n_y
        h = self._highs(time_limit)
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
        optimal = status == highspy.HighsModelStatus.kOptimal or n_var == 0
        bound = score if optimal else float(info.mip_dual_bound)
        if start is not None:
            s0 = p.score(start)
            if s0 > score:
                mapping, score = np.array(start, dtype=np.int32), s0
        return ILPResult(mapping, score, max(bound, score), optimal, time.perf_counter() - t0)


def solve_ilp(p: Problem, start: np.ndarray | None = None, time_limit: float | None = 10.0) -> ILPResult:
    """Solve the ILP of a problem exactly (or until the time limit)."""
    return _Model(p).solve(start, time_limit)


def build_model(p: Problem) -> _Model:
    return _Model(p)
