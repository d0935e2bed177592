"""Native EDS (as printed by the LKB/PyDelphin) <-> :class:`Graph` in the MRP conventions.

One graph per block::

    #20001001
    {e3:
     _1:proper_q<0:28>[BV x6]
     x9:named<0:6>("Pierre"){x PERS 3, NUM sg}[]
     ...
    }

Each predication becomes a node (ids ``0, 1, ...`` in file order) with its label, the
anchor ``<from:to>``, the constant ``("...")`` as property ``carg``; arguments become
edges; the handle after ``{`` is the top.  Variable properties (``{x PERS 3, ...}``) are not
part of MRP EDS: they are kept in ``Node.extra["_native"]`` for writing EDS back.
"""

from __future__ import annotations

import os
import re
from typing import IO, Iterable, Iterator

from ..errors import InputError
from ..model.graph import Anchor, Graph, Property
from .anchoring import open_lines

_PRED = re.compile(
    r'^\s*\|?\s*(?P<handle>[^\s:]+)\s*:\s*(?P<label>[^<(\[{\s]+)'
    r'(?:<(?P<from>-?\d+):(?P<to>-?\d+)>)?'
    r'(?:\("(?P<carg>(?:[^"\\]|\\.)*)"\))?'
    r'(?:\{(?P<props>[^}]*)\})?'
    r'\s*\[(?P<args>[^\]]*)\]\s*$')
_TOP = re.compile(r"^\{\s*(?P<top>[^\s:]*)\s*:?\s*(?:\(.*\))?\s*$")


def _items(lines: Iterable[str], label: str) -> Iterator[tuple[int, str | None, str | None, list[tuple[int, str]]]]:
    gid: str | None = None
    top: str | None = None
    start = 0
    body: list[tuple[int, str]] | None = None
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if body is None:
            if not line:
                continue
            if line.startswith("#"):
                gid, start = line[1:].strip(), lineno
                continue
            if line == "{}":
                yield start or lineno, gid, None, []
                gid = None
                continue
            m = _TOP.match(line)
            if not m:
                raise InputError(f"expected '{{top:' to open a graph, found {line[:40]!r}", label, lineno, gid)
            top = m.group("top") or None
            body = []
            start = start or lineno
            continue
        if line == "}":
            yield start, gid, top, body
            gid, top, body, start = None, None, None, 0
        elif line:
            body.append((lineno, line))
    if body is not None:
        raise InputError("graph not closed by '}'", label, start, gid)


def _graph(start: int, gid: str | None, top: str | None, body: list[tuple[int, str]], label: str,
           texts: dict[str, str] | None) -> Graph:
    g = Graph(id=gid, framework="eds", source_file=label, source_line=start)
    g.extra.update({"flavor": 1})
    if texts and gid in texts:
        g.text = texts[gid]
    handles: dict[str, str] = {}
    args: list[tuple[int, str, str]] = []
    for lineno, line in body:
        m = _PRED.match(line)
        if not m:
            raise InputError(f"not an EDS predication: {line[:60]!r}", label, lineno, gid)
        handle = m.group("handle")
        if handle in handles:
            raise InputError(f"handle {handle} is defined twice", label, lineno, gid)
        nid = str(len(handles))
        handles[handle] = nid
        node = g.add_node(nid, m.group("label"))
        if m.group("from") is not None:
            node.anchors = [Anchor(int(m.group("from")), int(m.group("to")))]
        if m.group("carg") is not None:
            node.properties = [Property("carg", re.sub(r"\\(.)", r"\1", m.group("carg")))]
        node.extra["_native"] = {"handle": handle, "properties": m.group("props")}
        for arg in m.group("args").split(","):
            if arg.strip():
                parts = arg.split()
                if len(parts) != 2:
                    raise InputError(f"malformed argument {arg.strip()!r}", label, lineno, gid)
                args.append((lineno, handle, parts[0], parts[1]))
    for lineno, src, role, tgt in args:
        if tgt not in handles:
            raise InputError(f"argument {role} of {src} names unknown handle {tgt}", label, lineno, gid)
        g.add_edge(handles[src], handles[tgt], role)
    if top is not None:
        if top not in handles:
            raise InputError(f"top handle {top} is not a predication", label, start, gid)
        g.tops = [handles[top]]
    return g


def iter_eds(source: str | os.PathLike | IO[str], texts: dict[str, str] | None = None,
             name: str | None = None) -> Iterator[Graph]:
    """Stream the graphs of a native EDS file."""
    label, fh = open_lines(source, name)
    # lines decoded one by one: a byte that is not UTF-8 names its line
    for start, gid, top, body in _items(fh, label):
        yield _graph(start, gid, top, body, label, texts)


def _handle(node, used: set[str]) -> str:
    h = node.extra.get("_native", {}).get("handle")
    if not h or h in used:
        h = f"_{node.id}"
    used.add(h)
    return h


def dumps_eds(graphs: Iterable[Graph]) -> str:
    """Native EDS text: one block per graph."""
    blocks = []
    for g in graphs:
        used: set[str] = set()
        handles = {nid: _handle(n, used) for nid, n in g.nodes.items()}
        out: dict[str, list[str]] = {nid: [] for nid in g.nodes}
        for e in g.edges:
            out[e.source].append(f"{e.label} {handles[e.target]}")
        top = handles[g.tops[0]] if g.tops else ""
        lines = [f"#{g.id}", "{" + top + ":"]
        for nid, node in g.nodes.items():
            s = f" {handles[nid]}:{node.label or ''}"
            if node.anchors:
                s += f"<{node.anchors[0].start}:{node.anchors[0].end}>"
            for p in node.properties:
                if p.key == "carg":
                    s += '("' + p.value.replace("\\", "\\\\").replace('"', '\\"') + '")'
            props = node.extra.get("_native", {}).get("properties")
            if props:
                s += "{" + props + "}"
            lines.append(s + "[" + ", ".join(out[nid]) + "]")
        lines.append("}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
