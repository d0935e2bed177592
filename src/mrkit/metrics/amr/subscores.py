"""Fine-grained AMR evaluation: the eight subscores of amr-evaluation, exact.

Definitions (one line each) are in :mod:`mrkit.features.subscores`.  Unlabeled, No WSD,
Reentrancies and SRL are Smatch on relabelled graphs or triple subsets, aligned by the
one engine (:mod:`mrkit.align`): their values are the optimum the definition asks for,
with a certificate, where amr-evaluation's Smatch hill-climbs (5 starts) and can stay
below it.  Concepts, Named Ent., Negations and Wikification are multiset comparisons.

A pair gives one row of 24 summable numbers: (matched, gold, system) for each subscore in
:data:`~mrkit.features.subscores.SUBSCORES` order; :func:`subscores_reduce` turns summed rows
into ``<name>_precision``, ``<name>_recall``, ``<name>_f1`` (micro, the script's
aggregation), so the bootstrap and paired tests of :mod:`mrkit.aggregate.resampling` work on
every subscore.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...aggregate.reducers import prf_reduce
from ...align import AlignConfig
from ...features import subscores as fs
from ...features.conventions import Conventions
from ...features.triples import Triples, triples
from ...model.graph import Graph

WIDTH = 3 * len(fs.SUBSCORES)
"""Columns of a pair's row."""

CERTIFIED_NOTE = ("alignment-based subscores (unlabeled, no_wsd, reentrancies, srl) are exact optima of "
                  "mrkit's certified engine; amr-evaluation's Smatch hill-climbs and can report less")


