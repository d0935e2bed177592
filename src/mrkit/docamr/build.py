"""Build one document graph from sentence graphs and coreference (the four representations
of the DocAMR paper, Naseem et al. 2022, §3.3-3.4), and re-normalise document graphs.

Every representation starts from the same graph: a root ``(d / document)`` with
``:snt1 … :sntN`` edges to the sentence graphs (their variables renamed ``s<K>.<var>``),
one ``coref-entity`` node per identity chain that every mention points to
(``(s2.i / i :coref-of (rel-0 / coref-entity))``, named by the chain id unless that is
taken or no PENMAN variable: :func:`chain_node_names`), implicit roles as edges from their
predicate to the chain node (``:ARG1``; an MS-AMR singleton that is only an implicit role
is an ``implicit-role`` node) and bridging as ``:subset-of`` (member -> set) or
``:part-of`` (part -> whole) edges between chain nodes, every member kept.

The paper leaves details open; IBM's implementation (PyPI ``docamr`` 0.1.1, ``amr_io.py``)
is the reading followed here:

* ``no-merge``: that graph;
* ``merge-ne``: the named mentions (nodes with a ``:name``) of a chain are merged into one
  node.  The head is the first named mention, or, when their types differ, the first of
  the most specific type (:data:`NE_TYPES`, IBM's list; a type in none of it: the most
  frequent); every other distinct type stays as a node under ``:additional-type``.  A
  merge (:meth:`_Doc.merge`) moves every edge of the merged node to the head, keeps
  distinct names (names compared by their ``:opN`` strings) and distinct wikis (``:wiki
  -`` dropped beside a real wiki), and merges children reached by the same role whose
  concepts are the same, recursively;
* ``docamr``: merge-ne, then the pronoun mentions (:data:`PRONOUNS`, IBM's 42) of a chain
  with a non-pronoun mention are merged into the chain node; an all-pronoun chain becomes
  one node labelled ``interlocutor-entity`` if its pronouns differ and include ``i`` or
  ``you``, else its most specific pronoun (first in :data:`PRONOUNS`);
* ``merge-all``: the mentions of a chain are merged into its first mention, other
  concepts kept under ``:additional-type``;
* ``flipped`` (§3.4): the parents of every mention of a remaining chain point to the
  chain node instead (for merge-all before the merge, as IBM does: the parents are then
  not merged as children).

Last, a chain node left with a single member is merged into that member (the paper's
"discard single node clusters"; MS-AMR singletons, which exist only to be named by
bridging, end up so).

Every node carries ``provenance``: the 0-based indices of the sentences it comes from;
merged and chain nodes carry the union.  Where IBM's code has a defect, mrkit keeps the
correct behaviour (README, "docamr build": differences from IBM's implementation).

Graph inputs (:func:`normalize`, :func:`chains_from_pairs`): a No-Merge document graph
(chain nodes with ``:coref-of`` edges, as IBM's ``--in-doc-amr-unmerged``) or a document
graph whose coreference is pairwise edges (``:same-as``, IBM's ``--in-doc-amr-pairwise``).
"""

from __future__ import annotations

import re
from collections import Counter

from ..model.document import Document
from ..model.graph import Edge, Graph, Property

REPRESENTATIONS = ("no-merge", "merge-ne", "docamr", "merge-all")
COREF_ENTITY = "coref-entity"
IMPLICIT_ROLE = "implicit-role"
INTERLOCUTOR = "interlocutor-entity"
COREF_ROLE = "coref-of"
ADDITIONAL = "additional-type"
BRIDGE_ROLES = frozenset({"subset-of", "part-of"})

PRONOUNS = (
    "i", "we", "you", "he", "she", "that", "this", "these", "those", "it", "they", "all", "another",
    "anybody", "anyone", "anything", "any", "both", "each", "either", "everybody", "everyone",
    "everything", "neither", "nobody", "none", "nothing", "one", "few", "most", "many", "other",
    "several", "some", "somebody", "someone", "something", "such", "whatever", "whichever",
    "whoever", "whomever",
)
"""The pronoun concepts of IBM's docAMR (``amr_io.pronouns``), in its order: the first of
a chain's forms is its most specific (``he`` before ``someone``)."""

