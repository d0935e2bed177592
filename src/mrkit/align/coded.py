"""The engine's first stages on integer-coded Smatch problems, with the mapping, without numpy.

:func:`align_coded` hands a coded problem (:mod:`mrkit.features.smatch_codes`) and an
optional candidate mask to the compiled stage (``_kernel.mapped_stage``): the stages
:func:`mrkit.align.engine.align` runs before its LP (bounds, climbing, seeded restarts) and
its Lagrangian probe, step for step and under the same work budget.  When they certify the
score, the result is the one ``align`` returns (same mapping, score, bound, ``method``
``bound``); otherwise ``None``, and the caller runs the whole engine (numpy, and HiGHS
if the LP is reached).  Document Smatch uses it: its pairs are certified by these stages.

One step is taken out of order, with the same outcome: on problems too big for the full
Lagrangian stage, the probe runs before the seeded restarts when the budget is sure to
leave room for it after them (the restarts' work has an upper bound).  If it certifies
the score, the restarts could not have changed the mapping (they replace it only by a
strictly better one) nor the bound, so the result is the one ``align`` reaches after them;
if it does not, the restarts and the probe run in ``align``'s order.  The restarts were
most of a document pair's time (four full climbs that never improve a certified optimum).
Where no probe can follow (too big for it, or a full Lagrangian bound already computed),
the stage hands the pair to the engine before the restarts instead of climbing twice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .config import WORK_PER_SECOND, AlignConfig

NO_FAST_ENV = "MRKIT_NO_FAST_DOCSMATCH"
"""Set (non-empty) to skip the compiled stage: every pair goes through the whole engine
(the reference path of the differential tests)."""


@dataclass
class CodedAlignment:
    """What :class:`mrkit.align.engine.Alignment` holds, for a certified pair."""

    mapping: list[int]
    """System node index of every gold node, -1 when unmapped."""
    score: float
    bound: float
    certified: bool = True
    method: str = "bound"
    seconds: float = 0.0
    details: dict = field(default_factory=dict)


def _work(config: AlignConfig) -> float:
    """The pair's work budget in steps (negative: unlimited), as ``engine.pair_budget``."""
    if config.exact == "always" or config.time_limit is None:
        return -1.0
    return max(0.0, float(config.time_limit)) * WORK_PER_SECOND


def align_coded(codes: bytes, allowed: bytes | None, config: AlignConfig = AlignConfig()) -> CodedAlignment | None:
    """The certified alignment of a coded Smatch problem under the candidate mask
    ``allowed`` (``nA * nB`` bytes, row-major; None: every pair allowed), or None when
    the compiled stage does not certify it (or is switched off by ``MRKIT_NO_FAST_DOCSMATCH``)."""
    if os.environ.get(NO_FAST_ENV):
        return None
    from . import _kernel

    out = _kernel.mapped_stage(codes, allowed, _work(config), config.restarts,
                               config.seed & 0xFFFFFFFFFFFFFFFF, config.exact != "never")
    if out is None:
        return None
    score, bound, mapping = out
    return CodedAlignment(mapping, score, bound)
