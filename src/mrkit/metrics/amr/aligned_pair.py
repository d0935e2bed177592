"""The fields of one pair scored through an alignment, numpy-free: the base of Smatch's
:class:`~mrkit.metrics.amr.smatch.PairScore` (and S2match's) and document Smatch's
:class:`~mrkit.metrics.document.docsmatch.DocPairScore`, which cannot import smatch.py
(it loads numpy and the Python engine, which a document pair certified by the compiled
stage never needs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...aggregate.prf import PRF, prf


@dataclass
class AlignedPairScore(PRF):
    """Matched triples under the best mapping found, the triple counts, the certificate."""

    index: int
    id: str | None
    matched: float
    gold: int
    system: int
    certified: bool
    bound: float
    method: str
    mapping: dict[str, str | None] = field(default_factory=dict, repr=False)

    @property
    def f1_bound(self) -> float:
        """The best F1 any mapping could reach (equals ``f1`` when certified)."""
        return prf(self.bound, self.gold, self.system)[2]
