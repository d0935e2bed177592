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

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator, NamedTuple


def _property_class():
    """``Property`` as ``class Property(typing.NamedTuple)`` makes it (a
    ``collections.namedtuple`` with its docstring and annotations) without importing
    typing at start-up."""
    from collections import namedtuple

    cls = namedtuple("Property", ["key", "value", "quoted"], defaults=(False,), module=__name__)
    cls.__doc__ = """A node property / AMR attribute: ``key`` without colon, ``value`` without quotes.

    ``quoted`` records whether the value was written as a string literal, so that a
    codec can write it back the same way; metrics compare ``value`` only.
    """
    cls.__annotations__ = cls.__new__.__annotations__ = {"key": "str", "value": "str", "quoted": "bool"}
    return cls


if TYPE_CHECKING:
    class Property(NamedTuple):
        key: str
        value: str
        quoted: bool = False
else:
    Property = _property_class()


# Anchor, Node and Edge are written out as ``@dataclass(slots=True)`` would generate them
# (same __init__, __repr__, __eq__, unhashable, __match_args__, __slots__): the decorator
# compiles their methods at every start-up, about 1 ms a class, and every command builds
# graphs (tests/model/test_graph_records.py compares them with the dataclasses).


class _Factory:
    """The default of a field whose default is made per instance (a new list or dict)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _recursive_repr(fn):
    """``...`` instead of endless recursion when a record contains itself (as dataclasses)."""
    import _thread

    running: set = set()

    def wrapper(self):
        key = id(self), _thread.get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            return fn(self)
        finally:
            running.discard(key)

    wrapper.__name__, wrapper.__qualname__, wrapper.__wrapped__ = fn.__name__, fn.__qualname__, fn
    return wrapper


class Anchor:
    """A character span ``[start, end)`` of the input text."""

    __slots__ = ("start", "end")
    __match_args__ = ("start", "end")
    __hash__ = None  # type: ignore[assignment]  (mutable, compared by value)

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end

    @_recursive_repr
    def __repr__(self) -> str:
        return self.__class__.__qualname__ + f"(start={self.start!r}, end={self.end!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.start, self.end) == (other.start, other.end)
        return NotImplemented


class Node:
    """A node: its id (the variable in PENMAN), label (the concept), properties and anchors.

    ``provenance``: indices of the sentences this node comes from (document graphs);
    ``extra``: format-specific data a codec must keep for a lossless round trip."""

    __slots__ = ("id", "label", "properties", "anchors", "provenance", "extra")
    __match_args__ = ("id", "label", "properties", "anchors", "provenance", "extra")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, id: str, label: str | None = None, properties: list[Property] = _FACTORY,
                 anchors: list[Anchor] = _FACTORY, provenance: frozenset[int] = frozenset(),
                 extra: dict[str, Any] = _FACTORY) -> None:
        self.id = id
        self.label = label
        self.properties = [] if properties is _FACTORY else properties
        self.anchors = [] if anchors is _FACTORY else anchors
        self.provenance = provenance
        self.extra = {} if extra is _FACTORY else extra

    @_recursive_repr
    def __repr__(self) -> str:
        return self.__class__.__qualname__ + (
            f"(id={self.id!r}, label={self.label!r}, properties={self.properties!r}, anchors={self.anchors!r}, "
            f"provenance={self.provenance!r}, extra={self.extra!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.id, self.label, self.properties, self.anchors, self.provenance, self.extra) == \
                (other.id, other.label, other.properties, other.anchors, other.provenance, other.extra)
        return NotImplemented

    def property_values(self, key: str) -> list[str]:
        return [p.value for p in self.properties if p.key == key]


class Edge:
    """A labelled edge from node id ``source`` to node id ``target``.

    ``normal``: the label of the edge in its normal (un-inverted) direction, if the format
    says so; ``extra``: format-specific data."""

    __slots__ = ("source", "target", "label", "attributes", "normal", "extra")
    __match_args__ = ("source", "target", "label", "attributes", "normal", "extra")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, source: str, target: str, label: str, attributes: list[Property] = _FACTORY,
                 normal: str | None = None, extra: dict[str, Any] = _FACTORY) -> None:
        self.source = source
        self.target = target
        self.label = label
        self.attributes = [] if attributes is _FACTORY else attributes
        self.normal = normal
        self.extra = {} if extra is _FACTORY else extra

    @_recursive_repr
    def __repr__(self) -> str:
        return self.__class__.__qualname__ + (
            f"(source={self.source!r}, target={self.target!r}, label={self.label!r}, "
            f"attributes={self.attributes!r}, normal={self.normal!r}, extra={self.extra!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.source, self.target, self.label, self.attributes, self.normal, self.extra) == \
                (other.source, other.target, other.label, other.attributes, other.normal, other.extra)
        return NotImplemented


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
