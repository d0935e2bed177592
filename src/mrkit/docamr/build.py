"""Build one document graph from sentence graphs and coreference (the four representations).

Every representation starts from the same graph: a root ``(d / document)`` with
``:snt1 … :sntN`` edges to the sentence graphs (their variables renamed ``s<K>.<var>``),
one ``coref-entity`` node per identity chain that every mention points to
(``(s2.i / i :coref-of (rel-0 / coref-entity))``), implicit roles as edges from their
predicate to the chain node (``:ARG1``) and bridging as ``:subset-of`` (member -> set) or
``:part-of`` (part -> whole) edges between chain nodes, every member kept.

* ``no-merge``: that graph;
* ``merge-ne``: the named-entity mentions (nodes with a ``:name``) of a chain are merged
  into one node: distinct names and wikis are kept (``-`` dropped beside a real wiki); if
  their types differ, the most specific type (:data:`NE_TYPES` order, then frequency)
  is the concept and the others become ``:additional-type`` attributes; all other
  modifiers and all parents are gathered on the merged node;
* ``docamr``: merge-ne, then pronoun mentions of a chain that has a non-pronominal mention
  are dropped and their roles re-pointed to the chain node; an all-pronoun chain becomes
  one node labelled with its most specific pronoun, or ``interlocutor-entity`` when it
  mixes first- and second-person pronouns;
* ``merge-all``: every chain becomes one node (the first named, else the first
  non-pronominal mention is the head) inheriting all parents and children; other
  concepts become ``:additional-type`` attributes.

In every representation a ``coref-entity`` node left with a single member is replaced by
that member (MS-AMR singletons, which exist only to be named by bridging, end up so).
Every node carries ``provenance``: the 0-based indices of the sentences it comes from;
the merged and chain nodes carry the union.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from ..model.graph import Edge, Graph, Property
from ..model.document import Document

REPRESENTATIONS = ("no-merge", "merge-ne", "docamr", "merge-all")
COREF_ENTITY = "coref-entity"
IMPLICIT_ROLE = "implicit-role"
COREF_ROLE = "coref-of"

PRONOUNS = ("he", "she", "i", "we", "you", "it", "they", "this", "that", "these", "those")
"""AMR pronoun concepts, most specific first (gendered, then person, then number)."""

NE_TYPES = (
    # most specific first; a type earlier in the list wins when merged mentions differ
    "person", "family", "animal", "language", "nationality", "ethnic-group", "regional-group",
    "religious-group", "political-movement",
    "company", "government-organization", "military", "criminal-organization", "political-party",
    "school", "university", "research-institute", "team", "league", "organization",
    "city", "city-district", "county", "state", "province", "territory", "country",
    "local-region", "country-region", "world-region", "continent",
    "ocean", "sea", "lake", "river", "gulf", "bay", "strait", "canal", "peninsula", "mountain",
    "volcano", "valley", "canyon", "island", "desert", "forest", "moon", "planet", "star",
    "constellation",
    "airport", "station", "port", "tunnel", "bridge", "road", "railway-line", "building",
    "theater", "museum", "palace", "hotel", "worship-place", "sports-facility", "market", "park",
    "zoo", "amusement-park", "facility", "location",
    "book", "newspaper", "magazine", "journal", "publication", "picture", "music", "show",
    "broadcast-program", "work-of-art", "ship", "aircraft", "car-make", "spaceship", "vehicle",
    "product", "law", "treaty", "court-decision", "award", "war", "earthquake", "natural-disaster",
    "conference", "game", "festival", "incident", "event", "disease", "medical-condition",
    "protein", "gene", "thing",
)


def _var(k: int, v: str) -> str:
    return f"s{k + 1}.{v}"


def document_graph(doc: Document) -> Graph:
    """The no-merge document graph (before the single-member clean-up)."""
    g = Graph(id=doc.id, metadata={"id": doc.id}, framework="amr")
    root = g.add_node("d", "document")
    g.tops = ["d"]
    toks = []
    for k, s in enumerate(doc.sentences):
        for v, n in s.nodes.items():
            g.add_node(_var(k, v), n.label, properties=list(n.properties), provenance=frozenset({k}))
        for e in s.edges:
            g.add_edge(_var(k, e.source), _var(k, e.target), e.label)
        if s.tops:
            g.add_edge(root.id, _var(k, s.tops[0]), f"snt{k + 1}")
        toks.append(s.metadata.get("tok") or s.metadata.get("snt") or "")
    if any(toks):
        g.metadata["snt"] = " <next_sent> ".join(toks)
    for c in doc.chains:
        prov = {m.sentence for m in c.mentions} | {r.sentence for r in doc.implicit if r.chain == c.id}
        label = COREF_ENTITY if c.mentions else IMPLICIT_ROLE
        g.add_node(c.id, label, provenance=frozenset(prov))
        for m in c.mentions:
            g.add_edge(_var(m.sentence, m.variable), c.id, COREF_ROLE)
    for r in doc.implicit:
        g.add_edge(_var(r.sentence, r.variable), r.chain, r.role)
    for b in doc.bridges:
        role = "subset-of" if b.kind == "set-member" else "part-of"
        for child in b.children:
            g.add_edge(child, b.parent, role)
    return g


# ------------------------------------------------------------------ graph surgery

class _Doc:
    """A document graph under construction, with chain membership kept up to date."""

    def __init__(self, g: Graph, doc: Document) -> None:
        self.g = g
        self.chains = [c.id for c in doc.chains]

    def members(self, chain: str) -> list[str]:
        return [e.source for e in self.g.edges if e.target == chain and e.label == COREF_ROLE]

    def chain_members(self) -> Iterator[tuple[str, list[str]]]:
        """``(chain, its members)`` for every chain node still in the graph, each computed
        when reached (after the merges made for the chains before it)."""
        for c in self.chains:
            if c in self.g.nodes:
                yield c, self.members(c)

    def children(self, v: str, label: str | None = None) -> list[str]:
        return [e.target for e in self.g.edges if e.source == v and (label is None or e.label == label)]

    def name_key(self, name: str) -> tuple:
        n = self.g.nodes[name]
        return tuple(sorted((p.key, p.value) for p in n.properties))

    def merge(self, head: str, other: str, keep_type: bool = True) -> None:
        """Merge node ``other`` into ``head``: edges, properties, provenance, concept."""
        g = self.g
        if head == other or other not in g.nodes:
            return
        h, o = g.nodes[head], g.nodes[other]
        if keep_type and o.label and o.label != h.label and o.label not in h.property_values("additional-type"):
            h.properties.append(Property("additional-type", o.label))
        for p in o.properties:
            if p not in h.properties:
                h.properties.append(p)
        h.provenance = h.provenance | o.provenance
        edges, seen = [], set()
        for e in g.edges:
            s = head if e.source == other else e.source
            t = head if e.target == other else e.target
            if s == t == head and (e.source != e.target):
                continue  # an edge between the two merged nodes
            key = (s, e.label, t)
            if key in seen:
                continue
            seen.add(key)
            edges.append(e if (s, t) == (e.source, e.target) else Edge(s, t, e.label, list(e.attributes)))
        g.edges = edges
        del g.nodes[other]
        if g.tops and g.tops[0] == other:
            g.tops[0] = head
        self._dedupe_names(head)
        self._clean_wiki(head)

    def _dedupe_names(self, head: str) -> None:
        names = self.children(head, "name")
        seen: dict[tuple, str] = {}
        for n in names:
            key = self.name_key(n)
            if key in seen:
                self.g.edges = [e for e in self.g.edges if not (e.source == head and e.target == n and e.label == "name")]
                if not any(e.target == n for e in self.g.edges):
                    self._delete_subtree(n)
            else:
                seen[key] = n

    def _delete_subtree(self, v: str) -> None:
        kids = self.children(v)
        self.g.edges = [e for e in self.g.edges if e.source != v and e.target != v]
        del self.g.nodes[v]
        for k in kids:
            if k in self.g.nodes and not any(e.target == k for e in self.g.edges):
                self._delete_subtree(k)

    def _clean_wiki(self, head: str) -> None:
        h = self.g.nodes[head]
        wikis = h.property_values("wiki")
        if "-" in wikis and any(w != "-" for w in wikis):
            h.properties = [p for p in h.properties if not (p.key == "wiki" and p.value == "-")]

    def drop_single_member_chains(self) -> None:
        for c in self.chains:
            if c in self.g.nodes and self.g.nodes[c].label == COREF_ENTITY:
                ms = self.members(c)
                if len(ms) == 1:
                    self.merge(ms[0], c, keep_type=False)


def _most_specific(types: list[str]) -> str:
    ranked = [t for t in NE_TYPES if t in types]
    if ranked:
        return ranked[0]
    return Counter(types).most_common(1)[0][0]


def _merge_names(d: _Doc) -> None:
    g = d.g
    for _, ms in d.chain_members():
        named = [m for m in ms if d.children(m, "name")]
        if len(named) < 2:
            continue
        best = _most_specific([g.nodes[m].label or "" for m in named])
        head = next(m for m in named if g.nodes[m].label == best)
        for m in named:
            d.merge(head, m)


def _merge_anaphora(d: _Doc) -> None:
    g = d.g
    for c, ms in d.chain_members():
        prons = [m for m in ms if (g.nodes[m].label or "") in PRONOUNS]
        if not prons:
            continue
        if len(prons) < len(ms):
            for p in prons:
                d.merge(c, p, keep_type=False)
            continue
        forms = {g.nodes[p].label for p in prons}
        if forms & {"i", "we"} and "you" in forms:
            label = "interlocutor-entity"
        else:
            label = next(p for p in PRONOUNS if p in forms)
        node = g.nodes[c]
        node.label = label
        for p in prons:
            d.merge(c, p, keep_type=False)


def _merge_all(d: _Doc) -> None:
    g = d.g
    for _, ms in d.chain_members():
        if not ms:
            continue
        named = [m for m in ms if d.children(m, "name")]
        plain = [m for m in ms if (g.nodes[m].label or "") not in PRONOUNS]
        head = (named or plain or ms)[0]
        for m in ms:
            d.merge(head, m)


def build(doc: Document, representation: str = "docamr") -> Graph:
    """The document graph of ``doc`` in one of :data:`REPRESENTATIONS`."""
    if representation not in REPRESENTATIONS:
        raise ValueError(f"unknown representation {representation!r}; choose from {', '.join(REPRESENTATIONS)}")
    d = _Doc(document_graph(doc), doc)
    if representation in ("merge-ne", "docamr"):
        _merge_names(d)
    if representation == "docamr":
        _merge_anaphora(d)
    if representation == "merge-all":
        _merge_all(d)
    d.drop_single_member_chains()
    d.g.metadata["representation"] = representation
    return d.g


def no_coref(doc: Document) -> Graph:
    """The document graph without any coreference (sentences under the root only)."""
    bare = Document(doc.id, doc.sentences)
    g = document_graph(bare)
    g.metadata["representation"] = "no-coref"
    return g