INTERLOCUTOR_FORMS = frozenset({"i", "you"})
"""An all-pronoun chain with several forms among which one of these refers to a
participant in a dialogue (IBM: ``"i" in forms or "you" in forms``)."""

NE_TYPES = (
    "medical-condition", "disease", "taxon", "species", "cell-line", "cell", "dna-sequence", "gene",
    "pathway", "nucleic-acid", "enzyme", "macro-molecular-complex", "amino-acid", "protein-segment",
    "protein-family", "protein", "small-molecule", "molecular-physical-entity", "program", "variable",
    "writing-script", "food-dish", "musical-note", "music-key", "treaty", "court-decision", "law",
    "award", "natural-object", "journal", "magazine", "newspaper", "book", "publication",
    "broadcast-program", "show", "music", "picture", "work-of-art", "car-make", "spaceship",
    "aircraft-type", "aircraft", "ship", "vehicle", "product", "festival", "game", "conference", "war",
    "earthquake", "natural-disaster", "incident", "event", "amusement-park", "zoo", "park", "market",
    "sports-facility", "worship-place", "hotel", "palace", "museum", "theater", "building", "canal",
    "railway-line", "road", "bridge", "tunnel", "port", "station", "airport", "facility",
    "constellation", "star", "planet", "moon", "forest", "desert", "island", "canyon", "valley",
    "volcano", "mountain", "peninsula", "strait", "bay", "gulf", "river", "lake", "sea", "ocean",
    "continent", "world-region", "country-region", "local-region", "country", "territory", "province",
    "state", "county", "city-district", "city", "location", "league", "team", "research-institute",
    "university", "school", "market-sector", "political-party", "criminal-organization", "military",
    "government-organization", "company", "organization", "political-movement", "religious-group",
    "regional-group", "ethnic-group", "nationality", "language", "animal", "family", "person", "thing",
)
"""Named-entity types from most specific to most general (IBM's ``amr_io.NETypes``)."""


def _var(k: int, v: str) -> str:
    return f"s{k + 1}.{v}"


_UNSAFE = re.compile(r'[\s"()/:~=]')
"""Characters a chain node's name may not have: PENMAN's delimiters, and ``=`` (the
``# ::provenance`` line's ``var=N``)."""


def chain_node_names(doc: Document, taken: set[str]) -> dict[str, str]:
    """Chain id -> the name of its node in the document graph: the id itself, unless it
    is a name ``taken`` already (the root ``d``, a sentence variable ``s1.l``) or not a
    PENMAN variable (white space, parentheses, ...).  Those get the id with its unsafe
    characters replaced by ``_`` and, when that is taken too, ``-2``, ``-3``, ... (the
    first free): ids that are names are kept first, so the result does not depend on
    the order of the chains beyond that."""
    names: dict[str, str] = {}
    used = set(taken)
    for c in doc.chains:
        if c.id not in used and c.id and not _UNSAFE.search(c.id):
            names[c.id] = c.id
            used.add(c.id)
    for c in doc.chains:
        if c.id in names:
            continue
        base = _UNSAFE.sub("_", c.id) or "chain"
        name, n = base, 1
        while name in used:
            n += 1
            name = f"{base}-{n}"
        names[c.id] = name
        used.add(name)
    return names


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
    name = chain_node_names(doc, set(g.nodes))
    for c in doc.chains:
        prov = {m.sentence for m in c.mentions} | {r.sentence for r in doc.implicit if r.chain == c.id}
        label = IMPLICIT_ROLE if (c.singleton and not c.mentions) else COREF_ENTITY
        g.add_node(name[c.id], label, provenance=frozenset(prov))
        for m in c.mentions:
            g.add_edge(_var(m.sentence, m.variable), name[c.id], COREF_ROLE)
    for r in doc.implicit:
        g.add_edge(_var(r.sentence, r.variable), name.get(r.chain, r.chain), r.role)
    for b in doc.bridges:
        role = "subset-of" if b.kind == "set-member" else "part-of"
        for child in b.children:
            g.add_edge(name.get(child, child), name.get(b.parent, b.parent), role)
    return g


