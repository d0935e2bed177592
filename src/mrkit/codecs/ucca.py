"""UCCA XML passages (the standard ``ucca`` package format) <-> :class:`Graph` in the MRP conventions.

Layer-1 units become nodes; terminals (layer 0) are not nodes but anchor the units that
hold them through ``Terminal`` edges.  Node ids follow the MRP release: first the units
holding terminals, in token order; then the other units ordered by the first and last
token they span (through primary edges).  Every category of a layer-1 edge becomes an
edge; remote edges carry the attribute ``remote`` = ``true``; implicit units and the
edges to them are left out.  The top is the root unit(s) (no parent).  Passage ids
``wsj_NNNN.M`` become MRP ids ``2NNNNMMM``.

Anchors need the raw sentence (``texts``: passage or MRP id -> text); without it the
input is the terminals joined by spaces.

Writing (:func:`ucca_xml`, MRP -> UCCA XML, as mtool's ``--write ucca``): every anchor of
a node is one terminal (the MRP UCCA graphs anchor each terminal separately), terminals
in text order become layer 0 (``Punctuation`` when all their characters are punctuation,
else ``Word``); every node becomes a layer-1 unit (the top ``1.1``), its anchors
``Terminal`` edges, and the edges between two units with the same remote flag one XML
edge with a category per label (``remote="True"`` on remote ones).  The passage id is the
graph id, so reading the XML back (with the graph's input as text) gives the same graph
up to node numbering.
"""

from __future__ import annotations

import os
import re
import unicodedata
import xml.etree.ElementTree as ET
from xml.parsers import expat
from pathlib import Path
from typing import Iterable, Iterator

from ..errors import InputError
from ..model.graph import Anchor, Graph, Property
from .anchoring import Anchorer
from .mrp import PRIVATE


def convert_id(passage_id: str) -> str:
    m = re.search(r"wsj_(\d+)\.(\d+)", passage_id)
    return "2%04d%03d" % (int(m.group(1)), int(m.group(2))) if m else passage_id


def _tags(edge: ET.Element) -> list[str]:
    cats = [c.get("tag") for c in edge.findall("category") if c.get("tag")]
    return cats or [edge.get("type", "")]


class _Declaration(Exception):
    """A DTD or entity declaration in an XML file (refused)."""


def _refuse(*_args) -> None:
    raise _Declaration


def parse_xml(path: str | os.PathLike, label: str, lines: dict | None = None) -> ET.Element:
    """The root element of an XML file (``lines``, when given, gets the line of each
    element's start tag).  A document type or entity declaration is refused
    by expat's own handlers before anything is expanded, whatever the system's expat
    defends against by itself; unreadable or malformed files are :class:`InputError`."""
    parser = expat.ParserCreate()
    builder = ET.TreeBuilder()
    parser.buffer_text = True
    if lines is None:
        parser.StartElementHandler = builder.start
    else:
        def start(tag, attrs):
            lines[builder.start(tag, attrs)] = parser.CurrentLineNumber

        parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = _refuse
    parser.EntityDeclHandler = _refuse
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 16):
                parser.Parse(chunk, False)
        parser.Parse(b"", True)
        return builder.close()
    except _Declaration:
        raise InputError("XML with a document type or entity declaration is refused", label,
                         parser.CurrentLineNumber) from None
    except expat.ExpatError as exc:
        raise InputError(f"cannot read UCCA XML: {expat.ErrorString(exc.code)}", label, exc.lineno) from None
    except (OSError, ValueError, LookupError) as exc:  # unreadable; unknown or bad encoding
        raise InputError(f"cannot read UCCA XML: {exc}", label) from None


def _short(text: str) -> str:
    """An ID or tag for a message (never the whole of a huge one)."""
    return text if len(text) <= 40 else text[:40] + "..."


def _terminal_position(nid: str | None, label: str, line: int | None = None) -> int:
    """Token position of a terminal id ``0.N``."""
    parts = (nid or "").split(".")
    if len(parts) != 2 or not parts[1].isdigit() or not parts[1].isascii():
        what = "a terminal without ID" if nid is None else f"terminal ID {_short(nid)!r} is not of the form 0.N"
        raise InputError(f"malformed UCCA XML: {what}", label, line)
    return int(parts[1])


