"""UCCA XML passages (the standard ``ucca`` package format) -> :class:`Graph` in the MRP conventions.

Layer-1 units become nodes; terminals (layer 0) are not nodes but anchor the units that
hold them through ``Terminal`` edges.  Node ids follow the MRP release: first the units
holding terminals, in token order; then the other units ordered by the first and last
token they span (through primary edges).  Every category of a layer-1 edge becomes an
edge; remote edges carry the attribute ``remote`` = ``true``; implicit units and the
edges to them are left out.  The top is the root unit(s) (no parent).  Passage ids
``wsj_NNNN.M`` become MRP ids ``2NNNNMMM``.

Anchors need the raw sentence (``texts``: passage or MRP id -> text); without it the
input is the terminals joined by spaces.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable, Iterator

from ..errors import InputError
from ..graph import Anchor, Graph, Property
from .anchoring import Anchorer
from .mrp import PRIVATE


def convert_id(passage_id: str) -> str:
    m = re.search(r"wsj_(\d+)\.(\d+)", passage_id)
    return "2%04d%03d" % (int(m.group(1)), int(m.group(2))) if m else passage_id


def _tags(edge: ET.Element) -> list[str]:
    cats = [c.get("tag") for c in edge.findall("category") if c.get("tag")]
    return cats or [edge.get("type", "")]


def read_ucca_xml(path: str | os.PathLike, texts: dict[str, str] | None = None) -> Graph:
    """Convert one UCCA XML passage."""
    label = str(path)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise InputError(f"cannot read UCCA XML: {exc}", label) from None
    pid = root.get("passageID", Path(path).stem)
    gid = convert_id(pid)
    terminals: dict[str, tuple[int, str]] = {}
    units: list[tuple[str, dict, list[tuple[str, list[str], bool]]]] = []
    for layer in root.findall("layer"):
        for node in layer.findall("node"):
            attrs = node.find("attributes")
            a = dict(attrs.attrib) if attrs is not None else {}
            nid = node.get("ID")
            if layer.get("layerID") == "0":
                terminals[nid] = (int(nid.split(".")[1]), a.get("text", ""))
            else:
                edges = []
                for e in node.findall("edge"):
                    ea = e.find("attributes")
                    remote = ea is not None and ea.get("remote", "").lower() == "true"
                    edges.append((e.get("toID"), _tags(e), remote))
                units.append((nid, a, edges))
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
        for child, tags, _ in edges:
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
    children = {u: [c for c, tags, remote in edges if not remote] for u, _, edges in units}
    memo: dict[str, tuple[int, int]] = {}

    def span(u: str) -> tuple[int, int]:
        if u in memo:
            return memo[u]
        memo[u] = (-1, -1)
        lo, hi = None, None
        for c in children.get(u, []):
            if c in terminals:
                s = e = terminals[c][0]
            else:
                s, e = span(c)
                if s < 0:
                    continue
            lo = s if lo is None else min(lo, s)
            hi = e if hi is None else max(hi, e)
        memo[u] = (lo, hi) if lo is not None else (-1, -1)
        return memo[u]

    rest = [u for u, _, _ in units if u not in implicit and u not in to_node]
    for u in sorted(rest, key=span):
        to_node[u] = str(len(to_node))
        g.add_node(to_node[u])
    has_parent: set[str] = set()
    for u, _, edges in units:
        for child, tags, remote in edges:
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
    return [path.parent / n for n in names]