# ------------------------------------------------------------------ graph surgery

def _is_inverted(label: str) -> bool:
    from ..model.amr import is_inverted

    return is_inverted(label.lower())


class _Doc:
    """A document graph under normalisation, with counts of what was done (statistics)."""

    def __init__(self, g: Graph) -> None:
        self.g = g
        self.counts: Counter = Counter()
        # chain -> member edges written the other way round (``:coref``) are turned into
        # ``:coref-of`` edges, the one form the steps below look for
        for e in g.edges:
            if e.label.lower() == "coref" and e.source in g.nodes and e.target in g.nodes:
                e.source, e.target, e.label = e.target, e.source, COREF_ROLE
            elif e.label.lower() == COREF_ROLE:
                e.label = COREF_ROLE
        self._dedupe()

    # -- reading
    def chains(self) -> dict[str, list[str]]:
        """chain node -> its members, in the order of the edges (IBM's get_chain_nodes)."""
        out: dict[str, list[str]] = {}
        for e in self.g.edges:
            if e.label == COREF_ROLE:
                ms = out.setdefault(e.target, [])
                if e.source not in ms:
                    ms.append(e.source)
        return out

    def children(self, v: str, label: str | None = None) -> list[str]:
        return [e.target for e in self.g.edges if e.source == v and (label is None or e.label == label)]

    def label(self, v: str) -> str:
        return self.g.nodes[v].label or ""

    def name_string(self, v: str) -> str:
        """A name node's ``:opN`` values in the order of N (IBM's get_name_str)."""
        ops = {}
        for p in self.g.nodes[v].properties:
            if p.key.startswith("op") and p.key[2:].isdigit():
                ops[int(p.key[2:])] = p.value
        return " ".join(ops[k] for k in sorted(ops))

    def _dedupe(self) -> None:
        seen: set[tuple] = set()
        out = []
        for e in self.g.edges:
            key = (e.source, e.label, e.target)
            if key not in seen:
                seen.add(key)
                out.append(e)
        self.g.edges = out

    # -- surgery
    def merge(self, head: str, other: str, additional: bool = False, merge_kids: bool = True) -> None:
        """Merge node ``other`` into ``head`` (IBM's merge_nodes): every edge of ``other``
        moves to ``head``; a name whose string ``head`` has is dropped, a wiki ``head``
        has or ``-`` is dropped; properties are kept once; with ``additional``, a concept
        ``head`` does not have stays as a node under ``:additional-type``; children of
        both reached by the same role with the same concept are merged in turn."""
        stack = [(head, other)]
        while stack:
            a, b = stack.pop()
            pairs = self._merge_one(a, b, additional)
            if merge_kids:
                stack.extend(reversed(pairs))

    def _merge_one(self, n1: str, n2: str, additional: bool) -> list[tuple[str, str]]:
        g = self.g
        if n1 == n2 or n1 not in g.nodes or n2 not in g.nodes:
            return []
        h, o = g.nodes[n1], g.nodes[n2]
        forms = [h.label] + [self.label(t) for t in self.children(n1, ADDITIONAL)]
        name_nodes: dict = {}  # name string -> the head's name node that has it (the first)
        for t in self.children(n1, "name"):
            if self.label(t) == "name":
                name_nodes.setdefault(self.name_string(t), t)
        names = list(name_nodes)
        wikis = h.property_values("wiki")
        kids: dict[tuple, str] = {}
        for e in g.edges:
            if e.source == n1 and e.label != "name":
                kids[(e.label, self.label(e.target))] = e.target
        mergeable: list[tuple[str, str]] = []
        dropped_names: list[str] = []
        edges = []
        for e in g.edges:
            if e.target == n2:
                if e.source in (n1, n2):
                    continue
                e = Edge(e.source, n1, e.label, list(e.attributes))
            elif e.source == n2:
                if e.target == n1:
                    continue
                if e.label == "name" and self.label(e.target) == "name":
                    s = self.name_string(e.target)
                    if s in names:
                        dropped_names.append(e.target)
                        kept = name_nodes.get(s)
                        if kept is not None and kept in g.nodes and e.target in g.nodes:
                            # the kept name stands for the dropped one too: its sentences
                            # are the dropped name's as well (the merged node's are both)
                            g.nodes[kept].provenance = g.nodes[kept].provenance | g.nodes[e.target].provenance
                        continue
                    names.append(s)
                    name_nodes.setdefault(s, e.target)
                else:
                    kid = kids.get((e.label, self.label(e.target)))
                    if kid is not None and kid != e.target and (kid, e.target) not in mergeable:
                        mergeable.append((kid, e.target))
                e = Edge(n1, e.target, e.label, list(e.attributes))
            edges.append(e)
        g.edges = edges
        have = {(p.key, p.value) for p in h.properties}
        for p in o.properties:
            if p.key == "wiki":
                if p.value == "-" or p.value in wikis:
                    continue
                wikis.append(p.value)
            elif (p.key, p.value) in have:
                continue
            have.add((p.key, p.value))
            h.properties.append(p)
        self._dedupe()
        h.provenance = h.provenance | o.provenance
        if additional and o.label not in forms:
            o.properties = []
            g.add_edge(n1, n2, ADDITIONAL)
        else:
            del g.nodes[n2]
        for name in dropped_names:
            if name in g.nodes and not any(e.target == name for e in g.edges):
                for e in g.edges:  # a name node's other children stay, under the head
                    if e.source == name:
                        e.source = n1
                del g.nodes[name]
        self._dedupe()
        if g.tops and g.tops[0] == n2 and n2 not in g.nodes:
            g.tops[0] = n1
        self.clean_wiki(n1)
        return mergeable

    def clean_wiki(self, v: str) -> None:
        """``:wiki -`` beside a real wiki is dropped."""
        n = self.g.nodes[v]
        wikis = n.property_values("wiki")
        if "-" in wikis and any(w != "-" for w in wikis):
            n.properties = [p for p in n.properties if not (p.key == "wiki" and p.value == "-")]

    # -- the steps
    def merge_names(self) -> None:
        for _, ms in self.chains().items():
            named = [m for m in ms if m in self.g.nodes
                     and any(self.label(t) == "name" for t in self.children(m, "name"))]
            if not named:
                continue
            head = named[0]
            types = [self.label(m) for m in named]
            if len(set(types)) > 1:
                best = next((t for t in NE_TYPES if t in types), None)
                if best is None:  # IBM crashes here; the most frequent type (first on ties)
                    best = Counter(types).most_common(1)[0][0]
                head = named[types.index(best)]
            for m in named:
                if m != head:
                    self.merge(head, m, additional=True)
                    self.counts["names_merged"] += 1

    def merge_anaphora(self) -> None:
        g = self.g
        for c, ms in self.chains().items():
            ms = [m for m in ms if m in g.nodes]
            prons = [m for m in ms if self.label(m) in PRONOUNS]
            if not prons:
                continue
            if len(prons) < len(ms):
                # the chain node stays unless a single other mention is left to replace it
                where = "other" if len(ms) - len(prons) == 1 else "coref_entity"
                self.counts[f"pronouns_to_{where}"] += len(prons)
                self.counts["pronouns_dropped"] += len(prons)
            else:
                forms = {self.label(p) for p in prons}
                if len(forms) > 1 and forms & INTERLOCUTOR_FORMS:
                    g.nodes[c].label = INTERLOCUTOR
                    self.counts["interlocutor_chains"] += 1
                    self.counts["pronouns_to_interlocutor"] += len(prons)
                else:
                    g.nodes[c].label = next(p for p in PRONOUNS if p in forms)
                    self.counts["pronoun_chains"] += 1
                    self.counts["pronouns_to_pronoun"] += len(prons)
            for p in prons:
                self.merge(c, p, merge_kids=False)

    def merge_all(self) -> None:
        for _, ms in self.chains().items():
            head = ms[0]
            for m in ms[1:]:
                if head in self.g.nodes:
                    self.merge(head, m, additional=True)

    def remove_single_member_chains(self) -> None:
        for c, ms in self.chains().items():
            if len(ms) == 1:
                self.merge(ms[0], c)

    def flip(self) -> None:
        """§3.4: the parents of every mention point to its chain node instead."""
        for c, ms in self.chains().items():
            for m in ms:
                for e in self.g.edges:
                    if e.label == COREF_ROLE:
                        continue
                    inverted = _is_inverted(e.label)
                    if e.target == m and not inverted:
                        e.target = c
                    elif e.source == m and inverted:
                        e.source = c
        self._dedupe()


