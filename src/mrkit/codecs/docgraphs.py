"""Reading and writing document graphs as PENMAN with their node provenance (one
``# ::provenance`` metadata line per graph; see :mod:`mrkit.features.provenance`)."""

from __future__ import annotations

from ..features.provenance import read_provenance, sentence_roots, with_provenance
from ..model.graph import Graph

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Iterator


def iter_document_graphs(source, name: str | None = None) -> Iterator[Graph]:
    """Stream the (document) graphs of a PENMAN file (a path or an open text file), each
    with its provenance read.  A text stream with a byte buffer (standard input) is read
    as the files are: UTF-8, a leading byte order mark dropped, bad bytes named by line."""
    from .penman import _decoded_lines, iter_penman

    if hasattr(source, "buffer"):
        name = name or getattr(source, "name", "<input>")
        source = _decoded_lines(source.buffer, name)
    for g in iter_penman(source, name):
        read_provenance(g)
        yield g


def read_document_graphs(path) -> list[Graph]:
    """Read a PENMAN file of (document) graphs, with their provenance."""
    from .penman import read_penman

    graphs = read_penman(path)
    for g in graphs:
        read_provenance(g)
    return graphs


def document_tree(g: Graph):
    """Lay a document graph out sentence by sentence: a node is written (with its
    concept) under the first ``:sntN`` of its sentences, and referred to elsewhere."""
    import penman

    from .penman import _constant, _invert, to_tree

    roots = sentence_roots(g)
    if roots is None or not all(n.provenance for v, n in g.nodes.items() if v != g.tops[0]):
        return to_tree(with_provenance(g))
    top = g.tops[0]
    home = {v: (min(n.provenance) if n.provenance else -1) for v, n in g.nodes.items()}
    out: dict[str, list] = {v: [] for v in g.nodes}
    inc: dict[str, list] = {v: [] for v in g.nodes}
    for e in g.edges:
        out[e.source].append(e)
        inc[e.target].append(e)
    placed: dict[str, None] = {}  # insertion-ordered: the layout must not depend on hashing
    used: set[int] = set()
    branches_of: dict[str, list] = {}

    def start(v: str) -> tuple:
        placed[v] = None
        n = g.nodes[v]
        br: list = [("/", n.label)] if n.label is not None else []
        br += [(":" + p.key, _constant(p)) for p in n.properties]
        branches_of[v] = br
        return (v, br)

    def grow_steps(v: str, strict: bool):
        """Add v's branches; yield each new child, whose own branches the caller grows
        (depth first) before this resumes: a tree as deep as the graph, without recursion."""
        br = branches_of[v]
        for e in out[v]:
            if id(e) in used:
                continue
            t = e.target
            if t in placed or (strict and v != top and home[t] != home[v]):
                if t in placed or not strict:
                    used.add(id(e))
                    br.append((":" + e.label, t))
                continue
            used.add(id(e))
            br.append((":" + e.label, start(t)))
            yield t
        for e in inc[v]:
            s = e.source
            if id(e) in used or s in placed or (strict and home[s] != home[v]):
                continue
            used.add(id(e))
            br.append((":" + _invert(e.label), start(s)))
            yield s

    def grow(v: str, strict: bool) -> None:
        stack = [grow_steps(v, strict)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            else:
                stack.append(grow_steps(child, strict))

    def build(v: str, strict: bool) -> tuple:
        node = start(v)
        grow(v, strict)
        return node

    root = build(top, True)
    while len(placed) < len(g.nodes):
        before = len(placed)
        for v in list(placed):
            grow(v, False)
        if len(placed) == before:
            raise ValueError(f"{g.where()}: nodes not connected to the document root")
    for v in list(placed):  # remaining edges between placed nodes: references
        grow(v, False)
    return penman.Tree(root, metadata={"id": g.id, **with_provenance(g).metadata})


def dumps_documents(graphs: list[Graph]) -> str:
    from .penman import format_tree

    return "\n\n".join(format_tree(document_tree(g), indent=6) for g in graphs) + "\n"


def write_document_graphs(graphs: list[Graph], path) -> None:
    """Write document graphs as PENMAN (atomically), provenance in ``# ::provenance``."""
    from ._files import atomic_write

    atomic_write(path, dumps_documents(graphs))