def subscores_reduce(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Summed rows -> ``<name>_precision``, ``<name>_recall``, ``<name>_f1`` of every subscore."""
    sums = np.asarray(sums, dtype=np.float64)
    out: dict[str, np.ndarray] = {}
    for k, name in enumerate(fs.SUBSCORES):
        for stat, v in prf_reduce(sums[..., 3 * k:3 * k + 3]).items():
            out[f"{name}_{stat}"] = v
    return out


@dataclass
class PairSubscores:
    """The subscores of one gold/system pair."""

    index: int
    id: str | None
    counts: dict[str, tuple[float, int, int]]
    """name -> (matched, gold, system)."""
    certified: bool
    """Every alignment-based subscore of the pair reached a proven optimum."""
    uncertified: list[str] = field(default_factory=list)

    def row(self) -> tuple[float, ...]:
        return tuple(x for name in fs.SUBSCORES for x in self.counts[name])

    def to_dict(self) -> dict:
        from ...aggregate.prf import prf

        d: dict = {"index": self.index, "id": self.id, "certified": self.certified}
        for name in fs.SUBSCORES:
            m, g, s = self.counts[name]
            p, r, f = prf(m, g, s)
            d[name] = {"matched": m, "gold": g, "system": s, "precision": p, "recall": r, "f1": f}
        if self.uncertified:
            d["uncertified"] = list(self.uncertified)
        return d


def aligned_counts(ta: Triples, tb: Triples, config: AlignConfig,
                   allowed: np.ndarray | None = None) -> tuple[float, int, int, bool]:
    """(matched, gold, system, certified) of the optimal alignment of two triple sets
    (``allowed``: which gold node may go to which system node, or ``None``)."""
    from .smatch import align_triples

    if not len(ta) or not len(tb):
        return 0.0, len(ta), len(tb), True
    res = align_triples(ta, tb, config, allowed)
    return float(res.score), len(ta), len(tb), bool(res.certified)


def _restrict(allowed: np.ndarray | None, full_a: Triples, full_b: Triples, a: Triples, b: Triples):
    """The rows and columns of ``allowed`` of the nodes kept in the subsets ``a``, ``b``."""
    if allowed is None:
        return None
    ia = {v: i for i, v in enumerate(full_a.variables)}
    ib = {v: j for j, v in enumerate(full_b.variables)}
    return allowed[np.ix_([ia[v] for v in a.variables], [ib[v] for v in b.variables])]


def subscores_pair(gold: Graph, system: Graph, config: AlignConfig = AlignConfig(), index: int = 0,
                   conventions: Conventions | None = None, allowed: np.ndarray | None = None) -> PairSubscores:
    """The eight subscores of one pair (``conventions``: the TOP style and role
    normalisations of the whole score, :mod:`mrkit.features.conventions`; ``allowed``:
    a candidate constraint over the nodes of the two graphs, in their order, as document
    Smatch's sentence constraint -- only with the default conventions' graphs)."""
    conv = conventions or Conventions()
    if allowed is not None and conv.roles != "as-written":
        raise ValueError("a candidate constraint needs the graphs' own nodes: roles as written")
    g, s = conv.graph(gold), conv.graph(system)
    tg, ts = triples(g, conv.keep), triples(s, conv.keep)
    views = {
        "unlabeled": (fs.unlabeled(g), fs.unlabeled(s)),
        "no_wsd": (fs.no_wsd(tg), fs.no_wsd(ts)),
        "reentrancies": (fs.reentrancies(tg), fs.reentrancies(ts)),
        "srl": (fs.srl(tg), fs.srl(ts)),
    }
    counts: dict[str, tuple[float, int, int]] = {}
    uncertified = []
    for name, (a, b) in views.items():
        m, ng, ns, ok = aligned_counts(conv.triples(a), conv.triples(b), config, _restrict(allowed, tg, ts, a, b))
        counts[name] = (m, ng, ns)
        if not ok:
            uncertified.append(name)
    counts["concepts"] = fs.multiset_counts(fs.concepts(g), fs.concepts(s))
    counts["named_ent"] = fs.multiset_counts(fs.named_entities(g, conv.keep), fs.named_entities(s, conv.keep))
    counts["negations"] = fs.multiset_counts(fs.negations(g, conv.keep), fs.negations(s, conv.keep))
    counts["wikification"] = fs.multiset_counts(fs.wikification(g, conv.keep), fs.wikification(s, conv.keep))
    return PairSubscores(index, gold.id, counts, not uncertified, uncertified)


def subscores_table(sums: np.ndarray, certified: np.ndarray | None = None) -> dict[str, dict]:
    """The report of summed rows: name -> counts, P/R/F1, kind, definition."""
    sums = np.asarray(sums, dtype=np.float64)
    stats = subscores_reduce(sums)
    out: dict[str, dict] = {}
    for k, name in enumerate(fs.SUBSCORES):
        m, g, s = sums[3 * k:3 * k + 3]
        out[name] = {
            "title": fs.TITLES[name],
            "kind": "certified alignment" if name in fs.ALIGNED else "multiset",
            "matched": float(m), "gold": int(g), "system": int(s),
            "precision": float(stats[f"{name}_precision"]), "recall": float(stats[f"{name}_recall"]),
            "f1": float(stats[f"{name}_f1"]),
            "definition": fs.DEFINITIONS[name],
        }
    return out


def attach_subscores(result, sub, bootstrap: int = 0, seed: int = 0, level: float = 0.95) -> None:
    """Put the subscores of ``sub`` (:func:`mrkit.pipeline.amr_variants.subscore_files`)
    beside the Smatch ``result``: ``detail["subscores"]`` (with ``ci_precision``,
    ``ci_recall``, ``ci_f1`` per subscore when ``bootstrap`` samples are asked for), how
    many pairs are certified, and each pair's subscores in its record (``subscores`` and
    flat ``<name>_f1`` for TSV/CSV)."""
    table = {k: dict(v) for k, v in sub.detail["subscores"].items()}
    if bootstrap:
        ci = sub.bootstrap(bootstrap, seed, level)
        for name, row in table.items():
            for stat in ("precision", "recall", "f1"):
                row[f"ci_{stat}"] = list(ci[f"{name}_{stat}"])
    result.detail["subscores"] = table
    result.detail["subscores_pairs"] = sub.pairs
    result.detail["subscores_certified"] = sub.n_certified
    result.detail["subscores_note"] = CERTIFIED_NOTE
    if result.records is not None and sub.records is not None:
        for rec, srec in zip(result.records, sub.records):
            rec["subscores"] = {k: v for k, v in srec.items() if k in fs.SUBSCORES}
            rec["subscores_certified"] = srec["certified"]
            for name in fs.SUBSCORES:
                rec[f"{name}_f1"] = srec[name]["f1"]