def normalize(g: Graph, representation: str = "docamr", flipped: bool = False) -> Graph:
    """Normalise a No-Merge document graph (chain nodes with ``:coref-of`` edges, e.g.
    built by :func:`document_graph` or read from a file) into ``representation``, in
    place; returns ``g``.  ``g.extra["docamr_counts"]`` records what was merged."""
    if representation not in REPRESENTATIONS:
        raise ValueError(f"unknown representation {representation!r}; choose from {', '.join(REPRESENTATIONS)}")
    d = _Doc(g)
    if representation in ("merge-ne", "docamr"):
        d.merge_names()
    if representation == "docamr":
        d.merge_anaphora()
    if representation == "merge-all":
        if flipped:  # as IBM: before the merge, so the moved parents are not merged as children
            d.flip()
        d.merge_all()
    d.remove_single_member_chains()
    if flipped and representation != "merge-all":
        d.flip()
    g.metadata["representation"] = representation + ("-flipped" if flipped else "")
    g.extra["docamr_counts"] = dict(d.counts)
    return g


def build(doc: Document, representation: str = "docamr", flipped: bool = False) -> Graph:
    """The document graph of ``doc`` in one of :data:`REPRESENTATIONS` (``flipped``: §3.4)."""
    if representation not in REPRESENTATIONS:
        raise ValueError(f"unknown representation {representation!r}; choose from {', '.join(REPRESENTATIONS)}")
    return normalize(document_graph(doc), representation, flipped)


