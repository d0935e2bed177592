"""Sentence provenance of document-graph nodes: how it is written, read and inferred.

mrkit writes it as one metadata line per document graph::

    # ::provenance s1.c=1 s2.i=2 rel-0=2,7,8 ...

listing every node except the document root with the sentences it comes from, numbered
from 1 like the ``:sntN`` roles (``Node.provenance`` holds 0-based indices).

Graphs without that line (written by other tools) get provenance inferred from their
structure when their top is a ``document`` node with ``:sntN`` edges: a node belongs to
sentence N when it is reachable from the ``:sntN`` child by edges as written, without
passing through the document root, ``coref-entity`` / ``implicit-role`` nodes or
``:coref`` edges; nodes left over take the sentences of the reached nodes next to them
(chain nodes: the union of their neighbours); a node whose sentence cannot be determined
keeps empty provenance and may align to any node.  A repeated or malformed ``:sntN`` is
an error.
Any other graph is not a document graph: its nodes have empty provenance, and
:func:`is_document` is false (``multi-sentence`` graphs stay sentence graphs).
"""

from __future__ import annotations

import re

from ..errors import InputError
from ..model.graph import Graph

_SNT = re.compile(r"snt(\d+)$", re.IGNORECASE)
CHAIN_LABELS = frozenset({"coref-entity", "implicit-role"})


def format_provenance(g: Graph) -> str:
    return " ".join(f"{v}={','.join(str(k + 1) for k in sorted(n.provenance))}"
                    for v, n in g.nodes.items() if n.provenance)


def with_provenance(g: Graph) -> Graph:
    """``g`` with its provenance in the ``provenance`` metadata (for writing)."""
    g.metadata["provenance"] = format_provenance(g)
    return g


def sentence_roots(g: Graph) -> dict[int, str] | None:
    """0-based sentence index -> root variable when ``g`` is a document graph.

    A ``:sntN`` role of the document root must have N >= 1 and name each sentence once:
    a repeated or malformed one (``:snt1`` twice, ``:snt0``, ``:sntX``) is an error,
    since the sentence constraint would otherwise score a different problem."""
    if not g.tops or (g.nodes[g.tops[0]].label or "").lower() != "document":
        return None
    roots: dict[int, str] = {}
    for e in g.edges:
        if e.source != g.tops[0] or not e.label.lower().startswith("snt"):
            continue
        m = _SNT.match(e.label)
        if not m or not m.group(1).isascii() or int(m.group(1)) < 1:
            raise InputError(f"document role :{e.label} is not :sntN with N >= 1",
                             g.source_file, g.source_line, g.id)
        k = int(m.group(1)) - 1
        if k in roots:
            raise InputError(f"document has :snt{k + 1} more than once",
                             g.source_file, g.source_line, g.id)
        roots[k] = e.target
    return roots or None


def is_document(g: Graph) -> bool:
    return "provenance" in g.metadata or sentence_roots(g) is not None


def read_provenance(g: Graph) -> None:
    """Fill ``Node.provenance`` from the metadata line, else infer it (see module doc).

    A node left with empty provenance (not listed on the line; not reachable in the
    structure) has no known sentence: the sentence constraint lets it align to any node
    except the document root (:func:`mrkit.metrics.document.docsmatch.candidate_matrix`)."""
    text = g.metadata.get("provenance")
    if text is not None:
        sentence_roots(g)  # a repeated or malformed :sntN is an error here too
        for item in text.split():
            var, _, nums = item.partition("=")
            if var not in g.nodes:
                raise InputError(f"::provenance names variable {var!r}, which the graph does not have",
                                 g.source_file, g.source_line, g.id)
            ks = nums.split(",")
            if not all(k.isascii() and k.isdigit() and int(k) >= 1 for k in ks):
                raise InputError(f"::provenance item {item!r} is not var=N,N,... (N >= 1)",
                                 g.source_file, g.source_line, g.id)
            g.nodes[var].provenance = frozenset(int(x) - 1 for x in ks)
        return
    roots = sentence_roots(g)
    if roots is None:
        return
    top = g.tops[0]

    def chain(v: str) -> bool:
        return (g.nodes[v].label or "").lower() in CHAIN_LABELS

    out: dict[str, list[str]] = {v: [] for v in g.nodes}
    nbrs: dict[str, set[str]] = {v: set() for v in g.nodes}
    for e in g.edges:
        nbrs[e.source].add(e.target)
        nbrs[e.target].add(e.source)
        if not e.label.lower().startswith("coref"):
            out[e.source].append(e.target)
    prov: dict[str, set[int]] = {v: set() for v in g.nodes}
    for k, r in roots.items():
        stack, seen = [r], {r}
        while stack:
            v = stack.pop()
            prov[v].add(k)
            if chain(v):
                continue
            for w in out[v]:
                if w not in seen and w != top:
                    seen.add(w)
                    stack.append(w)
    # Nodes not reached (written below a chain node, or not connected as written): each
    # connected group of them, chain nodes and the root left out, takes the sentences of
    # the reached non-chain nodes next to it; a group next to none keeps empty provenance
    # (any sentence).
    done: set[str] = {v for v in g.nodes if prov[v]}
    for v0 in g.nodes:
        if v0 in done or v0 == top or chain(v0):
            continue
        group, stack, border = [], [v0], set()
        done.add(v0)
        while stack:
            v = stack.pop()
            group.append(v)
            for w in nbrs[v]:
                if w == top or chain(w):
                    continue
                if prov[w]:
                    border |= prov[w]
                elif w not in done:
                    done.add(w)
                    stack.append(w)
        for v in group:
            prov[v] = set(border)
    for v in g.nodes:  # chain nodes: the union of their neighbours
        if v != top and chain(v):
            prov[v] = set().union(*(prov[w] for w in nbrs[v] if w != top and not chain(w)))
    for v, n in g.nodes.items():
        n.provenance = frozenset(prov[v]) if v != top else frozenset()
