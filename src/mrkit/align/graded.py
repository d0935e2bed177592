"""The compiled first stage of the engine for graded unary scores (S2match).

:func:`graded_stage` runs :func:`mrkit.align.engine.align`'s stages before its LP (trivial,
assignment, directed and Lagrangian bounds, climbing, seeded restarts, branch-and-bound)
in C (``_kernel.graded_stage``) on the problem S2match builds: unary score = shared
attribute features + a graded similarity table (+ the table again on pairs of top nodes),
relations as edges.  Whatever it certifies is exactly what ``align()`` returns for that
problem (score, bound, method, mapping: the same steps, the same float operations); a
pair it does not certify gives ``None`` and goes to ``align()`` as before.  numpy-free:
the table is any float64 buffer.
"""

from __future__ import annotations

from . import _kernel
from .config import WORK_PER_SECOND, AlignConfig


def stage_work(config: AlignConfig) -> float:
    """The pair's work budget in steps as :func:`mrkit.align.engine.pair_budget` sets it
    (negative: unlimited)."""
    if config.exact == "always" or config.time_limit is None:
        return -1.0
    return max(0.0, float(config.time_limit)) * WORK_PER_SECOND


def graded_stage(S, n_a: int, n_b: int, a_attributes: list, b_attributes: list, a_relations: list,
                 b_relations: list, a_tops: list, b_tops: list, config: AlignConfig = AlignConfig(),
                 work: float | None = None):
    """``(score, bound, method, mapping)`` of the pair when the compiled stages certify it
    (``method``: ``"bound"`` or ``"branch"``; ``mapping``: list of system indices, -1
    unmapped), else ``None``.

    ``S``: the ``n_a x n_b`` float64 similarity table (C-contiguous buffer);
    ``*_attributes``: ``(node, role, value)`` tuples (unary features, a multiset);
    ``*_relations``: ``(node, role, node)`` edges; ``*_tops``: top node indices (lists of
    :class:`mrkit.features.triples.Triples`).  ``work``: the budget of
    :func:`stage_work` (computed from ``config`` when omitted)."""
    if work is None:
        work = stage_work(config)
    return _kernel.graded_stage(S, n_a, n_b, a_attributes, b_attributes, a_relations, b_relations,
                                a_tops, b_tops, work, config.restarts, config.seed & 0xFFFFFFFFFFFFFFFF)