def chains_from_pairs(g: Graph, relation: str = "same-as") -> Graph:
    """Turn pairwise coreference edges (``:same-as`` either way, IBM's
    ``--in-doc-amr-pairwise``) into chain nodes, in place: every connected group of nodes
    becomes one ``coref-entity`` node (``cc<K>``, provenance the union of its members')
    that each member points to with ``:coref-of``; the pairwise edges are removed and
    bridging edges (``:subset-of``, ``:part-of``) between members are moved to their
    chain nodes.  Returns ``g`` (a No-Merge graph: :func:`normalize` it)."""
    rel = relation.lower().lstrip(":")
    parent: dict[str, str] = {}

    def find(v: str) -> str:
        while parent.get(v, v) != v:
            parent[v] = parent.get(parent[v], parent[v])
            v = parent[v]
        return v

    order: list[str] = []
    keep = []
    for e in g.edges:
        lab = e.label.lower()
        if lab in (rel, rel + "-of") and e.source in g.nodes and e.target in g.nodes:
            for v in (e.source, e.target):
                if v not in parent:
                    parent[v] = v
                    order.append(v)
            a, b = find(e.source), find(e.target)
            if a != b:
                parent[b] = a
        else:
            keep.append(e)
    g.edges = keep
    groups: dict[str, list[str]] = {}
    for v in order:
        groups.setdefault(find(v), []).append(v)
    chain_of: dict[str, str] = {}
    k = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        while f"cc{k}" in g.nodes:
            k += 1
        c = f"cc{k}"
        k += 1
        g.add_node(c, COREF_ENTITY, provenance=frozenset().union(*(g.nodes[m].provenance for m in members)))
        for m in members:
            g.add_edge(m, c, COREF_ROLE)
            chain_of[m] = c
    for e in g.edges:
        if e.label.lower() in ("subset-of", "part-of"):
            e.source = chain_of.get(e.source, e.source)
            e.target = chain_of.get(e.target, e.target)
    _Doc(g)  # drops the duplicate edges the move made
    return g


def no_coref(doc: Document) -> Graph:
    """The document graph without any coreference (sentences under the root only)."""
    bare = Document(doc.id, doc.sentences)
    g = document_graph(bare)
    g.metadata["representation"] = "no-coref"
    return g
