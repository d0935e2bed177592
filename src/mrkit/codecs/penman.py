"""PENMAN codec: AMR text <-> :class:`mrkit.graph.Graph`, through the ``penman`` library.

Reading is streaming: the file is consumed block by block (graphs are separated by blank
lines; a block holding several graphs is also accepted), each block is parsed with
``penman.iterparse``, and the line where each graph starts is kept for error messages.
Comment-only blocks, such as the ``# AMR release ...`` header of the official releases,
are skipped. ``# ::key value`` metadata is kept in ``Graph.metadata``.

Surface alignments (``want-01~e.2``) are removed from labels and kept in
``Node.extra["alignment"]`` / ``Edge.extra["alignment"]`` as lists of token indices.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import IO, Iterable, Iterator

import penman
from penman.exceptions import DecodeError, PenmanError

from ..errors import InputError
from ..graph import Edge, Graph, Property

_ALIGN = re.compile(r"~(?:[a-zA-Z]+\.?)?(\d+(?:,\d+)*)$")


def _split_alignment(token: str) -> tuple[str, list[int] | None]:
    m = _ALIGN.search(token)
    if not m:
        return token, None
    return token[: m.start()], [int(x) for x in m.group(1).split(",")]


def _unquote(token: str) -> tuple[str, bool]:
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        body = token[1:-1]
        return re.sub(r'\\(.)', r"\1", body), True
    return token, False


def _blocks(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Yield (first line number, text) of each blank-line separated block."""
    buf: list[str] = []
    start = 0
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            if not buf:
                start = lineno
            buf.append(line)
        elif buf:
            yield start, "".join(buf)
            buf = []
    if buf:
        yield start, "".join(buf)


def _tree_to_graph(tree: penman.Tree, index: int, file: str | None, line: int) -> Graph:
    gid = tree.metadata.get("id", str(index))
    g = Graph(id=gid, metadata=dict(tree.metadata), source_file=file, source_line=line)
    if "id" not in tree.metadata:
        g.extra["auto_id"] = True
    g.text = tree.metadata.get("snt") or tree.metadata.get("tok")

    # first pass: every variable defined in the tree
    variables: set[str] = set()
    stack = [tree.node]
    while stack:
        var, branches = stack.pop()
        if var in variables:
            raise InputError(f"variable {var!r} is defined twice", file, line, gid)
        variables.add(var)
        for _, target in branches:
            if isinstance(target, tuple):
                stack.append(target)

    def visit(node: tuple) -> str:
        var, branches = node
        label = None
        props: list[Property] = []
        n = g.add_node(var)
        for role, target in branches:
            if role == "/":
                label, align = _split_alignment(target) if target is not None else (None, None)
                if align is not None:
                    n.extra["alignment"] = align
                continue
            role, role_align = _split_alignment(role)
            role = role[1:] if role.startswith(":") else role
            if isinstance(target, tuple):
                e = g.add_edge(var, target[0], role)  # edges in written order
                if role_align is not None:
                    e.extra["alignment"] = role_align
                visit(target)
                continue
            if target is None:
                raise InputError(f"role :{role} of {var!r} has no value", file, line, gid)
            value, align = _split_alignment(target)
            text, quoted = _unquote(value)
            if not quoted and text in variables:
                e = g.add_edge(var, text, role)
                if role_align is not None:
                    e.extra["alignment"] = role_align
            else:
                props.append(Property(role, text, quoted))
                if align is not None:
                    n.extra.setdefault("property_alignments", {})[len(props) - 1] = align
        n.label = label
        n.properties = props
        return var

    top = visit(tree.node)
    g.tops = [top]
    return g


