"""The sentence constraint of document Smatch as a byte mask, without numpy.

:func:`candidate_mask` is :func:`mrkit.metrics.document.docsmatch.candidate_matrix` (the
reference, a numpy matrix) as ``n_a * n_b`` bytes, row-major, 1 where a gold node may go to
a system node: nodes sharing a sentence, the document root only with the document root, a
node of unknown sentence with any node but the root; ``None`` for sentence graphs.  Each
node's sentences are one Python integer used as a bit set; rows of gold nodes with the same
set are computed once (a document has few distinct sets).
"""

from __future__ import annotations

from ...features.provenance import is_document
from ...features.triples import Triples
from ...model.graph import Graph


def _masks(g: Graph, t: Triples, root, cols: dict, n_s: int) -> list[int]:
    everything = (1 << n_s) - 1
    out = []
    for v in t.variables:
        if v == root:
            out.append(1 << n_s)  # the root column: only root with root
            continue
        mask = 0
        for k in g.nodes[v].provenance:
            mask |= 1 << cols[k]
        out.append(mask if g.nodes[v].provenance else everything)  # unknown: any sentence
    return out


def candidate_mask(ga: Graph, gb: Graph, ta: Triples, tb: Triples) -> bytes | None:
    """The candidate constraint of gold ``ga`` / system ``gb`` as bytes (see the module
    docstring), or None when either graph is not a document graph."""
    if not (is_document(ga) and is_document(gb)):
        return None
    ra, rb = ga.tops[0] if ga.tops else None, gb.tops[0] if gb.tops else None
    cols = {k: c for c, k in enumerate(sorted({k for g in (ga, gb) for n in g.nodes.values()
                                                 for k in n.provenance}))}
    n_s = len(cols)
    if n_s == 0:  # no node has a known sentence: no constraint but root with root
        root_b = [v == rb for v in tb.variables]
        plain = bytes(0 if r else 1 for r in root_b)
        root_row = bytes(1 if r else 0 for r in root_b)
        return b"".join(root_row if v == ra else plain for v in ta.variables)
    mb = _masks(gb, tb, rb, cols, n_s)
    rows: dict[int, bytes] = {}
    out = []
    for m in _masks(ga, ta, ra, cols, n_s):
        row = rows.get(m)
        if row is None:
            row = rows[m] = bytes(1 if m & x else 0 for x in mb)
        out.append(row)
    return b"".join(out)
