"""The one graph model of mrkit.

Every format (PENMAN, MRP JSON lines, SDP, EDS, UCCA, document graphs) is a codec into
and out of :class:`Graph`; every metric reads its features from it.

A graph has nodes (id, label, properties, anchors, provenance), labelled directed edges
(source, target, label, attributes) and tops.  Edges are stored as written: an AMR edge
``(b :ARG0-of a)`` is ``Edge("b", "a", "ARG0-of")``; metrics decide how to normalize
(see :mod:`mrkit.model.amr`).  Node properties keep their order and may repeat a key, as
PENMAN attributes can.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, NamedTuple


class Property(NamedTuple):
    """A node property / AMR attribute: ``key`` without colon, ``value`` without quotes.

    ``quoted`` records whether the value was written as a string literal, so that a
    codec can write it back the same way; metrics compare ``value`` only.
    """

    key: str
    value: str
    quoted: bool = False


@dataclass(slots=True)
class Anchor:
    """A character span ``[start, end)`` of the input text."""

    start: int
    end: int


@dataclass(slots=True)
class Node:
    """A node: its id (the variable in PENMAN), label (the concept), properties and anchors."""

    id: str
    label: str | None = None
    properties: list[Property] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    provenance: frozenset[int] = frozenset()
    """Indices of the sentences this node comes from (document graphs)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Format-specific data a codec must keep for a lossless round trip."""

    def property_values(self, key: str) -> list[str]:
        return [p.value for p in self.properties if p.key == key]


@dataclass(slots=True)
class Edge:
    """A labelled edge from node id ``source`` to node id ``target``."""

    source: str
    target: str
    label: str
    attributes: list[Property] = field(default_factory=list)
    normal: str | None = None
    """The label of the edge in its normal (un-inverted) direction, if the format says so."""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Graph:
    """A rooted, labelled, directed multigraph with metadata.

    ``nodes`` maps node id to :class:`Node` and keeps insertion order.  ``metadata``
    holds ``# ::key value`` pairs of PENMAN files, or the top-level fields of MRP that
    have no dedicated attribute.
    """

    id: str | None = None
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    tops: list[str] = field(default_factory=list)
    text: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    framework: str | None = None
    source_file: str | None = None
    source_line: int | None = None
    """Where the graph started in its file (1-based), for error messages."""
    extra: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------ building
    def add_node(self, node_id: str, label: str | None = None, **kw: Any) -> Node:
        if node_id in self.nodes:
            raise ValueError(f"duplicate node id {node_id!r}")
        node = Node(node_id, label, **kw)
        self.nodes[node_id] = node
        return node

    def add_edge(self, source: str, target: str, label: str, **kw: Any) -> Edge:
        edge = Edge(source, target, label, **kw)
        self.edges.append(edge)
        return edge

    # ------------------------------------------------------------ queries
    def __len__(self) -> int:
        return len(self.nodes)

    def outgoing(self, node_id: str) -> Iterator[Edge]:
        return (e for e in self.edges if e.source == node_id)

    def incoming(self, node_id: str) -> Iterator[Edge]:
        return (e for e in self.edges if e.target == node_id)

    def where(self) -> str:
        """``file:line (graph id)`` for error messages."""
        parts = []
        if self.source_file:
            parts.append(self.source_file + (f":{self.source_line}" if self.source_line else ""))
        if self.id is not None:
            parts.append(f"graph {self.id}")
        return ", ".join(parts) or "graph"

    def copy(self) -> "Graph":
        import copy

        return copy.deepcopy(self)


def node_ids(graphs: Iterable[Graph]) -> list[list[str]]:
    return [list(g.nodes) for g in graphs]