def _layers(root: ET.Element, label: str, lines: dict) -> list[ET.Element]:
    """The ``layer`` elements of a passage: the root is ``<root>``, layers are ``0``
    (terminals, required) and ``1`` (units), each once."""
    if root.tag != "root":
        raise InputError(f"not a UCCA passage: the root element is <{_short(root.tag)}>, not <root>", label,
                         lines.get(root))
    layers = root.findall("layer")
    seen: set = set()
    for layer in layers:
        lid = layer.get("layerID")
        if lid not in ("0", "1"):
            what = "a layer without layerID" if lid is None else f"layer {_short(lid)!r}"
            raise InputError(f"malformed UCCA XML: {what} (UCCA passages have layers '0' and '1')", label,
                             lines.get(layer))
        if lid in seen:
            raise InputError(f"malformed UCCA XML: layer {lid} is written twice", label, lines.get(layer))
        seen.add(lid)
    if "0" not in seen:
        raise InputError("not a UCCA passage: no layer 0 (the terminals)", label, lines.get(root))
    return layers


def _check_edges(units, terminals: dict, label: str, gid: str, lines: dict) -> None:
    """Every edge names an existing terminal (through a ``Terminal`` edge) or unit (through
    any other edge)."""
    unit_ids = {u for u, _, _ in units}
    for u, _, edges in units:
        for child, tags, _, elem in edges:
            problem = None
            if child is None:
                problem = f"an edge of unit {_short(u)} without toID"
            elif child in terminals:
                if "Terminal" not in tags:
                    problem = (f"edge {_short('/'.join(tags))} of unit {_short(u)} goes to terminal "
                               f"{_short(child)} (only Terminal edges go to terminals)")
            elif child in unit_ids:
                if "Terminal" in tags:
                    problem = f"Terminal edge of unit {_short(u)} goes to unit {_short(child)}, not to a terminal"
            else:
                problem = (f"edge of unit {_short(u)} names unknown "
                           f"{'terminal' if 'Terminal' in tags else 'unit'} {_short(child)}")
            if problem:
                raise InputError(f"malformed UCCA XML: {problem}", label, lines.get(elem), gid)


