"""The framework-specific metrics reported beside the MRP metric.

* DM, PSD (and any other bi-lexical, flavor-0 framework): SDP labeled/unlabeled scores;
* EDS: EDM;
* UCCA: primary/remote x labeled/unlabeled edges over yields;
* AMR: Smatch, through :mod:`mrkit.metrics.amr.smatch` (certified alignments), on the
  graphs' edges as the MRP metric reads them: an edge with a ``normal`` label is turned
  around and gets that label (``mod`` with ``normal`` ``domain`` counts as ``domain`` in the
  other direction, ``consist-of`` with ``normal`` ``consist`` as ``consist``).

Gold and system graphs are paired as for the MRP metric; a missing system graph is empty.
"""

from __future__ import annotations

from typing import Sequence

from ...align import AlignConfig
from ...model.graph import Edge, Graph
from .edm import edm_score
from ...features.mrp_tuples import flavor
from .sdp import sdp_score
from .ucca import ucca_score


def metric_for(graph: Graph) -> str | None:
    """Name of the framework-specific metric of a gold graph (``None``: there is none)."""
    fw = (graph.framework or "").lower()
    if fw == "eds":
        return "edm"
    if fw == "ucca":
        return "ucca"
    if fw == "amr":
        return "smatch"
    if flavor(graph) == 0:
        return "sdp"
    return None


def with_normal_edges(g: Graph) -> Graph:
    """A shallow copy of ``g`` whose edges with a ``normal`` label are turned to it."""
    if not any(e.normal for e in g.edges):
        return g
    edges = [Edge(e.target, e.source, str(e.normal)) if e.normal else e for e in g.edges]
    return Graph(id=g.id, nodes=g.nodes, edges=edges, tops=g.tops, text=g.text, framework=g.framework,
                 source_file=g.source_file, source_line=g.source_line)


def framework_scores(pairs: Sequence[tuple[Graph, Graph | None]], config: AlignConfig = AlignConfig(),
                     workers: int = 1) -> dict[str, dict]:
    """``{framework: report of its metric}`` for every framework that has one."""
    groups: dict[str, list[tuple[Graph, Graph]]] = {}
    names: dict[str, str] = {}
    for gold, system in pairs:
        name = metric_for(gold)
        if name is None:
            continue
        if system is None:
            system = Graph(id=gold.id, framework=gold.framework, text=gold.text)
        groups.setdefault(gold.framework or "", []).append((gold, system))
        names[gold.framework or ""] = name
    out: dict[str, dict] = {}
    for fw, items in groups.items():
        name = names[fw]
        if name == "smatch":
            from ..amr.smatch import smatch_corpus

            res = smatch_corpus([with_normal_edges(g) for g, _ in items],
                                [with_normal_edges(s) for _, s in items], config, workers=workers)
            out[fw] = {"metric": "smatch", **res.to_dict()}
        else:
            fn = {"sdp": sdp_score, "edm": edm_score, "ucca": ucca_score}[name]
            out[fw] = fn(items).to_dict()
    return out