def iter_penman(source: str | os.PathLike | IO[str], name: str | None = None) -> Iterator[Graph]:
    """Stream the graphs of a PENMAN file (a path or an open text file)."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = name or str(source)
        try:
            fh = open(path, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", label) from None
        with fh:
            yield from _iter_lines(fh, label)
    else:
        yield from _iter_lines(source, name or getattr(source, "name", "<input>"))


def _iter_lines(lines: Iterable[str], label: str) -> Iterator[Graph]:
    index = 0
    try:
        for start, block in _blocks(lines):
            content = [(k, ln) for k, ln in enumerate(block.splitlines())
                       if ln.strip() and not ln.lstrip().startswith("#")]
            if not content:
                continue  # comment-only block (release header)
            if not content[0][1].lstrip().startswith("("):
                raise InputError(f"expected a PENMAN graph starting with '(' but found "
                                 f"{content[0][1].strip()[:40]!r}", label, start + content[0][0],
                                 _block_id(block) or str(index + 1))
            try:
                trees = list(penman.iterparse(block))
            except DecodeError as exc:
                line = start + (exc.lineno or 1) - 1
                gid = _block_id(block) or str(index + 1)
                raise InputError(f"malformed PENMAN: {exc.message}", label, line, gid) from None
            except PenmanError as exc:
                raise InputError(f"malformed PENMAN: {exc}", label, start, _block_id(block)) from None
            if not trees:
                raise InputError("no PENMAN graph could be read from this block", label, start,
                                 _block_id(block) or str(index + 1))
            for tree in trees:
                index += 1
                yield _tree_to_graph(tree, index, label, start)
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", label) from None


def _block_id(block: str) -> str | None:
    m = re.search(r"#\s*::id\s+(\S+)", block)
    return m.group(1) if m else None


def read_penman(source: str | os.PathLike | IO[str]) -> list[Graph]:
    return list(iter_penman(source))


def loads(text: str, name: str = "<string>") -> list[Graph]:
    """Parse PENMAN text into graphs."""
    return list(_iter_lines(io.StringIO(text), name))


# ---------------------------------------------------------------------------- writing

def _constant(p: Property) -> str:
    if p.quoted:
        return '"' + p.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return p.value


def to_tree(g: Graph) -> penman.Tree:
    """Lay a graph out as a PENMAN tree from its first top, following edges as stored.

    An edge whose target was already placed becomes a re-entrant reference.  Nodes that
    cannot be reached from the top by outgoing edges are placed where an incoming edge
    reaches them, by writing that edge inverted.
    """
    if not g.nodes:
        raise ValueError(f"{g.where()}: cannot write an empty graph as PENMAN")
    out: dict[str, list[Edge]] = {v: [] for v in g.nodes}
    inc: dict[str, list[Edge]] = {v: [] for v in g.nodes}
    for e in g.edges:
        out[e.source].append(e)
        inc[e.target].append(e)
    placed: set[str] = set()
    used: set[int] = set()

    def build(var: str) -> tuple:
        placed.add(var)
        node = g.nodes[var]
        branches: list[tuple] = [("/", node.label)] if node.label is not None else []
        for p in node.properties:
            branches.append((":" + p.key, _constant(p)))
        for e in out[var]:
            if id(e) in used:
                continue
            used.add(id(e))
            if e.target in placed:
                branches.append((":" + e.label, e.target))
            else:
                branches.append((":" + e.label, build(e.target)))
        # nodes only reachable backwards: write the edge inverted
        for e in inc[var]:
            if id(e) in used or e.source in placed:
                continue
            used.add(id(e))
            branches.append((":" + _invert(e.label), build(e.source)))
        return (var, branches)

    top = g.tops[0] if g.tops else next(iter(g.nodes))
    root = build(top)
    missing = [v for v in g.nodes if v not in placed]
    if missing:
        raise ValueError(f"{g.where()}: nodes {missing[:5]} are not connected to the top")
    meta = dict(g.metadata)
    if g.id is not None and "id" not in meta and not g.extra.get("auto_id"):
        meta = {"id": g.id, **meta}
    return penman.Tree(root, metadata=meta)


def _invert(label: str) -> str:
    from ..amr import is_inverted

    return label[:-3] if is_inverted(label) else label + "-of"


def dumps(graphs: Iterable[Graph], indent: int | None = 6) -> str:
    return "\n\n".join(penman.format(to_tree(g), indent=indent) for g in graphs) + "\n"


def write_penman(graphs: Iterable[Graph], path: str | os.PathLike) -> None:
    """Write graphs to a PENMAN file atomically."""
    from ..io import atomic_write

    atomic_write(path, dumps(graphs))