def read_ucca_xml(path: str | os.PathLike, texts: dict[str, str] | None = None) -> Graph:
    """Convert one UCCA XML passage.

    Errors (one line naming the file and the element's line): a root other than
    ``<root>``, no layer 0, a layer other than 0 and 1 or written twice, a terminal or unit
    without ID or whose ID is written twice, two terminals at one position, an edge
    without ``toID`` or naming no terminal or unit, a ``Terminal`` edge to a unit and
    another edge to a terminal."""
    label = str(path)
    lines: dict = {}
    root = parse_xml(path, label, lines)
    layers = _layers(root, label, lines)
    pid = root.get("passageID", Path(path).stem)
    gid = convert_id(pid)
    terminals: dict[str, tuple[int, str]] = {}
    units: list[tuple[str, dict, list[tuple[str | None, list[str], bool, ET.Element]]]] = []
    seen: dict[str, str] = {}  # ID -> "terminal" or "unit"
    positions: dict[int, str] = {}
    for layer in layers:
        for node in layer.findall("node"):
            attrs = node.find("attributes")
            a = dict(attrs.attrib) if attrs is not None else {}
            nid = node.get("ID")
            kind = "terminal" if layer.get("layerID") == "0" else "unit"
            if nid is None and kind == "unit":
                raise InputError("malformed UCCA XML: a unit without ID", label, lines.get(node), gid)
            position = _terminal_position(nid, label, lines.get(node)) if kind == "terminal" else None
            if nid in seen:
                again = f"{kind} ID {_short(nid)} is written twice" if seen[nid] == kind else \
                    f"ID {_short(nid)} names a terminal and a unit"
                raise InputError(f"malformed UCCA XML: {again}", label, lines.get(node), gid)
            seen[nid] = kind
            if position is not None:
                if position in positions:
                    raise InputError(f"malformed UCCA XML: terminals {_short(positions[position])} and "
                                     f"{_short(nid)} are both at position {position}", label, lines.get(node), gid)
                positions[position] = nid
                terminals[nid] = (position, a.get("text", ""))
            else:
                edges = []
                for e in node.findall("edge"):
                    ea = e.find("attributes")
                    remote = ea is not None and ea.get("remote", "").lower() == "true"
                    edges.append((e.get("toID"), _tags(e), remote, e))
                units.append((nid, a, edges))
    _check_edges(units, terminals, label, gid, lines)
    text = None
    if texts:
        text = texts.get(gid, texts.get(pid))
    ordered_terms = sorted(terminals, key=lambda t: terminals[t][0])
    if text is None:
        text = " ".join(terminals[t][1] for t in ordered_terms)
    g = Graph(id=gid, framework="ucca", text=text, source_file=label)
    g.extra.update({"flavor": 1})
    implicit = {u for u, a, _ in units if a.get("implicit", "").lower() == "true"}
    unit_ids = {u for u, _, _ in units}
    holder: dict[str, list[str]] = {}
    for u, _, edges in units:
        if u in implicit:
            continue
        for child, tags, _, _ in edges:
            if "Terminal" in tags and child in terminals:
                holder.setdefault(child, []).append(u)
    to_node: dict[str, str] = {}
    anchorer = Anchorer(text, gid, label)
    for t in ordered_terms:
        span = anchorer.anchor(terminals[t][1])
        for u in holder.get(t, []):
            if u not in to_node:
                to_node[u] = str(len(to_node))
                g.add_node(to_node[u])
            g.nodes[to_node[u]].anchors.append(Anchor(*span))
    # span of each unit over primary edges
    children = {u: [c for c, _, remote, _ in edges if not remote] for u, _, edges in units}
    memo: dict[str, tuple[int, int]] = {}

    def span(u: str) -> tuple[int, int]:
        """First and last token below ``u`` (an explicit stack: nesting depth is data)."""
        stack = [(u, False)]
        while stack:
            v, done = stack.pop()
            if not done:
                if v in memo:
                    continue
                memo[v] = (-1, -1)  # a cycle contributes nothing
                stack.append((v, True))
                stack.extend((c, False) for c in children.get(v, []) if c not in terminals and c not in memo)
                continue
            lo, hi = None, None
            for c in children.get(v, []):
                s, e = (terminals[c][0],) * 2 if c in terminals else memo.get(c, (-1, -1))
                if s < 0:
                    continue
                lo = s if lo is None else min(lo, s)
                hi = e if hi is None else max(hi, e)
            memo[v] = (lo, hi) if lo is not None else (-1, -1)
        return memo[u]

    rest = [u for u, _, _ in units if u not in implicit and u not in to_node]
    for u in sorted(rest, key=span):
        to_node[u] = str(len(to_node))
        g.add_node(to_node[u])
    has_parent: set[str] = set()
    for u, _, edges in units:
        for child, tags, remote, _ in edges:
            if child in unit_ids:
                has_parent.add(child)
            for tag in tags:
                if tag == "Terminal" or child not in to_node or u not in to_node:
                    continue
                edge = g.add_edge(to_node[u], to_node[child], tag)
                if remote:
                    edge.attributes = [Property("remote", "true")]
                    edge.extra[PRIVATE] = {"values": [True]}  # written as JSON true in MRP
    g.tops = [to_node[u] for u, _, _ in units if u in to_node and u not in has_parent]
    return g


def iter_ucca(paths: Iterable[str | os.PathLike], texts: dict[str, str] | None = None) -> Iterator[Graph]:
    for p in paths:
        yield read_ucca_xml(p, texts)


def ucca_paths(source: str | os.PathLike) -> list[Path]:
    """The XML files named by ``source``: one XML file, a directory, or a list file (one name a line)."""
    path = Path(source)
    if path.is_dir():
        return sorted(path.glob("*.xml"), key=lambda p: [int(x) if x.isdigit() else x
                                                          for x in re.split(r"(\d+)", p.name)])
    if path.suffix.lower() == ".xml":
        return [path]
    try:
        names = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", str(path)) from None
    if names and names[0].startswith("<"):  # an XML file without the .xml suffix
        return [path]
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip().startswith(("{", "[")):  # e.g. an MRP file read with --format ucca
            raise InputError("JSON, not UCCA XML nor a list of UCCA XML file names (--format ucca?)",
                             str(path), number)
    return [path.parent / n for n in names]


