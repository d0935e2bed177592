"""Document Smatch: Smatch between document graphs under the sentence constraint,
with the coreference and reentrancy subscores.

The triples are Smatch's (:mod:`mrkit.amr`) and the alignment is the shared engine's
(:func:`mrkit.metrics.smatch.align_triples`), so a certified result is the optimum.
When both graphs are document graphs (:func:`~mrkit.docamr.provenance.is_document`), a
gold node may only go to a system node that shares one of its sentences (numbered as
``:sntN``), the document root only to the document root.  Otherwise (sentence graphs,
``multi-sentence`` included) there is no constraint: the score is plain Smatch.

Subscores, each a P/R/F1 over a subset of the triples of each graph; a triple is
correct if it is matched under the Smatch alignment and belongs to the subset in both
graphs:

* coreference: nodes connected to several sentences (provenance of size >= 2) and
  ``coref-entity`` / ``implicit-role`` nodes are coreferent; their incoming relation
  triples count, plus ``:coref`` links and ``:subset`` / ``:part`` bridging triples that
  touch a coreferent node or join two sentences, plus the instance triples of
  ``coref-entity`` / ``implicit-role`` nodes (not those of merged nodes);
* reentrancy: the relation triples into nodes with two or more incoming relations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..align import AlignConfig
from ..amr import Triples, triples
from ..graph import Graph
from ..metrics.smatch import PairScore, align_triples, prf
from .provenance import CHAIN_LABELS, is_document

BRIDGE_ROLES = frozenset({"subset", "part"})


@dataclass
class Subscore:
    matched: int = 0
    gold: int = 0
    system: int = 0

    def add(self, other: "Subscore") -> None:
        self.matched += other.matched
        self.gold += other.gold
        self.system += other.system

    @property
    def f1(self) -> float:
        return prf(self.matched, self.gold, self.system)[2]

    def to_dict(self) -> dict:
        p, r, f = prf(self.matched, self.gold, self.system)
        return {"matched": self.matched, "gold": self.gold, "system": self.system,
                "precision": p, "recall": r, "f1": f}


@dataclass
class DocPairScore(PairScore):
    coref: Subscore = field(default_factory=Subscore)
    reentrancy: Subscore = field(default_factory=Subscore)
    constrained: bool = False


def candidate_matrix(ga: Graph, gb: Graph, ta: Triples, tb: Triples) -> np.ndarray | None:
    """The sentence-provenance candidate constraint, or None for sentence graphs.

    A node may go to a node that shares one of its sentences; the document root only to
    the document root; a node of unknown sentence (empty provenance) to any node but the
    root.  Sentence numbers are renumbered densely, so a large number in the input costs
    nothing."""
    if not (is_document(ga) and is_document(gb)):
        return None
    na, nb = len(ta.variables), len(tb.variables)
    ra, rb = ga.tops[0] if ga.tops else None, gb.tops[0] if gb.tops else None
    cols = {k: c for c, k in enumerate(sorted({k for g in (ga, gb) for n in g.nodes.values()
                                                 for k in n.provenance}))}
    n_s = len(cols)
    A = np.zeros((na, n_s + 1), dtype=np.float32)
    B = np.zeros((nb, n_s + 1), dtype=np.float32)
    for M, g, t, root in ((A, ga, ta, ra), (B, gb, tb, rb)):
        for i, v in enumerate(t.variables):
            if v == root:
                M[i, n_s] = 1  # the root column: only root with root
            elif g.nodes[v].provenance:
                M[i, [cols[k] for k in g.nodes[v].provenance]] = 1
            else:
                M[i, :n_s] = 1  # sentence unknown: any sentence
    allowed = (A @ B.T) > 0
    if n_s == 0:  # no node has a known sentence: no constraint but root with root
        allowed[:, :] = True
        ia = [i for i, v in enumerate(ta.variables) if v == ra]
        ib = [j for j, v in enumerate(tb.variables) if v == rb]
        allowed[ia, :] = False
        allowed[:, ib] = False
        allowed[np.ix_(ia, ib)] = True
    return allowed


def _coref_nodes(g: Graph, t: Triples) -> set[int]:
    out = set()
    for i, v in enumerate(t.variables):
        n = g.nodes[v]
        if len(n.provenance) >= 2 or (n.label or "").lower() in CHAIN_LABELS:
            out.add(i)
    return out


def coref_triples(g: Graph, t: Triples) -> set[tuple]:
    nodes = _coref_nodes(g, t)
    prov = [g.nodes[v].provenance for v in t.variables]
    sel: set[tuple] = set()
    for s, r, o in t.relations:
        if o in nodes or r == "coref" or (r in BRIDGE_ROLES and (s in nodes or prov[s] != prov[o])):
            sel.add(("rel", s, r, o))
    for i, c in t.instances:
        if c in CHAIN_LABELS:
            sel.add(("inst", i, c))
    return sel


def reentrancy_triples(t: Triples) -> set[tuple]:
    indeg: dict[int, int] = {}
    for _, _, o in t.relations:
        indeg[o] = indeg.get(o, 0) + 1
    return {("rel", s, r, o) for s, r, o in t.relations if indeg[o] >= 2}


def _mapped(triple: tuple, m: np.ndarray) -> tuple | None:
    if triple[0] == "rel":
        _, s, r, o = triple
        return None if m[s] < 0 or m[o] < 0 else ("rel", int(m[s]), r, int(m[o]))
    _, i, c = triple
    return None if m[i] < 0 else ("inst", int(m[i]), c)


def subscore(sel_a: set[tuple], sel_b: set[tuple], mapping: np.ndarray) -> Subscore:
    """Triples of ``sel_a`` whose image under ``mapping`` is in ``sel_b`` are correct
    (``sel_b`` holds system triples, so the image is a matched triple)."""
    hit = sum(1 for x in sel_a if _mapped(x, mapping) in sel_b)
    return Subscore(hit, len(sel_a), len(sel_b))


def docsmatch_pair(gold: Graph, system: Graph, config: AlignConfig = AlignConfig(),
                   index: int = 0) -> DocPairScore:
    """Document Smatch of one pair of graphs (provenance already read)."""
    ta, tb = triples(gold), triples(system)
    allowed = candidate_matrix(gold, system, ta, tb)
    res = align_triples(ta, tb, config, allowed)
    m = res.mapping
    mapping = {ta.variables[i]: (tb.variables[j] if j >= 0 else None) for i, j in enumerate(m)}
    coref = subscore(coref_triples(gold, ta), coref_triples(system, tb), m)
    reent = subscore(reentrancy_triples(ta), reentrancy_triples(tb), m)
    return DocPairScore(index, gold.id, res.score, len(ta), len(tb), res.certified, res.bound,
                        res.method, mapping, coref, reent, allowed is not None)


@dataclass
class DocSmatchResult:
    pairs: list[DocPairScore]

    def _sum(self, attr: str) -> Subscore:
        s = Subscore()
        for p in self.pairs:
            s.add(getattr(p, attr))
        return s

    @property
    def coref(self) -> Subscore:
        return self._sum("coref")

    @property
    def reentrancy(self) -> Subscore:
        return self._sum("reentrancy")

    @property
    def overall(self) -> Subscore:
        return Subscore(sum(p.matched for p in self.pairs), sum(p.gold for p in self.pairs),
                        sum(p.system for p in self.pairs))

    @property
    def f1(self) -> float:
        return self.overall.f1

    @property
    def certified(self) -> int:
        return sum(p.certified for p in self.pairs)

    def to_dict(self, per_pair: bool = False) -> dict:
        d = {"pairs": len(self.pairs), "overall": self.overall.to_dict(),
             "coref": self.coref.to_dict(), "reentrancy": self.reentrancy.to_dict(),
             "certified": self.certified,
             "f1_upper_bound": prf(sum(p.bound for p in self.pairs), self.overall.gold,
                                   self.overall.system)[2]}
        if per_pair:
            d["per_pair"] = [{"index": p.index, "id": p.id, "matched": p.matched, "gold": p.gold,
                              "system": p.system, "f1": p.f1, "certified": p.certified,
                              "method": p.method, "bound": p.bound, "constrained": p.constrained,
                              "coref": p.coref.to_dict(), "reentrancy": p.reentrancy.to_dict()}
                             for p in self.pairs]
        return d


def docsmatch_graphs(golds: list[Graph], systems: list[Graph], config: AlignConfig = AlignConfig(),
                     progress=None) -> DocSmatchResult:
    from ..errors import InputError

    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} graphs but system has {len(systems)}")
    if not golds:
        raise InputError("no graphs to score")
    out = []
    for k, (g, s) in enumerate(zip(golds, systems)):
        out.append(docsmatch_pair(g, s, config, k))
        if progress:
            progress(1)
    return DocSmatchResult(out)


def docsmatch_files(gold_path: str, system_path: str, config: AlignConfig = AlignConfig()) -> DocSmatchResult:
    """Document Smatch of two PENMAN files of document graphs, paired in order."""
    from ..errors import InputError
    from .provenance import read_document_graphs

    golds = read_document_graphs(gold_path)
    systems = read_document_graphs(system_path)
    if len(golds) != len(systems):
        raise InputError(f"holds {len(systems)} graphs but the gold file {gold_path} holds {len(golds)}",
                         system_path)
    return docsmatch_graphs(golds, systems, config)
