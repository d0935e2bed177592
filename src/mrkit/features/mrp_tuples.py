"""The tuples the MRP metric counts, after the MRP normalizations.

One graph becomes an :class:`MRPTuples` over node indices ``0..n-1``:

* tops: the set of top nodes;
* labels: ``(node, label)`` for every labelled node;
* properties: ``(node, property, value)``;
* anchors: ``(node, set of character positions)`` for every anchored node;
* edges: ``(source, target, label)``;
* attributes: ``(source, target, label, attribute, value)``.

Normalizations (those of the CoNLL 2019/2020 scorer, mtool's ``--normalize``; each can be
switched off, :data:`NORMALIZATIONS`; all are on by default, as ``mtool --score`` does):

* ``case``: labels, property names, edge labels, attribute names and values are compared
  case-insensitively (off: as written); property values are always lower-cased (mtool's
  tuples do that whatever it normalizes); values are strings (``42`` equals ``"42"``);
* ``anchors``: a node's spans are united first (spans that overlap or touch merge, and so
  do two spans separated only by whitespace when the first ends in whitespace, mtool's
  ``union``), then trimmed of basic punctuation (off: each span as written; an explicit
  empty ``anchors: []`` then counts as an empty anchor, as in mtool).  Either way an anchor
  becomes the set of non-whitespace character positions of its spans, each trimmed of
  basic punctuation at both ends; a node whose spans trim to nothing keeps the
  non-whitespace positions of its untrimmed spans (never an empty set, where mtool would
  give every punctuation-only node the same empty anchor);
* ``edges``: an edge with a ``normal`` label is turned around; in AMR, a ``-of`` label is
  also turned to its base (not ``consist-of``, ``subset-of``, ``prep-on-behalf-of``,
  ``prep-out-of``), and ``mod`` becomes the inverse of ``domain``
  (:data:`mrkit.model.amr.MRP_SCORE`) (off: every edge as written, ``normal`` ignored);
* ``attributes``: edge attributes with their default value (``remote``, ``effective``,
  ``member`` false) are dropped (off: kept).

Each tuple type is a set: duplicates count once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..align import Features
from ..model.amr import MRP_SCORE
from ..model.graph import Anchor, Graph
from ..model.mrp import FLAVORS

PUNCTUATION = frozenset(".?!;,:“\"”‘'’()[]{} \t\n\f")
"""Characters trimmed from both ends of an anchor span (as in mtool)."""
SPACE = frozenset(" \t\n\f")
ATTRIBUTE_DEFAULTS = {"remote": "false", "effective": "false", "member": "false"}
"""Edge attributes dropped when they carry this value (mtool's ``graph.py``)."""
TUPLE_TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes")
NORMALIZATIONS = ("anchors", "case", "edges", "attributes")
"""The normalizations that can be chosen (mtool's ``--normalize``)."""
ALL_NORMALIZATIONS = frozenset(NORMALIZATIONS)


def parse_normalize(values) -> frozenset[str]:
    """The normalizations named by ``--normalize`` values: each a comma-separated list of
    :data:`NORMALIZATIONS`, or ``all`` or ``none``; repeated values add up (mtool spells
    ``--normalize anchors --normalize case``).  No value: all.  Raises ``ValueError``
    naming an unknown one."""
    values = [values] if isinstance(values, str) else list(values or ())
    if not values:
        return ALL_NORMALIZATIONS
    out: set[str] = set()
    for value in values:
        for name in str(value).split(","):
            name = name.strip().lower()
            if name == "all":
                out.update(NORMALIZATIONS)
            elif name == "none":
                continue
            elif name in NORMALIZATIONS:
                out.add(name)
            else:
                raise ValueError(f"unknown normalization {name!r} (choose among "
                                 f"{', '.join(NORMALIZATIONS)}, all, none)")
    return frozenset(out)


@dataclass(frozen=True)
class Normalizer:
    """The chosen normalizations as switches, for the framework metrics (SDP, EDM, UCCA)
    that read graphs as the MRP metric does."""

    case: bool = True
    anchors: bool = True
    edges: bool = True
    attributes: bool = True

    @classmethod
    def of(cls, normalize: frozenset[str] | None = None) -> "Normalizer":
        if normalize is None:
            return ALL
        return cls(*(n in normalize for n in ("case", "anchors", "edges", "attributes")))

    def name(self, value) -> str:
        """A label, name or value: lower-cased under ``case``."""
        return norm(value) if self.case else str(value)

    def edge(self, framework: str | None, e) -> tuple[str, str, str | None]:
        """An edge as (source, target, label): turned around under ``edges``."""
        if self.edges:
            return normal_edge(framework, e.source, e.target, e.label, e.normal, self.case)
        return e.source, e.target, (self.name(e.label) if e.label is not None else None)

    def spans(self, text: str | None, anchors) -> tuple[tuple[int, int], ...]:
        """A node's spans: united and trimmed under ``anchors`` (:func:`normal_spans`), else
        as written."""
        if self.anchors:
            return normal_spans(text, anchors)
        return tuple((a.start, a.end) for a in anchors)


def normalize_label(normalize: frozenset[str] | None = None) -> str:
    """``all``, ``none`` or the chosen normalizations in :data:`NORMALIZATIONS` order."""
    chosen = ALL_NORMALIZATIONS if normalize is None else normalize
    if chosen >= ALL_NORMALIZATIONS:
        return "all"
    return ",".join(n for n in NORMALIZATIONS if n in chosen) or "none"


def norm(value) -> str:
    """Case-insensitive string form of a label, name or value (``True`` -> ``"true"``)."""
    return str(value).lower()


def flavor(graph: Graph) -> int | None:
    """The graph's MRP flavor: as written in the file, else the framework's."""
    f = graph.extra.get("flavor") if graph.extra else None
    if f is None:
        f = FLAVORS.get((graph.framework or "").lower())
    try:
        return int(f) if f is not None else None
    except (TypeError, ValueError):
        return None


def explode(text: str | None, anchors: list[Anchor], unite: bool = False) -> frozenset[int]:
    """Character positions of anchor spans: trimmed of punctuation, without whitespace.

    ``unite``: the spans are first united and trimmed as mtool's ``anchors`` normalization
    does (:func:`normal_spans`), so that punctuation between two united spans counts.
    Falls back to the untrimmed positions when trimming leaves nothing, and to the start
    position of a zero-length span, so that an anchored node never gets an empty set.
    Without a text: the set of united ``(from, to)`` spans instead of positions.
    """
    if text is None:
        # no text to index: the united spans themselves (equal exactly when the position
        # sets are), never one entry per character: an anchor of 10^12 costs nothing
        spans = normal_spans(None, anchors)
        return frozenset(spans or ((max(a.start, 0), max(a.start, 0)) for a in anchors))
    if unite:
        trimmed = span_positions(text, normal_spans(text, anchors))
        if trimmed:
            return trimmed
        return explode(text, anchors)  # the same fallbacks as without uniting
    trimmed: set[int] = set()
    raw: set[int] = set()
    for a in anchors:
        start, end = max(a.start, 0), min(a.end, len(text))
        raw.update(k for k in range(start, end) if text[k] not in SPACE)
        while start < end and text[start] in PUNCTUATION:
            start += 1
        while end > start and text[end - 1] in PUNCTUATION:
            end -= 1
        trimmed.update(k for k in range(start, end) if text[k] not in SPACE)
    if trimmed:
        return frozenset(trimmed)
    if raw:
        return frozenset(raw)
    return frozenset(max(a.start, 0) for a in anchors)


def normal_spans(text: str | None, anchors: list[Anchor]) -> tuple[tuple[int, int], ...]:
    """A node's anchors after mtool's ``anchors`` normalization, as sorted ``(from, to)`` spans.

    As ``Node.normalize`` of mtool's ``graph.py``: the spans are united (spans that overlap
    or touch merge, and so do two spans separated only by whitespace when the last character
    of the first is itself whitespace: mtool's test ``input[last:i]`` includes that
    character); empty spans vanish; with a text, every span is then clamped to the text and
    trimmed of :data:`PUNCTUATION` at both ends, which may leave an empty span ``(i, i)``
    (a punctuation token keeps its position).  Computed over spans, never per character, so
    an anchor of 10^12 on a graph without text costs nothing.
    """
    merged: list[list[int]] = []
    for start, end in sorted((a.start, a.end) for a in anchors if a.end > a.start):
        if merged:
            last = merged[-1]
            if start <= last[1] or (text is not None and _all_space(text, last[1] - 1, start)):
                last[1] = max(last[1], end)
                continue
        merged.append([start, end])
    if not text:  # mtool trims only against a non-empty input
        return tuple((s, e) for s, e in merged)
    out = []
    for s, e in merged:
        i, j = max(s, 0), min(e, len(text))
        while i < j and text[i] in PUNCTUATION:
            i += 1
        while j > i and text[j - 1] in PUNCTUATION:
            j -= 1
        out.append((i, j))
    return tuple(out)


def _all_space(text: str, last: int, i: int) -> bool:
    """``all(c in SPACE for c in text[last:i])`` with Python's slice rules, as mtool tests it."""
    return all(c in SPACE for c in text[last:i])


def span_positions(text: str, spans) -> frozenset[int]:
    """Non-whitespace character positions of spans within ``text``, each span trimmed of
    :data:`PUNCTUATION` (mtool's ``score.core.explode``); may be empty."""
    out: set[int] = set()
    n = len(text)
    for start, end in spans:
        start, end = max(start, 0), min(end, n)
        while start < end and text[start] in PUNCTUATION:
            start += 1
        while end > start and text[end - 1] in PUNCTUATION:
            end -= 1
        out.update(k for k in range(start, end) if text[k] not in SPACE)
    return frozenset(out)


def normal_edge(framework: str | None, source: str, target: str, label: str | None,
                normal: str | None, case: bool = True) -> tuple[str, str, str | None]:
    """Un-invert an edge: by its ``normal`` label, and in AMR by ``-of`` and ``mod`` (the
    convention :data:`mrkit.model.amr.MRP_SCORE`).  ``case``: labels lower-cased."""
    if not case:
        if normal:
            return target, source, str(normal)
        if label is not None and (framework or "").lower() == "amr":
            base = MRP_SCORE.base(label)
            if base is not None:
                return target, source, base
        return source, target, (str(label) if label is not None else None)
    lab = norm(label) if label is not None else None
    if normal:
        return target, source, norm(normal)
    if lab is not None and (framework or "").lower() == "amr":
        base = MRP_SCORE.base(lab)
        if base is not None:
            return target, source, base
    return source, target, lab


ALL = Normalizer()
"""Every normalization (the default)."""


@dataclass
class MRPTuples:
    """The normalized tuples of one graph over node indices."""

    ids: list[str]
    tops: set[int] = field(default_factory=set)
    labels: list[str | None] = field(default_factory=list)
    properties: list[frozenset[tuple[str, str]]] = field(default_factory=list)
    anchors: list[frozenset[int] | None] = field(default_factory=list)
    edges: set[tuple[int, int, str]] = field(default_factory=set)
    attributes: set[tuple[int, int, str, str, str]] = field(default_factory=set)

    @property
    def n(self) -> int:
        return len(self.ids)

    def counts(self) -> dict[str, int]:
        """Number of tuples of each type."""
        return {
            "tops": len(self.tops),
            "labels": sum(label is not None for label in self.labels),
            "properties": sum(len(p) for p in self.properties),
            "anchors": sum(a is not None for a in self.anchors),
            "edges": len(self.edges),
            "attributes": len(self.attributes),
        }

    def features(self) -> Features:
        """Node-local tuples as unary features, edges and attributes as labelled edges."""
        unary = [Counter() for _ in self.ids]
        for i in self.tops:
            unary[i][("top",)] = 1
        for i, label in enumerate(self.labels):
            if label is not None:
                unary[i][("label", label)] = 1
        for i, props in enumerate(self.properties):
            for kv in props:
                unary[i][("prop",) + kv] = 1
        for i, a in enumerate(self.anchors):
            if a is not None:
                unary[i][("anchor", a)] = 1
        edges = [(s, lab, t) for s, t, lab in self.edges]
        edges += [(s, ("attr", lab, k, v), t) for s, t, lab, k, v in self.attributes]
        return Features(self.n, unary, edges)


def _verbatim(value) -> str:
    return str(value)


def _explicit_empty_anchors(node) -> bool:
    """Whether the node was written with ``"anchors": []`` (kept by the MRP reader)."""
    priv = node.extra.get("_mrp") if node.extra else None
    return bool(priv) and "anchors" in priv.get("empty", ())


def mrp_tuples(graph: Graph, normalize: frozenset[str] | None = None) -> MRPTuples:
    """Normalize a graph and collect the tuples the MRP metric counts.

    ``normalize``: which of :data:`NORMALIZATIONS` apply (``None``: all)."""
    if normalize is None or normalize >= ALL_NORMALIZATIONS:
        case = unite = edges = defaults = True
    else:
        case, unite = "case" in normalize, "anchors" in normalize
        edges, defaults = "edges" in normalize, "attributes" in normalize
    name = norm if case else _verbatim
    ids = list(graph.nodes)
    index = {v: i for i, v in enumerate(ids)}
    t = MRPTuples(ids)
    text = graph.text
    for node in graph.nodes.values():
        t.labels.append(name(node.label) if node.label is not None else None)
        t.properties.append(frozenset((name(p.key), norm(p.value)) for p in node.properties))
        if node.anchors:
            t.anchors.append(explode(text, node.anchors, unite))
        elif not unite and _explicit_empty_anchors(node):
            t.anchors.append(frozenset())
        else:
            t.anchors.append(None)
    t.tops = {index[v] for v in graph.tops if v in index}
    for e in graph.edges:
        if e.source not in index or e.target not in index:
            continue  # the reader rejects such graphs; be robust for graphs built in code
        if edges:
            s, o, lab = normal_edge(graph.framework, e.source, e.target, e.label, e.normal, case)
        else:
            s, o, lab = e.source, e.target, (name(e.label) if e.label is not None else None)
        si, oi = index[s], index[o]
        t.edges.add((si, oi, lab))
        for a in e.attributes:
            k, v = name(a.key), name(a.value)
            if not defaults or ATTRIBUTE_DEFAULTS.get(k) != v:
                t.attributes.add((si, oi, lab, k, v))
    return t


def normalized_graph(graph: Graph, normalize: frozenset[str]) -> Graph:
    """A copy of ``graph`` after mtool's ``Graph.normalize`` with these normalizations, for
    statistics (``mrkit analyze --normalize``; scores use :func:`mrp_tuples` instead):

    * ``anchors``: every node's spans united and trimmed (:func:`normal_spans`); a node left
      without spans (also one written ``"anchors": []``) has no anchors;
    * ``edges``: inverted edges turned around: by ``normal``, else ``mod`` -> ``domain``
      and ``-of`` labels (not ``prep-``, :data:`mrkit.model.amr.MRP_NORMAL`), in every
      framework as mtool does (mtool also turns ``consist-of`` and ``subset-of``, a missing
      comma in its exception list; mrkit keeps them);
    * ``case``: node labels, property names and values, edge labels, ``normal`` labels,
      attribute names and values lower-cased (after ``edges``, as in mtool);
    * ``attributes``: edge attributes with their default value dropped."""
    from dataclasses import replace as _replace

    from ..model.amr import MRP_NORMAL
    from ..model.graph import Edge, Node, Property

    def lower(value):
        return None if value is None else str(value).lower()

    case = "case" in normalize
    nodes = {}
    for k, n in graph.nodes.items():
        node = Node(n.id, n.label, list(n.properties), list(n.anchors), n.provenance, dict(n.extra))
        if "anchors" in normalize:
            node.anchors = [Anchor(s, e) for s, e in normal_spans(graph.text, n.anchors)]
            priv = node.extra.get("_mrp")
            if priv and "anchors" in priv.get("empty", ()):
                node.extra["_mrp"] = {**priv, "empty": [x for x in priv["empty"] if x != "anchors"]}
        if case:
            node.label = lower(node.label)
            node.properties = [Property(p.key.lower(), p.value.lower(), p.quoted) for p in node.properties]
        nodes[k] = node
    edges = []
    for e in graph.edges:
        edge = Edge(e.source, e.target, e.label, list(e.attributes), e.normal, dict(e.extra))
        if "edges" in normalize:
            base = e.normal or (MRP_NORMAL.base(e.label) if e.label is not None else None)
            if base:
                edge.source, edge.target, edge.label, edge.normal = e.target, e.source, base, None
        if case:
            edge.label = lower(edge.label) if edge.label is not None else None
            edge.normal = lower(edge.normal)
            edge.attributes = [Property(a.key.lower(), a.value.lower(), a.quoted) for a in edge.attributes]
        if "attributes" in normalize:
            edge.attributes = [a for a in edge.attributes if ATTRIBUTE_DEFAULTS.get(a.key) != a.value]
        edges.append(edge)
    return _replace(graph, nodes=nodes, edges=edges)
