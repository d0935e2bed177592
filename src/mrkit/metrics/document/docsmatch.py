"""Document Smatch: Smatch between document graphs under the sentence constraint,
with the coreference and reentrancy subscores.

The triples are Smatch's (:mod:`mrkit.model.amr`) and the alignment is the shared engine's
(:func:`mrkit.metrics.amr.smatch.align_triples`), so a certified result is the optimum.
When both graphs are document graphs (:func:`~mrkit.features.provenance.is_document`), a
gold node may only go to a system node that shares one of its sentences (numbered as
``:sntN``), the document root only to the document root.  Otherwise (sentence graphs,
``multi-sentence`` included) there is no constraint: the score is plain Smatch.

Subscores, each a P/R/F1 over a subset of the triples of each graph; a triple is
correct if it is matched under the Smatch alignment and belongs to the subset in both
graphs:

* coreference, as the DocAMR paper (§4.3) defines it and IBM's doc-smatch computes it
  (:func:`coref_triples`), with its named-entity / bridging / other parts;
* reentrancy: the relation triples into nodes with two or more incoming relations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...align import AlignConfig
from ...features.triples import Triples, triples
from ...model.graph import Graph
from ...aggregate.prf import PRF, prf
from ...features.provenance import CHAIN_LABELS, is_document
from ..amr.aligned_pair import AlignedPairScore

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)

if TYPE_CHECKING:
    import numpy as np

BRIDGE_ROLES = frozenset({"subset", "part"})


@dataclass
class Subscore(PRF):
    """Matched / gold / system triples of a subset; precision, recall and F1 from
    :class:`mrkit.aggregate.prf.PRF`."""

    matched: int = 0
    gold: int = 0
    system: int = 0

    def add(self, other: "Subscore") -> None:
        self.matched += other.matched
        self.gold += other.gold
        self.system += other.system

    def to_dict(self) -> dict:
        return {"matched": self.matched, "gold": self.gold, "system": self.system,
                "precision": self.precision, "recall": self.recall, "f1": self.f1}


@dataclass
class DocPairScore(AlignedPairScore):
    """Document Smatch of one pair: the fields of
    :class:`mrkit.metrics.amr.smatch.PairScore` (their numpy-free base, not PairScore:
    smatch.py loads numpy and the Python engine, which a document pair certified by the
    compiled stage never needs), then the subscores."""

    coref: Subscore = field(default_factory=Subscore)
    reentrancy: Subscore = field(default_factory=Subscore)
    constrained: bool = False
    coref_parts: dict[str, Subscore] = field(default_factory=lambda: {k: Subscore() for k in COREF_PARTS})
    chains: dict = field(default_factory=dict)
    """CoNLL-family counts (:mod:`.chains`) of the chains, mentions matched by the alignment."""
    sentence_alignment: list | None = None
    """With sentences aligned by text: the gold sentences (0-based) of every system sentence."""

    def to_dict(self) -> dict:
        """The pair's record (``--per-pair``)."""
        return {"index": self.index, "id": self.id, "matched": self.matched, "gold": self.gold,
                "system": self.system, "f1": self.f1, "certified": self.certified,
                "method": self.method, "bound": self.bound, "constrained": self.constrained,
                "coref": self.coref.to_dict(),
                "coref_parts": {k: v.to_dict() for k, v in self.coref_parts.items()},
                "reentrancy": self.reentrancy.to_dict(),
                "chains": {k: v.to_dict() for k, v in self.chains.items()},
                **({"sentence_alignment": [[k + 1, [g + 1 for g in gs]]
                                           for k, gs in enumerate(self.sentence_alignment)]}
                   if self.sentence_alignment is not None else {})}