# ---------------------------------------------------------------------------- writing

_LAYER = "UCCA's foundational layer"


def _punctuation(token: str) -> bool:
    return bool(token) and all(unicodedata.category(ch)[0] in "PS" for ch in token if not ch.isspace())


def _is_remote(edge) -> bool:
    return any(a.key.lower() == "remote" and a.value.lower() == "true" for a in edge.attributes)


def ucca_xml(g: Graph) -> str:
    """One UCCA XML passage of an MRP UCCA graph (see the module docstring)."""
    if g.framework not in (None, "ucca"):
        raise InputError(f"{g.framework} graph, not UCCA: cannot write UCCA XML", g.source_file,
                         g.source_line, g.id)
    text = g.text
    spans = sorted({(a.start, a.end) for n in g.nodes.values() for a in n.anchors})
    if spans and text is None:
        raise InputError("a UCCA graph without input cannot be written as XML (terminals need the text)",
                         g.source_file, g.source_line, g.id)
    for a, b in spans:
        if not 0 <= a < b <= len(text or ""):
            raise InputError(f"anchor {a}:{b} outside the input", g.source_file, g.source_line, g.id)
    term = {span: f"0.{i}" for i, span in enumerate(spans, 1)}
    root = ET.Element("root", annotationID="0", passageID=str(g.id if g.id is not None else "0"))
    ET.SubElement(root, "attributes")
    layer0 = ET.SubElement(root, "layer", layerID="0")
    ET.SubElement(layer0, "attributes")
    for i, (a, b) in enumerate(spans, 1):
        token = text[a:b]  # type: ignore[index]
        node = ET.SubElement(layer0, "node", ID=f"0.{i}", type="Punctuation" if _punctuation(token) else "Word")
        ET.SubElement(node, "attributes", paragraph="1", paragraph_position=str(i), text=token)
    # the top first (1.1), then the other nodes in their order
    order = [k for k in g.tops if k in g.nodes]
    order = list(dict.fromkeys(order + list(g.nodes)))
    uid = {k: f"1.{i}" for i, k in enumerate(order, 1)}
    grouped: dict[str, dict[tuple[str, bool], list[str]]] = {k: {} for k in order}
    for e in g.edges:
        grouped[e.source].setdefault((e.target, _is_remote(e)), []).append(e.label)
    layer1 = ET.SubElement(root, "layer", layerID="1")
    ET.SubElement(layer1, "attributes")
    for k in order:
        node = g.nodes[k]
        unit = ET.SubElement(layer1, "node", ID=uid[k], type="FN")
        ET.SubElement(unit, "attributes")
        for (target, remote), labels in grouped[k].items():
            edge = ET.SubElement(unit, "edge", toID=uid[target], type=labels[0])
            if remote:
                ET.SubElement(edge, "attributes", remote="True")
            else:
                ET.SubElement(edge, "attributes")
            for slot, label in enumerate(labels, 1):
                ET.SubElement(edge, "category", layer_name=_LAYER, slot=str(slot), tag=label)
        for a in sorted((a.start, a.end) for a in node.anchors):
            edge = ET.SubElement(unit, "edge", toID=term[a], type="Terminal")
            ET.SubElement(edge, "attributes")
    ET.indent(root, "  ")
    return ET.tostring(root, encoding="unicode") + "\n"


def ucca_files(graphs: Iterable[Graph]) -> dict[str, str]:
    """File name (``ID.xml``, in graph order) -> XML text of every graph, and ``files.txt``
    listing them (the list :func:`ucca_paths` reads)."""
    out: dict[str, str] = {}
    for g in graphs:
        name = re.sub(r"[^\w.-]", "_", str(g.id if g.id is not None else len(out))) + ".xml"
        if name in out:
            raise InputError(f"two graphs would be written to {name}", g.source_file, g.source_line, g.id)
        out[name] = ucca_xml(g)
    out["files.txt"] = "".join(n + "\n" for n in out)
    return out
