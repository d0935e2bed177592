"""Checks of MRP graphs before submission (``mrkit validate``).

Works on the decoded JSON of each line, so that it can report what the reader would
refuse (a top or edge naming a missing node, duplicate node ids, malformed anchors) as
findings instead of stopping at the first.  Each :class:`Finding` names the line, graph id,
the node or edge, and the rule:

general: ``id`` (a string), ``framework`` (present, a string), ``flavor`` (0/1/2 and the
one of the framework), ``input`` (a string, required for flavors 0 and 1), ``tops``,
``node-id`` (integers, unique), ``label`` (a non-empty string where the framework has labels),
``properties`` / ``attributes`` (lists of equal length with ``values``; edge ``properties``
is deprecated: a warning), ``anchor`` (objects with integer ``from``/``to``, 0 <= from <= to <=
len(input), no duplicates), ``edge-endpoint``, ``edge-label``;
DM/PSD: ``sdp-anchor`` (one anchor per node, on a token: no surrounding whitespace),
``sdp-property`` (only ``pos``/``frame``), ``sdp-top`` (warning: a non-empty graph without
top; the WSJ sample has one, "Not this year.");
EDS: ``eds-anchor`` (exactly one anchor per node); UCCA: ``ucca-category`` (known edge
category), ``ucca-remote`` (the ``remote`` attribute is a boolean), ``ucca-primary-parent``
(every node but the root has exactly one primary parent), ``ucca-root`` (a single root, which
is the top), ``ucca-label`` (units have no labels); AMR: ``amr-anchor`` (unanchored),
``amr-top`` (exactly one top), ``amr-connected`` (every node reachable from the top),
``amr-role`` (a well-formed role), ``amr-normal`` (``normal`` is the inverse of the label).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import IO, Any, Iterator

from ..model.mrp import FLAVORS
from .mrp import iter_mrp_json

LABELLED = {"dm", "psd", "eds", "amr", "ptg", "drg"}
UCCA_CATEGORIES = frozenset("A C D E F G H L N P Q R S T U".split()) | {"LA", "LR"}
_ROLE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]$|^[A-Za-z]$")


@dataclass(frozen=True)
class Finding:
    """One problem validation found: where (file, line, graph, item), which rule, what."""

    file: str
    line: int
    graph: str | None
    item: str
    """``graph``, ``node 3``, ``edge 2 -> 5`` or ``top``."""
    rule: str
    message: str
    severity: str = "error"
    """``error``, or ``warning`` for what is accepted but discouraged."""

    def __str__(self) -> str:
        tag = "" if self.severity == "error" else "warning: "
        return f"{self.file}:{self.line}: graph {self.graph}: {self.item}: {tag}[{self.rule}] {self.message}"

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "graph": self.graph, "item": self.item,
                "rule": self.rule, "severity": self.severity, "message": self.message}


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class _Checker:
    def __init__(self, file: str, line: int, obj: dict) -> None:
        self.file, self.line, self.obj = file, line, obj
        gid = obj.get("id")
        self.gid = None if gid is None else str(gid)
        self.out: list[Finding] = []

    def add(self, item: str, rule: str, message: str, severity: str = "error") -> None:
        self.out.append(Finding(self.file, self.line, self.gid, item, rule, message, severity))

    # ------------------------------------------------------------ general
    def run(self) -> list[Finding]:
        g = self.obj
        if "id" not in g:
            self.add("graph", "id", "missing graph id")
        elif not isinstance(g["id"], str):
            self.add("graph", "id", f"graph id {g['id']!r} is not a string")
        fw = g.get("framework")
        if fw is None:
            self.add("graph", "framework", "missing framework")
        elif not isinstance(fw, str):
            self.add("graph", "framework", f"framework {fw!r} is not a string")
            fw = None
        flavor = g.get("flavor")
        if flavor is None:
            self.add("graph", "flavor", "missing flavor")
        elif not _is_int(flavor) or flavor not in (0, 1, 2):
            self.add("graph", "flavor", f"flavor {flavor!r} is not 0, 1 or 2")
        elif fw in FLAVORS and FLAVORS[fw] != flavor:
            self.add("graph", "flavor", f"flavor {flavor} does not fit framework {fw} (flavor {FLAVORS[fw]})")
        text = g.get("input")
        if "input" not in g or text is None:
            if flavor in (0, 1) or FLAVORS.get(fw) in (0, 1):
                self.add("graph", "input", "missing input string (anchors cannot be checked)")
            text = None
        elif not isinstance(text, str):
            self.add("graph", "input", "input is not a string")
            text = None
        nodes = self._list("nodes")
        edges = self._list("edges")
        tops = self._list("tops")
        ids = self._nodes(nodes, fw, text)
        for t in tops:
            if not _is_int(t) or t not in ids:
                self.add("top", "tops", f"top {t!r} is not a node")
        self._edges(edges, ids)
        if fw in ("dm", "psd", "pas"):
            self._sdp(nodes, tops, text)
        elif fw == "eds":
            self._eds(nodes)
        elif fw == "ucca":
            self._ucca(nodes, edges, tops, ids)
        elif fw == "amr":
            self._amr(nodes, edges, tops, ids)
        return self.out

    def _list(self, key: str) -> list:
        value = self.obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.add("graph", key, f"{key!r} is not a list")
            return []
        return value

    def _pairs(self, obj: dict, names: str, item: str, rule: str) -> None:
        a, b = obj.get(names), obj.get("values")
        if a is None and b is None:
            return
        if not isinstance(a, list) or not isinstance(b, list):
            self.add(item, rule, f"{names!r} and 'values' must both be lists")
        elif len(a) != len(b):
            self.add(item, rule, f"{len(a)} {names} but {len(b)} values")
        elif any(not isinstance(k, str) for k in a):
            self.add(item, rule, f"{names} names must be strings")

    def _nodes(self, nodes: list, fw: str | None, text: str | None) -> set[int]:
        ids: set[int] = set()
        for k, n in enumerate(nodes):
            if not isinstance(n, dict):
                self.add(f"node #{k}", "node-id", "node is not an object")
                continue
            nid = n.get("id")
            item = f"node {nid}" if nid is not None else f"node #{k}"
            if not _is_int(nid):
                self.add(item, "node-id", f"node id {nid!r} is not an integer")
            elif nid in ids:
                self.add(item, "node-id", f"duplicate node id {nid}")
            else:
                ids.add(nid)
            label = n.get("label")
            if fw in LABELLED and (not isinstance(label, str) or not label):
                self.add(item, "label", "missing label" if label is None else f"label {label!r} is not a non-empty string")
            self._pairs(n, "properties", item, "properties")
            self._anchors(n.get("anchors"), item, text)
        return ids

    def _anchors(self, anchors: Any, item: str, text: str | None) -> None:
        if anchors is None:
            return
        if not isinstance(anchors, list):
            self.add(item, "anchor", "'anchors' is not a list")
            return
        seen = set()
        for a in anchors:
            if not isinstance(a, dict) or set(a) != {"from", "to"}:
                keys = sorted(a) if isinstance(a, dict) else a
                self.add(item, "anchor", f"anchor must have exactly 'from' and 'to', found {keys!r}")
                continue
            f, t = a["from"], a["to"]
            if not _is_int(f) or not _is_int(t):
                self.add(item, "anchor", f"anchor {f!r}:{t!r} is not integer")
                continue
            if (f, t) in seen:
                self.add(item, "anchor", f"duplicate anchor {f}:{t}")
            seen.add((f, t))
            limit = len(text) if text is not None else None
            if f < 0 or f > t or (limit is not None and t > limit):
                self.add(item, "anchor", f"anchor {f}:{t} outside 0 <= from <= to <= {limit if limit is not None else 'len(input)'}")

    def _edges(self, edges: list, ids: set[int]) -> None:
        for k, e in enumerate(edges):
            if not isinstance(e, dict):
                self.add(f"edge #{k}", "edge-endpoint", "edge is not an object")
                continue
            item = f"edge {e.get('source')} -> {e.get('target')}"
            for end in ("source", "target"):
                v = e.get(end)
                if not _is_int(v) or v not in ids:
                    self.add(item, "edge-endpoint", f"{end} {v!r} is not a node")
            label = e.get("label")
            if not isinstance(label, str) or not label:
                self.add(item, "edge-label", "missing edge label" if label is None else f"label {label!r} is not a non-empty string")
            if "properties" in e and "attributes" not in e:
                self.add(item, "attributes", "deprecated edge key 'properties' (use 'attributes')", "warning")
                self._pairs(e, "properties", item, "attributes")
            else:
                self._pairs(e, "attributes", item, "attributes")

    # ------------------------------------------------------------ frameworks
    def _sdp(self, nodes: list, tops: list, text: str | None) -> None:
        for n in nodes:
            if not isinstance(n, dict):
                continue
            item = f"node {n.get('id')}"
            anchors = n.get("anchors") or []
            if not isinstance(anchors, list):
                continue  # reported by the anchor rule
            if len(anchors) != 1:
                self.add(item, "sdp-anchor", f"bi-lexical node needs exactly one anchor, has {len(anchors)}")
            elif text is not None and isinstance(anchors[0], dict):
                f, t = anchors[0].get("from"), anchors[0].get("to")
                if _is_int(f) and _is_int(t) and 0 <= f < t <= len(text):
                    span = text[f:t]
                    if span != span.strip():
                        self.add(item, "sdp-anchor", f"anchor {f}:{t} ({span!r}) is not a token")
                elif _is_int(f) and f == t:
                    self.add(item, "sdp-anchor", f"empty anchor {f}:{t}")
            props = n.get("properties") or []
            extra = [p for p in props if p not in ("pos", "frame")] if isinstance(props, list) else []
            if extra:
                self.add(item, "sdp-property", f"unexpected properties {extra} (only pos, frame)")
        if nodes and not tops:
            self.add("graph", "sdp-top", "non-empty graph without a top", "warning")

    def _eds(self, nodes: list) -> None:
        for n in nodes:
            if isinstance(n, dict):
                anchors = n.get("anchors") or []
                if isinstance(anchors, list) and len(anchors) != 1:
                    self.add(f"node {n.get('id')}", "eds-anchor", f"needs exactly one anchor, has {len(anchors)}")

    def _ucca(self, nodes: list, edges: list, tops: list, ids: set[int]) -> None:
        primary: dict[int, set] = {i: set() for i in ids}
        for n in nodes:
            if isinstance(n, dict) and n.get("label") is not None:
                self.add(f"node {n.get('id')}", "ucca-label", "UCCA units have no labels")
        for e in edges:
            if not isinstance(e, dict):
                continue
            item = f"edge {e.get('source')} -> {e.get('target')}"
            label = e.get("label")
            if isinstance(label, str) and label not in UCCA_CATEGORIES:
                self.add(item, "ucca-category", f"unknown UCCA category {label!r}")
            names = e.get("attributes", e.get("properties")) or []
            values = e.get("values") or []
            if not isinstance(names, list) or not isinstance(values, list):
                continue  # reported by the general attributes rule
            remote = False
            for k, v in zip(names, values):
                if k == "remote":
                    if not isinstance(v, bool):
                        self.add(item, "ucca-remote", f"remote must be true or false, is {v!r}")
                    remote = v is True or str(v).lower() == "true"
            if not remote and _is_int(e.get("target")) and e["target"] in primary and _is_int(e.get("source")):
                primary[e["target"]].add(e["source"])
        roots = sorted(i for i, c in primary.items() if not c)
        for i, c in sorted(primary.items()):
            if len(c) > 1:
                self.add(f"node {i}", "ucca-primary-parent",
                         f"{len(c)} primary parents {sorted(c)} (exactly one expected)")
        if ids and len(roots) != 1:
            self.add("graph", "ucca-root", f"{len(roots)} nodes without primary parent {roots[:10]} (one root expected)")
        elif ids and [t for t in tops if _is_int(t)] != roots:
            self.add("graph", "ucca-root", f"tops {tops} are not the root {roots[0]}")

    def _amr(self, nodes: list, edges: list, tops: list, ids: set[int]) -> None:
        from ..model.amr import MRP_NORMAL

        for n in nodes:
            if isinstance(n, dict) and n.get("anchors"):
                self.add(f"node {n.get('id')}", "amr-anchor", "AMR nodes are not anchored")
        if ids and len(tops) != 1:
            self.add("graph", "amr-top", f"{len(tops)} tops (exactly one expected)")
        adj: dict[int, set[int]] = {i: set() for i in ids}
        for e in edges:
            if not isinstance(e, dict):
                continue
            item = f"edge {e.get('source')} -> {e.get('target')}"
            label, normal = e.get("label"), e.get("normal")
            if isinstance(label, str) and label and not _ROLE.match(label):
                self.add(item, "amr-role", f"malformed role {label!r}")
            if normal is not None and not isinstance(normal, str):
                self.add(item, "amr-normal", f"normal {normal!r} is not a string")
            elif normal is not None and isinstance(label, str):
                expected = {MRP_NORMAL.base(label), label + "-of", label[:-3] if label.endswith("-of") else None}
                if normal not in expected:
                    self.add(item, "amr-normal", f"normal {normal!r} is not the inverse of {label!r}")
            s, t = e.get("source"), e.get("target")
            if _is_int(s) and _is_int(t) and s in adj and t in adj:
                adj[s].add(t)
                adj[t].add(s)
        if tops and _is_int(tops[0]) and tops[0] in adj:
            seen, stack = {tops[0]}, [tops[0]]
            while stack:
                for m in adj[stack.pop()]:
                    if m not in seen:
                        seen.add(m)
                        stack.append(m)
            lost = sorted(ids - seen)
            if lost:
                self.add("graph", "amr-connected", f"nodes {lost[:10]} are not connected to the top")


def validate_graph(obj: Any, file: str = "<input>", line: int = 0) -> list[Finding]:
    """Findings for one decoded MRP graph."""
    if not isinstance(obj, dict):
        return [Finding(file, line, None, "graph", "json", f"line is a JSON {type(obj).__name__}, not an object")]
    checker = _Checker(file, line, obj)
    try:
        return checker.run()
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        # a shape no rule foresaw: report it (tests assert that the known shapes never get here)
        checker.add("graph", "json", f"graph of an unexpected shape, not checked further ({type(exc).__name__})")
        return checker.out


def validate_mrp(source: str | os.PathLike | IO[str], name: str | None = None) -> Iterator[Finding]:
    """Findings for every graph of an MRP file, plus duplicate (framework, id) pairs.

    A line that is not JSON raises :class:`mrkit.errors.InputError` (unreadable input).
    """
    seen: dict[tuple, int] = {}
    for line, obj, label in iter_mrp_json(source, name):
        yield from validate_graph(obj, label, line)
        if isinstance(obj, dict) and obj.get("id") is not None:
            fw = obj.get("framework")
            key = (fw if isinstance(fw, str) else f"<{type(fw).__name__}>", str(obj.get("id")))
            if key in seen:
                yield Finding(label, line, key[1], "graph", "id",
                              f"duplicate graph id (first on line {seen[key]})")
            else:
                seen[key] = line


# ------------------------------------------------------------------ PENMAN / AMR

AMR_CONSTANT_WORDS = frozenset({"imperative", "expressive", "interrogative", "amr-unknown", "amr-choice"})
"""Unquoted AMR constants that look like variable names."""

_VAR_LIKE = re.compile(r"^([a-z]+)\d*$")


def _line_of(start: int, block: str, needle: str) -> int:
    for k, ln in enumerate(block.splitlines()):
        if needle in ln:
            return start + k
    return start


def validate_amr_graph(graph, block: str = "", start: int = 0, file: str = "<input>") -> list[Finding]:
    """Findings for one parsed AMR graph (:class:`~mrkit.model.graph.Graph`):
    ``amr-dangling`` (an unquoted value shaped like the graph's variables -- same letters --
    that no node defines: smatch reads it as a constant, so the intended reentrancy is
    lost), ``amr-role-inventory`` (a warning: a role that penman's AMR model does not
    know, e.g. ``:ARG12`` or ``:foo``)."""
    from penman.models.amr import model

    out: list[Finding] = []
    gid = graph.id
    prefixes = {m.group(1) for v in graph.nodes if (m := _VAR_LIKE.match(v))}
    for var, node in graph.nodes.items():
        for p in node.properties:
            m = _VAR_LIKE.match(p.value)
            if (not p.quoted and m and m.group(1) in prefixes and p.value not in graph.nodes
                    and p.value not in AMR_CONSTANT_WORDS):
                out.append(Finding(file, _line_of(start, block, f":{p.key} {p.value}"), gid, f"node {var}",
                                   "amr-dangling", f":{p.key} {p.value}: {p.value!r} looks like a variable but no "
                                   "node defines it (Smatch reads it as a constant)"))
            if not model.has_role(":" + p.key):
                out.append(Finding(file, _line_of(start, block, f":{p.key}"), gid, f"node {var}",
                                   "amr-role-inventory", f"role :{p.key} is not in penman's AMR model", "warning"))
    for e in graph.edges:
        if not model.has_role(":" + e.label):
            out.append(Finding(file, _line_of(start, block, f":{e.label}"), gid, f"edge {e.source} -> {e.target}",
                               "amr-role-inventory", f"role :{e.label} is not in penman's AMR model", "warning"))
    return out


def validate_penman(path: str | os.PathLike, name: str | None = None) -> Iterator[Finding]:
    """Findings for every graph of a PENMAN file, block by block, so that one malformed
    graph does not hide the next: ``penman-syntax`` (the block cannot be read: unbalanced
    parentheses, a missing concept, ...), ``duplicate-variable`` (a variable defined
    twice), then the checks of :func:`validate_amr_graph`, and ``id`` (a ``# ::id`` seen
    before).  An unreadable file (missing, not UTF-8) raises
    :class:`mrkit.errors.InputError`."""
    from ..errors import InputError
    from .penman import iter_blocks, parse_block

    label = name or str(path)
    index = 0
    seen: dict[str, int] = {}
    for start, block in iter_blocks(path, label):
        try:
            graphs = parse_block(start, block, label, index)
        except InputError as exc:
            rule = "duplicate-variable" if "defined twice" in exc.detail else "penman-syntax"
            out_line = exc.line if exc.line is not None else start
            m = re.search(r"variable '(.+)' is defined twice", exc.detail)
            if m:  # the line of the second definition
                where = [k for k, ln in enumerate(block.splitlines())
                         for _ in re.finditer(r"\(\s*" + re.escape(m.group(1)) + r"\s*/", ln)]
                if len(where) > 1:
                    out_line = start + where[1]
            yield Finding(label, out_line, None if exc.graph is None else str(exc.graph), "graph", rule, exc.detail)
            if any(ln.strip() and not ln.lstrip().startswith("#") for ln in block.splitlines()):
                index += 1
            continue
        for g in graphs:
            yield from validate_amr_graph(g, block, start, label)
            if g.id is not None:
                if g.id in seen:
                    yield Finding(label, start, g.id, "graph", "id", f"duplicate graph id (first on line {seen[g.id]})")
                else:
                    seen[g.id] = start
        index += len(graphs)