def candidate_matrix(ga: Graph, gb: Graph, ta: Triples, tb: Triples) -> "np.ndarray | None":
    """The sentence-provenance candidate constraint, or None for sentence graphs.

    A node may go to a node that shares one of its sentences; the document root only to
    the document root; a node of unknown sentence (empty provenance) to any node but the
    root.  Sentence numbers are renumbered densely, so a large number in the input costs
    nothing.  (:func:`mrkit.metrics.document.candidates.candidate_mask` is the same
    constraint as bytes, without numpy.)"""
    if not (is_document(ga) and is_document(gb)):
        return None
    import numpy as np

    na, nb = len(ta.variables), len(tb.variables)
    ra, rb = ga.tops[0] if ga.tops else None, gb.tops[0] if gb.tops else None
    cols = {k: c for c, k in enumerate(sorted({k for g in (ga, gb) for n in g.nodes.values()
                                                 for k in n.provenance}))}
    n_s = len(cols)
    # each node's sentences as a bit set (the root: a column of its own), in words of 63
    # bits; two nodes are allowed when their sets share a bit.  Bit operations, not a
    # matrix product: no BLAS threads on a busy machine, and exact.
    words = n_s // 63 + 1
    A = np.zeros((words, na), dtype=np.int64)
    B = np.zeros((words, nb), dtype=np.int64)
    everything = (1 << n_s) - 1
    for M, g, t, root in ((A, ga, ta, ra), (B, gb, tb, rb)):
        for i, v in enumerate(t.variables):
            if v == root:
                mask = 1 << n_s  # the root column: only root with root
            elif g.nodes[v].provenance:
                mask = 0
                for k in g.nodes[v].provenance:
                    mask |= 1 << cols[k]
            else:
                mask = everything  # sentence unknown: any sentence
            for w in range(words):
                M[w, i] = (mask >> (63 * w)) & ((1 << 63) - 1)
    allowed = np.zeros((na, nb), dtype=bool)
    for w in range(words):
        allowed |= np.bitwise_and.outer(A[w], B[w]) != 0
    if n_s == 0:  # no node has a known sentence: no constraint but root with root
        allowed[:, :] = True
        ia = [i for i, v in enumerate(ta.variables) if v == ra]
        ib = [j for j, v in enumerate(tb.variables) if v == rb]
        allowed[ia, :] = False
        allowed[:, ib] = False
        allowed[np.ix_(ia, ib)] = True
    return allowed


COREF_PARTS = ("named_entity", "bridging", "other")
"""The coreference subscore's breakdown, as doc-smatch reports it."""


def coref_triples(g: Graph, t: Triples) -> dict[str, set[tuple]]:
    """The coreference triples of a document graph by part (:data:`COREF_PARTS`), as the
    DocAMR paper (§4.3) defines them and IBM's doc-smatch computes them:

    * coreferent nodes: ``coref-entity`` / ``implicit-role`` nodes, and merged nodes: nodes
      of several sentences with incoming edges (as written, ``:coref`` / ``:part`` /
      ``:subset`` aside) from at least two parents of other sentence sets, not all the same;
    * node triples: the instance triples of ``coref-entity`` / ``implicit-role`` nodes only
      (not those of merged nodes); ``named_entity`` if the node has a ``:name``, else ``other``;
    * edge triples: relations into a coreferent node (``:mod`` counts as the ``:domain``
      it stands for, into its source) and ``:coref`` edges out of one; ``bridging`` for
      ``:part`` / ``:subset``, ``other`` for the rest.  doc-smatch also names ``:part`` /
      ``:subset`` edges between nodes of different sentence sets, but its sentence sets
      spread across those very edges, so the two ends always agree and that clause never
      adds an edge: a bridging edge counts when it goes into a coreferent node.

    Only the nodes' own subtrees are not counted: a merged node's children stay ordinary.
    """
    from ...model.amr import normalize_relation

    var = t.variables
    index = {v: i for i, v in enumerate(var)}
    top = g.tops[0] if g.tops else None
    sents = [("root",) if v == top else g.nodes[v].provenance for v in var]
    chain = {i for i, c in t.instances if c in CHAIN_LABELS}
    parents: dict[int, list[int]] = {}
    for e in g.edges:  # incoming edges as written
        _, r, _ = normalize_relation(e.source, e.label, e.target)
        if r in ("coref", "part", "subset") or e.source not in index or e.target not in index:
            continue
        parents.setdefault(index[e.target], []).append(index[e.source])
    coref = set(chain)
    for n, ps in parents.items():
        if len(sents[n]) < 2 or len(ps) < 2 or sents[n] == ("root",):
            continue
        other = [p for p in ps if sents[p] != sents[n]]
        if len(other) >= 2 and any(sents[p] != sents[other[0]] for p in other):
            coref.add(n)
    named = {s for s, r, _ in t.relations if r == "name"}
    out: dict[str, set[tuple]] = {k: set() for k in COREF_PARTS}
    for i, c in t.instances:
        if i in chain:
            out["named_entity" if i in named else "other"].add(("inst", i, c))
    for s, r, o in t.relations:
        into = s if r == "mod" else o
        if into in coref or (s in coref and r == "coref"):
            out["bridging" if r in BRIDGE_ROLES else "other"].add(("rel", s, r, o))
    return out


def reentrancy_triples(t: Triples) -> set[tuple]:
    """The reentrant relations (:func:`mrkit.features.subscores.reentrant_relations`, the
    definition of the sentence Reentrancies subscore)."""
    from ...features.subscores import reentrant_relations

    return {("rel", s, r, o) for s, r, o in reentrant_relations(t)}


