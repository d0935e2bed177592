"""CoNLL-family coreference metrics (MUC, B-cubed, CEAFe, LEA, CoNLL-F1) between two
document graphs, mentions matched through the document Smatch alignment.

The DocAMR paper (§4) notes that span-based coreference metrics cannot be applied to
AMR: nodes are not anchored in the text.  The certified document alignment anchors them:
a system node is the gold node it is aligned to.

The entities of a document graph, in any representation:

* a chain node (the target of ``:coref-of`` edges, or a ``coref-entity`` /
  ``implicit-role`` node): its members, and the chain node itself for the sentences of
  its own (pronouns merged into it, implicit roles) that no member covers;
* a node of two or more sentences that is no chain's member (a merged named entity, the
  pronoun node of an all-pronoun chain, a merge-all node).

A mention is ``(node, sentence)``: a node of several sentences (merged) is one mention
per sentence.  System mentions are renamed to the gold node their node is aligned to
(``("unaligned", node, sentence)`` when it is not).  Entities of fewer than two mentions
are not coreference and are left out on both sides.  The counts are the CoNLL-2012
reference scorer's (:mod:`mrkit.metrics.coref.metrics`).
"""

from __future__ import annotations

from typing import Sequence

from ...features.provenance import CHAIN_LABELS
from ...model.graph import Graph

METRICS = ("muc", "bcub", "ceafe", "lea")


def graph_entities(g: Graph) -> list[list[tuple]]:
    """The entities of a document graph as lists of ``(node, sentence)`` mentions."""
    top = g.tops[0] if g.tops else None
    members: dict[str, list[str]] = {}
    for e in g.edges:
        lab = e.label.lower()
        if lab == "coref-of":
            members.setdefault(e.target, []).append(e.source)
        elif lab == "coref":
            members.setdefault(e.source, []).append(e.target)
    for v, n in g.nodes.items():
        if (n.label or "").lower() in CHAIN_LABELS:
            members.setdefault(v, [])
    is_member = {m for ms in members.values() for m in ms}
    out = []
    for c, ms in members.items():
        ent, covered = [], set()
        for m in dict.fromkeys(ms):
            if m in g.nodes:
                for s in sorted(g.nodes[m].provenance):
                    ent.append((m, s))
                    covered.add(s)
        ent.extend((c, s) for s in sorted(g.nodes[c].provenance) if s not in covered)
        out.append(ent)
    for v, n in g.nodes.items():
        if v != top and v not in members and v not in is_member and len(n.provenance) >= 2:
            out.append([(v, s) for s in sorted(n.provenance)])
    return [e for e in out if len(e) >= 2]


def ceafe(o):
    """CEAFe as :func:`mrkit.metrics.coref.metrics.ceafe` computes it, with the alignment
    engine's compiled assignment (``_kernel.lsa``) instead of scipy's: document Smatch
    already has it loaded, and importing scipy.optimize would cost more than scoring.  The
    similarity matrix is a plain ``array`` (row-major float64): no numpy either."""
    from array import array

    from ...align import _kernel
    from ..coref.metrics import Counts

    total = 0.0
    if o.cells:
        rows, cols, n_rows, n_cols = o.cell_positions
        k, r = o.key_sizes, o.response_sizes
        w = array("d", bytes(8 * n_rows * n_cols))
        for a, b, (i, j, n) in zip(rows, cols, o.cells):
            w[a * n_cols + b] = 2.0 * n / (k[i] + r[j])
        total = float(_kernel.lsa(w, n_rows, n_cols, array("i", [-1]) * n_rows))
    return Counts(total, o.n_key_entities, total, o.n_response_entities)


def chain_counts(gold: Graph, system: Graph, gold_vars: Sequence[str], system_vars: Sequence[str],
                 mapping) -> dict:
    """Counts of every metric of :data:`METRICS` for one aligned pair (``mapping[i]``: the
    system index of gold variable ``i``, or -1)."""
    from ...model.clusters import CorefDocument, prepare
    from ..coref.metrics import METRICS as COREF_METRICS
    from ..coref.overlap import Overlap

    to_gold = {system_vars[int(j)]: gold_vars[i] for i, j in enumerate(mapping) if int(j) >= 0}
    key = CorefDocument(str(gold.id), graph_entities(gold))
    response = CorefDocument(str(gold.id), [[(to_gold[v], s) if v in to_gold else ("unaligned", v, s)
                                             for v, s in ent] for ent in graph_entities(system)])
    o = Overlap.of(prepare(key), prepare(response))
    return {m: ceafe(o) if m == "ceafe" else COREF_METRICS[m](o) for m in METRICS}
