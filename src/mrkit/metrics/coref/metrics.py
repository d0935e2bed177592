"""The coreference metrics, one short pure function each, on an :class:`Overlap`.

Every function returns :class:`Counts` (recall numerator/denominator, precision
numerator/denominator) with the CoNLL-2012 reference scorer's definitions, so that counts
can be summed over documents (micro average) exactly as the reference does:

* MUC (Vilain et al. 1995): links; recall ``sum (|K| - p(K)) / sum (|K| - 1)``.
* B-cubed (Bagga & Baldwin 1998): per mention ``|K & R| / |K|`` (recall), ``/ |R|`` (precision).
* CEAFm / CEAFe (Luo 2005): optimal one-to-one entity alignment
  (:func:`scipy.optimize.linear_sum_assignment`) with similarity ``|K & R|`` (mentions)
  or ``phi4 = 2 |K & R| / (|K| + |R|)`` (entities).
* LEA (Moosavi & Strube 2016): entity size as importance, resolution = share of the
  entity's links found; a singleton has one self-link, found when the other side has it
  as a singleton too.
* BLANC (Recasens & Hovy 2011, extended to system mentions by Luo et al. 2014):
  coreference links and non-coreference links, see :func:`blanc` and :func:`blanc_f1`.
* Mention identification: exact span matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from .overlap import Overlap, pairs


@dataclass(frozen=True)
class Counts:
    """Recall and precision as numerators and denominators (summable over documents)."""

    r_num: float = 0.0
    r_den: float = 0.0
    p_num: float = 0.0
    p_den: float = 0.0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(self.r_num + other.r_num, self.r_den + other.r_den,
                      self.p_num + other.p_num, self.p_den + other.p_den)

    @property
    def recall(self) -> float:
        return self.r_num / self.r_den if self.r_den else 0.0

    @property
    def precision(self) -> float:
        return self.p_num / self.p_den if self.p_den else 0.0

    @property
    def f1(self) -> float:
        return f_measure(self.recall, self.precision)

    @property
    def undefined(self) -> tuple[str, ...]:
        """The parts that are 0/0 (their value is the reference scorer's 0):
        ``recall`` and/or ``precision``, then ``f1``, computed from them."""
        parts = tuple(name for name, den in (("recall", self.r_den), ("precision", self.p_den)) if not den)
        return parts + ("f1",) if parts else ()

    def to_dict(self) -> dict:
        out = {"recall": self.recall, "precision": self.precision, "f1": self.f1,
               "r_num": self.r_num, "r_den": self.r_den, "p_num": self.p_num, "p_den": self.p_den}
        if self.undefined:
            out["undefined"] = list(self.undefined)
        return out


def f_measure(recall: float, precision: float) -> float:
    """Harmonic mean; 0 when both are 0 (the reference scorer's convention)."""
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def mentions(o: Overlap) -> Counts:
    common = o.n_common
    return Counts(common, o.n_key, common, o.n_response)


def muc(o: Overlap) -> Counts:
    # |K| - p(K) summed over K equals sum over non-empty K & R of (|K & R| - 1);
    # sum over non-empty K of (|K| - 1) is the number of mentions minus of entities.
    correct = o.n_common - len(o.cells)
    return Counts(correct, o.n_key - o.n_key_entities, correct, o.n_response - o.n_response_entities)


def b_cubed(o: Overlap) -> Counts:
    k, r = o.key_sizes, o.response_sizes
    return Counts(sum(n * n / k[i] for i, _, n in o.cells), o.n_key,
                  sum(n * n / r[j] for _, j, n in o.cells), o.n_response)


def _ceaf_total(o: Overlap, entity: bool) -> float:
    if not o.cells:
        return 0.0
    import numpy as np  # here, not at the top: importing mrkit.metrics.coref loads no numpy
    from scipy.optimize import linear_sum_assignment

    rows, cols, n_rows, n_cols = o.cell_positions
    sim = np.zeros((n_rows, n_cols))
    if entity:
        k, r = o.key_sizes, o.response_sizes
        sim[rows, cols] = [2.0 * n / (k[i] + r[j]) for i, j, n in o.cells]
    else:
        sim[rows, cols] = [n for _, _, n in o.cells]
    a, b = linear_sum_assignment(sim, maximize=True)
    return float(sim[a, b].sum())


def ceafm(o: Overlap) -> Counts:
    total = _ceaf_total(o, entity=False)
    return Counts(total, o.n_key, total, o.n_response)


def ceafe(o: Overlap) -> Counts:
    total = _ceaf_total(o, entity=True)
    return Counts(total, o.n_key_entities, total, o.n_response_entities)


def _lea_importance(sizes: list[int], found: list[float]) -> float:
    """Sum over the entities of size x resolution (a singleton's one self-link is
    either found or not; otherwise the share of its links found)."""
    return sum(s * (f if s == 1 else 2 * f / (s * (s - 1))) for s, f in zip(sizes, found) if s)


def lea(o: Overlap) -> Counts:
    k, r = o.key_sizes, o.response_sizes
    found_k = [0.0] * len(k)
    found_r = [0.0] * len(r)
    for i, j, n in o.cells:
        links = n * (n - 1) // 2
        if k[i] == 1:
            found_k[i] = 1.0 if r[j] == 1 else 0.0
        else:
            found_k[i] += links
        if r[j] == 1:
            found_r[j] = 1.0 if k[i] == 1 else 0.0
        else:
            found_r[j] += links
    return Counts(_lea_importance(k, found_k), o.n_key, _lea_importance(r, found_r), o.n_response)


@dataclass(frozen=True)
class BlancCounts:
    """BLANC's two link types: coreference links and non-coreference links."""

    coref: Counts = Counts()
    noncoref: Counts = Counts()

    def __add__(self, other: "BlancCounts") -> "BlancCounts":
        return BlancCounts(self.coref + other.coref, self.noncoref + other.noncoref)

    @property
    def recall(self) -> float:
        return blanc_prf(self)[0]

    @property
    def precision(self) -> float:
        return blanc_prf(self)[1]

    @property
    def f1(self) -> float:
        return blanc_prf(self)[2]

    @property
    def undefined(self) -> tuple[str, ...]:
        """The 0/0 parts, as :func:`blanc_prf` reads them: everything when the key has no
        links at all; precision (and F1) when the response has no link of a type the
        key's score uses."""
        used = [t for t in (self.coref, self.noncoref) if t.r_den]
        if not used:
            return ("recall", "precision", "f1")
        return ("precision", "f1") if any(not t.p_den for t in used) else ()

    def to_dict(self) -> dict:
        out = {"recall": self.recall, "precision": self.precision, "f1": self.f1,
               "coref": self.coref.to_dict(), "noncoref": self.noncoref.to_dict()}
        if self.undefined:
            out["undefined"] = list(self.undefined)
        return out


def blanc(o: Overlap) -> BlancCounts:
    """Coreference links ``C`` (pairs in one entity) and non-coreference links ``N``
    (pairs of mentions of one side in different entities) of key and response; a link
    is correct when both sides have it."""
    ck = sum(s * (s - 1) for s in o.key_sizes) // 2
    cr = sum(s * (s - 1) for s in o.response_sizes) // 2
    both = sum(n * (n - 1) for _, _, n in o.cells) // 2
    nk = pairs(o.n_key) - ck
    nr = pairs(o.n_response) - cr
    # non-coreference links among the m common mentions that neither side joins
    m = o.n_common
    same_k = sum(n * (n - 1) for n in o.key_common()) // 2
    same_r = sum(n * (n - 1) for n in o.response_common()) // 2
    n_both = pairs(m) - same_k - same_r + both
    return BlancCounts(Counts(both, ck, both, cr), Counts(n_both, nk, n_both, nr))


def blanc_prf(b: BlancCounts) -> tuple[float, float, float]:
    """BLANC recall, precision, F1: the means over the two link types, except when the
    key has only one type of link (all singletons, or one entity): then that type alone,
    as the reference scorer does; no key links at all gives 0."""
    c, n = b.coref, b.noncoref
    if c.r_den == 0 and n.r_den == 0:
        return 0.0, 0.0, 0.0
    if c.r_den == 0:
        return n.recall, n.precision, n.f1
    if n.r_den == 0:
        return c.recall, c.precision, c.f1
    return (c.recall + n.recall) / 2, (c.precision + n.precision) / 2, (c.f1 + n.f1) / 2


METRICS = {
    "mentions": mentions,
    "muc": muc,
    "bcub": b_cubed,
    "ceafe": ceafe,
    "ceafm": ceafm,
    "lea": lea,
    "blanc": blanc,
}
"""Metric name -> function, in report order (mention identification first)."""