def _mapped(triple: tuple, m) -> tuple | None:
    if triple[0] == "rel":
        _, s, r, o = triple
        return None if m[s] < 0 or m[o] < 0 else ("rel", int(m[s]), r, int(m[o]))
    _, i, c = triple
    return None if m[i] < 0 else ("inst", int(m[i]), c)


def subscore(sel_a: set[tuple], sel_b: set[tuple], mapping) -> Subscore:
    """Triples of ``sel_a`` whose image under ``mapping`` (a sequence: the system index of
    every gold node, or -1) is in ``sel_b`` are correct (``sel_b`` holds system triples,
    so the image is a matched triple)."""
    hit = sum(1 for x in sel_a if _mapped(x, mapping) in sel_b)
    return Subscore(hit, len(sel_a), len(sel_b))


def align_documents(gold: Graph, system: Graph, ta: Triples, tb: Triples, config: AlignConfig):
    """``(alignment, constrained)``: the Smatch alignment of two graphs' triples under the
    sentence constraint (``constrained``: both are document graphs).

    The compiled stage first (:func:`mrkit.align.coded.align_coded`: the engine's stages
    before the LP, its Lagrangian probe included, on integer codes, without numpy); when
    it does not certify the pair, the whole engine on the same problem
    (:func:`mrkit.metrics.amr.smatch.align_triples`), which reaches the same result for
    every pair the compiled stage certifies.  ``MRKIT_NO_FAST_DOCSMATCH`` forces the
    engine."""
    from ...align.coded import align_coded
    from ...features.smatch_codes import smatch_codes
    from .candidates import candidate_mask

    mask = candidate_mask(gold, system, ta, tb)
    res = align_coded(smatch_codes(ta, tb), mask, config)
    if res is None:
        from ..amr.smatch import align_triples

        res = align_triples(ta, tb, config, candidate_matrix(gold, system, ta, tb))
    return res, mask is not None


def docsmatch_pair(gold: Graph, system: Graph, config: AlignConfig = AlignConfig(),
                   index: int = 0, align_sentences: bool = False) -> DocPairScore:
    """Document Smatch of one pair of graphs (provenance already read).

    ``align_sentences``: the system's sentences are aligned to the gold's by their text
    (:mod:`.segmentation`), for a system that segments the text differently; the
    alignment used is the result's ``sentence_alignment``."""
    sentence_alignment = None
    if align_sentences and is_document(gold) and is_document(system):
        from .segmentation import align_graphs, regroup

        sentence_alignment, n_gold = align_graphs(gold, system)
        system = regroup(system, sentence_alignment, n_gold)
    ta, tb = triples(gold), triples(system)
    res, constrained = align_documents(gold, system, ta, tb, config)
    m = res.mapping
    mapping = {ta.variables[i]: (tb.variables[j] if j >= 0 else None) for i, j in enumerate(m)}
    ca, cb = coref_triples(gold, ta), coref_triples(system, tb)
    parts = {k: subscore(ca[k], cb[k], m) for k in COREF_PARTS}
    coref = Subscore()
    for k in COREF_PARTS:
        coref.add(parts[k])
    reent = subscore(reentrancy_triples(ta), reentrancy_triples(tb), m)
    from .chains import chain_counts

    chains = chain_counts(gold, system, ta.variables, tb.variables, m)
    return DocPairScore(index, gold.id, res.score, len(ta), len(tb), res.certified, res.bound,
                        res.method, mapping, coref, reent, constrained, parts, chains,
                        sentence_alignment)


@dataclass
class DocSmatchResult:
    """Document Smatch of a corpus: every document pair's scores."""

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
    def coref_parts(self) -> dict[str, Subscore]:
        out = {k: Subscore() for k in COREF_PARTS}
        for p in self.pairs:
            for k in COREF_PARTS:
                out[k].add(p.coref_parts[k])
        return out

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
             "coref": self.coref.to_dict(),
             "coref_parts": {k: v.to_dict() for k, v in self.coref_parts.items()},
             "reentrancy": self.reentrancy.to_dict(),
             "certified": self.certified,
             "f1_upper_bound": prf(sum(p.bound for p in self.pairs), self.overall.gold,
                                   self.overall.system)[2]}
        if per_pair:
            d["per_pair"] = [p.to_dict() for p in self.pairs]
        return d


def docsmatch_graphs(golds: list[Graph], systems: list[Graph], config: AlignConfig = AlignConfig(),
                     progress=None) -> DocSmatchResult:
    from ...errors import InputError

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
