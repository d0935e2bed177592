"""The triples Smatch counts (AMR conventions in :mod:`mrkit.model.amr`).

A graph is turned into

* instance triples ``(v, instance, concept)``,
* attribute triples ``(v, role, constant)`` (constants without quotes; ``:mod 1`` kept),
* relation triples ``(v, role, w)`` with inverted roles (``:ARG0-of``) turned to their base
  direction, but not roles that merely end in ``-of`` (``:consist-of``,
  ``:prep-on-behalf-of``, ``:prep-out-of``),
* one top triple ``(TOP, v, top)`` per top node (as in smatch 1.0.4, where the value of
  the TOP attribute is the constant ``top``).

Labels, roles and constants are compared lower-cased, as smatch and smatchpp do.
Duplicate triples are counted once.
"""

from __future__ import annotations

from ..model.inverted_roles import NON_INVERTED_OF, normalize_relation
from ..model.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the coded metrics build no Graph (start-up, issue 14)
    from ..model.graph import Graph


_FACTORY = object()  # "an empty list" (the default_factory of the dataclass Triples was)


class Triples(Record):
    """The Smatch triples of one graph, over node indices ``0..n-1``.

    (A :class:`~mrkit.model.record.Record`, not a ``@dataclass``: the dataclass cost
    start-up, issue 14; tests/features/test_triples_record.py compares the two.)"""

    _fields = __match_args__ = ("variables", "instances", "attributes", "relations", "tops")

    def __init__(self, variables: list[str], instances: list[tuple[int, str]] = _FACTORY,  # type: ignore[assignment]
                 attributes: list[tuple[int, str, str]] = _FACTORY,  # type: ignore[assignment]
                 relations: list[tuple[int, str, int]] = _FACTORY,  # type: ignore[assignment]
                 tops: list[int] = _FACTORY) -> None:  # type: ignore[assignment]
        self.variables = variables
        self.instances = [] if instances is _FACTORY else instances
        self.attributes = [] if attributes is _FACTORY else attributes
        self.relations = [] if relations is _FACTORY else relations
        self.tops = [] if tops is _FACTORY else tops

    def __len__(self) -> int:
        return len(self.instances) + len(self.attributes) + len(self.relations) + len(self.tops)

    def as_strings(self) -> list[tuple[str, str, str]]:
        """The triples with variable names, for display and debugging."""
        v = self.variables
        out = [(v[i], "instance", c) for i, c in self.instances]
        out += [(v[i], r, c) for i, r, c in self.attributes]
        out += [(v[i], r, v[k]) for i, r, k in self.relations]
        out += [("TOP", v[i], "top") for i in self.tops]
        return out


def triples(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> Triples:
    """Extract Smatch triples from a graph (lower-cased, de-inverted, de-duplicated)."""
    variables = list(graph.nodes)
    index = {v: i for i, v in enumerate(variables)}
    t = Triples(variables)
    seen_attr: set[tuple[int, str, str]] = set()
    for i, (var, node) in enumerate(graph.nodes.items()):
        if node.label is not None:
            t.instances.append((i, node.label.lower()))
        for p in node.properties:
            a = (i, p.key.lower(), p.value.lower())
            if a not in seen_attr:
                seen_attr.add(a)
                t.attributes.append(a)
    seen_rel: set[tuple[int, str, int]] = set()
    for e in graph.edges:
        s, r, o = normalize_relation(e.source, e.label, e.target, keep)
        rel = (index[s], r, index[o])
        if rel not in seen_rel:
            seen_rel.add(rel)
            t.relations.append(rel)
    seen_top: set[int] = set()
    for top in graph.tops:
        if top in index and index[top] not in seen_top:
            seen_top.add(index[top])
            t.tops.append(index[top])
    return t


def block_triples(text: str, keep: frozenset[str] = NON_INVERTED_OF) -> tuple[str | None, Triples] | None:
    """``(id, triples)`` of one PENMAN block holding one graph, read by the compiled reader
    (:mod:`mrkit.features._triples`, ``block_triples``) with no graph model in between:
    the same :class:`Triples` as parsing the block and calling :func:`triples` (``id``:
    its ``# ::id``, None without one).  ``None`` when the compiled reader is missing or
    leaves the block to the general path (unusual PENMAN, an error, several graphs); the
    caller then parses the block."""
    fn = _block_triples()
    if fn is None:
        return None
    out = fn(text, _keep_tuple(keep))
    if out is None:
        return None
    gid, variables, instances, attributes, relations, tops = out
    return gid, Triples(variables, instances, attributes, relations, tops)


_KEEP: dict = {}


def _keep_tuple(keep: frozenset[str]) -> tuple[str, ...]:
    t = _KEEP.get(keep)
    if t is None:
        t = _KEEP[keep] = tuple(sorted(keep))
    return t


_FN: list = []


def _block_triples():
    if not _FN:
        import os

        try:
            from ._triples import block_triples as fn
        except ImportError:
            fn = None
        _FN.append(None if os.environ.get("MRKIT_PURE_PENMAN") else fn)
    return _FN[0]


def pair_codes(golds: list[str], systems: list[str], keep: frozenset[str] = NON_INVERTED_OF):
    """``(ids, codes, refused)`` of many pairs of PENMAN blocks (``golds[k]``,
    ``systems[k]``), read by the compiled reader (:mod:`mrkit.features._triples`,
    ``pair_codes``) into one buffer of int64 (a read-only memoryview of the reader's own
    buffer, not copied) with no Python object per graph or triple: per
    pair, the gold then the system graph's :class:`Triples` as numbers (see the C file;
    the same triples as :func:`block_triples`, tested).  ``refused``: the pairs a block of
    which the reader leaves to the general path.  ``None`` when the compiled reader is
    missing or ``MRKIT_PURE_PENMAN`` or ``MRKIT_PURE_CODES`` is set."""
    fn = _pair_codes()
    if fn is None or _block_triples() is None:
        return None
    return fn(golds, systems, _keep_tuple(keep))


def pair_codes_units(gold: tuple, system: tuple, keep: frozenset[str] = NON_INVERTED_OF):
    """:func:`pair_codes` of the blocks of two files given as byte ranges, with no Python
    object per block: ``gold`` and ``system`` are ``(piece, offset, units)`` -- bytes of the
    file starting at file offset ``offset`` and the int64 (start, end, first line) triples
    of the blocks in it (:func:`mrkit.codecs.penman_units.unit_pieces`, without graphs),
    as many for both files.  Exactly :func:`pair_codes` of the decoded blocks (tested);
    ``None`` when it would be ``None``."""
    fn = _pair_codes()
    if fn is None or _block_triples() is None:
        return None
    from ._triples import pair_codes_units as units_fn

    return units_fn(*gold, *system, _keep_tuple(keep))


_CODES: list = []


def _pair_codes():
    if not _CODES:
        import os

        try:
            from ._triples import pair_codes as fn
        except ImportError:
            fn = None
        _CODES.append(None if os.environ.get("MRKIT_PURE_CODES") else fn)
    return _CODES[0]
