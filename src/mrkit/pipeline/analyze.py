"""``mrkit analyze``: the graph statistics of Kuhlmann & Oepen (2016) (Table 2 of the MRP
2019 overview), per framework, over any graph file mrkit reads.

Reads with :func:`mrkit.pipeline.mrp.read_side` (MRP, PENMAN, SDP, EDS, UCCA; a
document graph is a PENMAN graph), measures every graph with
:func:`mrkit.features.properties.graph_properties` and sums the measurements per
framework (:class:`FrameworkStatistics`).  AMR graphs are also analysed with their
inverted edges turned around (``amr⁻¹``, the paper's AMR⁻¹ column): an edge's ``normal``
label where it has one, else the MRP convention of :data:`mrkit.model.amr.MRP_NORMAL`.

The percentages and averages are those of ``mtool --analyze`` (see the module docstring
of :mod:`mrkit.features.properties` for the conventions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..features.properties import GraphProperties, graph_properties
from ..model.graph import Graph

INVERTED_SUFFIX = "⁻¹"


def normal_base(label: str | None, normal: str | None) -> str | None:
    """The label of an edge in its base direction when it is inverted, else None."""
    if normal:
        return normal
    if label is None:
        return None
    from ..model.amr import MRP_NORMAL

    return MRP_NORMAL.base(label)


@dataclass
class FrameworkStatistics:
    """Sums of the measurements of one framework's graphs."""

    name: str
    graphs: int = 0
    nodes: int = 0
    tops: int = 0
    labels: int = 0
    properties: int = 0
    anchors: int = 0
    edges: int = 0
    attributes: int = 0
    edge_labels: set[str] = field(default_factory=set)
    singletons: int = 0
    reentrant: int = 0
    nontop_roots: int = 0
    trees: int = 0
    treewidth_one: int = 0
    treewidth_sum: int = 0
    treewidth_max: int = 0
    density_sum: float = 0.0
    cyclic: int = 0
    connected: int = 0
    multirooted: int = 0
    ordered: bool = True
    edge_length: int = 0
    noncrossing: int = 0
    pagenumber_two: int = 0

    def add(self, p: GraphProperties) -> None:
        self.graphs += 1
        self.nodes += p.nodes
        self.tops += p.tops
        self.labels += p.labels
        self.properties += p.properties
        self.anchors += p.anchors
        self.edges += p.edges
        self.attributes += p.attributes
        self.edge_labels |= p.edge_labels
        self.singletons += p.singletons
        self.reentrant += p.reentrant
        self.nontop_roots += p.nontop_roots
        self.trees += p.tree
        self.treewidth_one += p.treewidth == 1
        self.treewidth_sum += p.treewidth
        self.treewidth_max = max(self.treewidth_max, p.treewidth)
        self.density_sum += p.density
        self.cyclic += p.cyclic
        self.connected += p.connected
        self.multirooted += p.multirooted
        self.ordered = self.ordered and p.ordered
        if p.ordered:
            self.edge_length += p.edge_length
            self.noncrossing += bool(p.noncrossing)
            self.pagenumber_two += bool(p.pagenumber_two)

    def to_dict(self) -> dict:
        """The statistics: counts, then percentages (0-100) and averages, full precision;
        ``None`` where undefined (no graphs, no ordered graphs, no edges)."""
        n = self.graphs
        tuples = self.tops + self.labels + self.properties + self.anchors + self.edges + self.attributes
        active = self.nodes - self.singletons

        def pct(x: float, d: int) -> float | None:
            return 100 * x / d if d else None

        out: dict = {
            "graphs": n, "nodes": self.nodes, "tops": self.tops, "labels": self.labels,
            "properties": self.properties, "anchors": self.anchors, "edges": self.edges,
            "attributes": self.attributes, "tuples": tuples,
            "share": {k: pct(getattr(self, k), tuples) for k in
                      ("tops", "labels", "properties", "anchors", "edges", "attributes")},
            "edge_labels": len(self.edge_labels),
            "trees": pct(self.trees, n),
            "treewidth_one": pct(self.treewidth_one, n),
            "treewidth_average": self.treewidth_sum / n if n else None,
            "treewidth_max": self.treewidth_max if n else None,
            "edge_density": self.density_sum / n if n else None,
            "reentrant": pct(self.reentrant, active),
            "cyclic": pct(self.cyclic, n),
            "not_connected": pct(n - self.connected, n),
            "multirooted": pct(self.multirooted, n),
            "nontop_roots": pct(self.nontop_roots, active),
            "ordered": self.ordered and n > 0,
            "edge_length": None, "noncrossing": None, "pagenumber_two": None,
        }
        if self.ordered and n:
            out["edge_length"] = self.edge_length / self.edges if self.edges else None
            out["noncrossing"] = pct(self.noncrossing, n)
            out["pagenumber_two"] = pct(self.pagenumber_two, n)
        return out


@dataclass
class Analysis:
    """What ``mrkit analyze`` reports: the statistics of every framework, in the order
    frameworks first appear (``amr⁻¹`` right after ``amr``)."""

    frameworks: dict[str, FrameworkStatistics] = field(default_factory=dict)
    source: str | None = None

    def to_dict(self) -> dict:
        return {"input": self.source, "frameworks": {k: v.to_dict() for k, v in self.frameworks.items()}}


def analyze_graphs(graphs: Iterable[Graph], *, inverted: bool = True, source: str | None = None,
                   normalize: frozenset[str] | None = None) -> Analysis:
    """The statistics of ``graphs`` per framework (a graph without framework counts under
    ``graphs``); with ``inverted``, AMR graphs also as ``amr⁻¹``.  ``normalize``: mtool's
    normalizations applied first (:func:`mrkit.features.mrp_tuples.normalized_graph`;
    ``None`` or empty: the graphs as read, as ``mtool --analyze``)."""
    result = Analysis(source=source)
    table = result.frameworks
    if normalize:
        from ..features.mrp_tuples import normalized_graph

        graphs = (normalized_graph(g, normalize) for g in graphs)
    for g in graphs:
        name = (g.framework or "graphs").lower()
        stats = table.get(name)
        if stats is None:
            stats = table[name] = FrameworkStatistics(name)
            if inverted and name == "amr":
                table[name + INVERTED_SUFFIX] = FrameworkStatistics(name + INVERTED_SUFFIX)
        stats.add(graph_properties(g))
        if inverted and name == "amr":
            table[name + INVERTED_SUFFIX].add(graph_properties(g, invert=normal_base))
    return result


__all__ = ["Analysis", "FrameworkStatistics", "INVERTED_SUFFIX", "analyze_graphs", "normal_base"]
