"""MRP codec: CoNLL 2019/2020 JSON lines (versions 0.9, 1.0, 1.1) <-> :class:`mrkit.model.graph.Graph`.

One graph per line.  Mapping into the graph model (the MRP scorer relies on it):

* ``id`` -> ``Graph.id`` as a string (a JSON number id is written back as a number);
  ``framework`` -> ``Graph.framework``; ``input`` -> ``Graph.text``;
  ``tops`` -> ``Graph.tops`` (node ids as strings);
  ``flavor``, ``version``, ``time``, ``language``, ``source``, ``provenance``, ``targets``
  and any unknown top-level key -> ``Graph.extra``, in file order.
* node ``id`` -> the key of ``Graph.nodes``: ``str(int id)`` (``int(key)`` recovers it);
  ``label`` -> ``Node.label``; ``properties``/``values`` -> ``Node.properties`` as
  ``Property(key, value_string(value))``; ``anchors`` -> ``Node.anchors`` as
  ``Anchor(from, to)``; 1.1 ``anchorings`` and unknown keys -> ``Node.extra``.
* edge ``source``/``target`` -> node keys; ``label``/``normal`` -> ``Edge.label``/``Edge.normal``;
  ``attributes``/``values`` -> ``Edge.attributes``; the deprecated key ``properties`` is read
  as ``attributes`` (with a :class:`MrpWarning`) and written back under its own name;
  1.1 ``id``/``anchors`` and unknown keys -> ``Edge.extra``.

Whatever JSON detail the model cannot hold (key order, numbers or booleans among values,
``null`` instead of an empty list, the original graph id type) is kept under the private
key ``"_mrp"`` of the respective ``extra`` dict, so that read -> write gives back the same
JSON.  It is only used while it still agrees with the graph, so edited graphs are written
from the model.

Errors (a line that is not JSON or not an object, an edge or top naming a missing node,
a duplicate node id, a duplicate (framework, id) pair in one file, ``properties`` and
``values`` of different lengths) raise :class:`mrkit.errors.InputError` naming file, line
and graph id.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import warnings
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

from ..errors import InputError
from ..model.graph import Anchor, Edge, Graph, Node, Property

PRIVATE = "_mrp"

GRAPH_KEYS = ("id", "flavor", "framework", "version", "time", "language", "source",
              "provenance", "targets", "input", "tops", "nodes", "edges")
NODE_KEYS = ("id", "label", "properties", "values", "anchors")
EDGE_KEYS = ("id", "source", "target", "label", "normal", "attributes", "values", "anchors")


def _edge_keys(names_key: str) -> tuple[str, ...]:
    return EDGE_KEYS if names_key == "attributes" else tuple(
        names_key if k == "attributes" else k for k in EDGE_KEYS)


class MrpWarning(UserWarning):
    """A deprecated but accepted MRP construct (e.g. the edge key ``properties``)."""


def value_string(value: Any) -> str:
    """The string form of a JSON property value: strings as they are, others as JSON (``42``, ``true``)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------------------- reading

class _Where:
    """File, line and graph id of the line being read, for error messages."""

    __slots__ = ("file", "line", "graph")

    def __init__(self, file: str | None, line: int | None, graph: str | None) -> None:
        self.file, self.line, self.graph = file, line, graph

    def error(self, message: str) -> InputError:
        return InputError(message, self.file, self.line, self.graph)


def _pairs(obj: dict, names_key: str, values_key: str, where: _Where, what: str) -> list[Property]:
    names = obj.get(names_key) or []
    values = obj.get(values_key) or []
    if not names and not values:
        return []
    if not isinstance(names, list) or not isinstance(values, list):
        raise where.error(f"{what}: {names_key!r} and {values_key!r} must be lists")
    if len(names) != len(values):
        raise where.error(f"{what}: {len(names)} {names_key} but {len(values)} values")
    return [Property(str(k), value_string(v)) for k, v in zip(names, values)]


_RANKS: dict[tuple[str, ...], dict[str, int]] = {}
_TRACKED = ("values", "properties", "attributes", "anchors", "tops", "nodes", "edges")


def _canonical(obj: dict, keys: tuple[str, ...]) -> bool:
    """Whether the keys of ``obj`` come in the canonical order: those of ``keys`` in their
    order, then the others."""
    rank = _RANKS.get(keys)
    if rank is None:
        rank = _RANKS[keys] = {k: i for i, k in enumerate(keys)}
    last, unknown = -1, False
    for k in obj:
        r = rank.get(k)
        if r is None:
            unknown = True
        elif unknown or r < last:
            return False
        else:
            last = r
    return True


def _private(obj: dict, keys: tuple[str, ...]) -> dict:
    """Bookkeeping for a lossless round trip: key order, ``null`` and non-string values."""
    priv: dict[str, Any] = {}
    if not _canonical(obj, keys):
        priv["keys"] = list(obj)
    for key in _TRACKED:
        if key in obj:
            value = obj[key]
            if value is None:
                priv.setdefault("null", []).append(key)
            elif value == []:
                priv.setdefault("empty", []).append(key)
    vals = obj.get("values")
    if vals.__class__ is list:
        for v in vals:
            if v.__class__ is not str:
                priv["values"] = list(vals)
                break
    return priv


def _anchor(raw: Any, where: _Where, what: str) -> Anchor:
    if raw.__class__ is dict:  # the common case: two plain integers (bool is not int here)
        start, end = raw.get("from"), raw.get("to")
        if start.__class__ is int and end.__class__ is int:
            return Anchor(start, end)
    if (not isinstance(raw, dict) or not isinstance(raw.get("from"), int)
            or not isinstance(raw.get("to"), int) or isinstance(raw.get("from"), bool)
            or isinstance(raw.get("to"), bool)):
        raise where.error(f"{what}: malformed anchor {json.dumps(raw, ensure_ascii=False)}")
    return Anchor(raw["from"], raw["to"])


def _node(raw: Any, where: _Where) -> Node:
    if not isinstance(raw, dict) or "id" not in raw:
        raise where.error(f"node without id: {json.dumps(raw, ensure_ascii=False)[:60]}")
    rid = raw["id"]
    if isinstance(rid, bool) or not isinstance(rid, (int, str)):
        raise where.error(f"node id {json.dumps(rid)} is not an integer")
    what = f"node {rid}"
    node = Node(str(rid), raw.get("label"))
    if node.label is not None and not isinstance(node.label, str):
        node.label = value_string(node.label)
        node.extra.setdefault(PRIVATE, {})["label"] = raw["label"]
    node.properties = _pairs(raw, "properties", "values", where, what)
    anchors = raw.get("anchors") or []
    if not isinstance(anchors, list):
        raise where.error(f"{what}: 'anchors' must be a list")
    node.anchors = [_anchor(a, where, what) for a in anchors]
    for key, value in raw.items():
        if key not in NODE_KEYS:
            node.extra[key] = value
    priv = _private(raw, NODE_KEYS)
    if isinstance(rid, str):
        priv["id"] = rid
    if priv:
        node.extra.setdefault(PRIVATE, {}).update(priv)
    return node


def _edge(raw: Any, g: Graph, where: _Where, warned: list[bool]) -> Edge:
    if not isinstance(raw, dict):
        raise where.error(f"edge is not an object: {json.dumps(raw, ensure_ascii=False)[:60]}")
    ends = []
    for end in ("source", "target"):
        value = raw.get(end)
        if value is None or isinstance(value, bool):
            raise where.error(f"edge without {end}: {json.dumps(raw, ensure_ascii=False)[:80]}")
        if not isinstance(value, (int, str)):
            raise where.error(f"edge {end} {json.dumps(value, ensure_ascii=False)[:40]} is not a node id")
        key = str(value)
        if key not in g.nodes:
            raise where.error(f"edge {raw.get('source')} -> {raw.get('target')}: "
                              f"{end} {value} is not a node")
        ends.append(key)
    label = raw.get("label")
    normal = raw.get("normal")
    if normal is not None and not isinstance(normal, str):
        raise where.error(f"edge {ends[0]} -> {ends[1]}: 'normal' is not a string")
    edge = Edge(ends[0], ends[1], "" if label is None else value_string(label), normal=normal)
    what = f"edge {ends[0]} -> {ends[1]}"
    names_key = "attributes"
    if "attributes" not in raw and "properties" in raw:
        names_key = "properties"
        if not warned[0]:
            warnings.warn(f"{where.file}:{where.line}: interpreting deprecated edge key 'properties' "
                          "as 'attributes'", MrpWarning, stacklevel=4)
            warned[0] = True
    edge.attributes = _pairs(raw, names_key, "values", where, what)
    keys = _edge_keys(names_key)
    for key, value in raw.items():
        if key not in keys:
            edge.extra[key] = value
    if "id" in raw:
        edge.extra["id"] = raw["id"]
    if "anchors" in raw:
        edge.extra["anchors"] = raw["anchors"]
    priv = _private(raw, keys)
    if names_key == "properties":
        priv["attributes_key"] = "properties"
    if label is None:
        priv["label"] = None if "label" in raw else "absent"
    elif not isinstance(label, str):
        priv["label"] = label
    if priv:
        edge.extra[PRIVATE] = priv
    return edge


def graph_from_json(obj: Any, file: str | None = None, line: int | None = None,
                    warned: list[bool] | None = None) -> Graph:
    """Build a :class:`Graph` from one decoded MRP JSON object."""
    where = _Where(file, line, None)
    if not isinstance(obj, dict):
        raise where.error(f"not a JSON object but {type(obj).__name__}")
    rid = obj.get("id")
    if isinstance(rid, (dict, list)):
        raise where.error(f"graph id {json.dumps(rid, ensure_ascii=False)[:40]} is not a string or number")
    where.graph = None if rid is None else str(rid)
    for key in ("framework", "input"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise where.error(f"{key!r} is not a string but {json.dumps(obj[key], ensure_ascii=False)[:40]}")
    g = Graph(id=where.graph, framework=obj.get("framework"), text=obj.get("input"),
              source_file=file, source_line=line)
    for key, value in obj.items():
        if key not in ("id", "framework", "input", "tops", "nodes", "edges"):
            g.extra[key] = value
    nodes = obj.get("nodes") or []
    edges = obj.get("edges") or []
    tops = obj.get("tops") or []
    for name, value in (("nodes", nodes), ("edges", edges), ("tops", tops)):
        if not isinstance(value, list):
            raise where.error(f"{name!r} must be a list")
    fresh = None
    for raw in nodes:
        node = _node(raw, where)
        if node.id in g.nodes:
            # mtool keeps both nodes and resolves edges to the first: so do we, under a fresh key
            if fresh is None:
                ints = [int(k) for k in g.nodes if k.lstrip("-").isdigit()]
                ints += [r["id"] for r in nodes if isinstance(r, dict) and type(r.get("id")) is int]
                fresh = max(ints, default=-1) + 1
            node.extra.setdefault(PRIVATE, {})["id"] = raw["id"]
            warnings.warn(f"{where.file}:{where.line}, graph {where.graph}: duplicate node id "
                          f"{node.id}, kept as node {fresh}; edges go to the first", MrpWarning, stacklevel=3)
            node.id = str(fresh)
            fresh += 1
        g.nodes[node.id] = node
    warned = warned if warned is not None else [False]
    for raw in edges:
        g.edges.append(_edge(raw, g, where, warned))
    for top in tops:
        key = str(top)
        if isinstance(top, bool) or not isinstance(top, (int, str)) or key not in g.nodes:
            raise where.error(f"top {json.dumps(top)} is not a node")
        g.tops.append(key)
    priv = _private(obj, GRAPH_KEYS)
    priv["present"] = [k for k in ("id", "framework", "input", "tops", "nodes", "edges") if k in obj]
    if rid is not None and not isinstance(rid, str):
        priv["id"] = rid
    g.extra[PRIVATE] = priv
    return g


_ID = re.compile(r'"id"\s*:\s*"?([^",}\s]+)')


def iter_mrp_json(source: str | os.PathLike | IO[str], name: str | None = None
                  ) -> Iterator[tuple[int, Any, str]]:
    """Stream ``(line number, decoded JSON, file label)`` of an MRP file; blank lines are skipped.

    A line that is not JSON raises :class:`InputError` naming the file, the line and the
    graph id if one can be seen in the line.
    """
    if isinstance(source, (str, os.PathLike)):
        label = name or str(source)
        try:
            fh = _open_text(Path(source), label)
            size = os.path.getsize(source)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", label) from None
        with fh:
            yield from _json_lines(fh, label, _fast_loads() if size >= FAST_MIN_BYTES else None)
    else:
        yield from _json_lines(source, name or getattr(source, "name", "<input>"), None)


def _open_text(path: Path, label: str) -> IO[str]:
    """The text of an MRP file, also inside gzip (``.gz``) or zip (``.zip``: its one
    ``.mrp`` entry, as mtool reads it)."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        import gzip

        return gzip.open(path, "rt", encoding="utf-8")
    if suffix == ".zip":
        import zipfile

        try:
            archive = zipfile.ZipFile(path)
        except zipfile.BadZipFile as exc:
            raise InputError(f"not a zip archive: {exc}", label) from None
        entries = [n for n in archive.namelist() if n.lower().endswith(".mrp")]
        if len(entries) != 1:
            archive.close()
            what = "no .mrp entry" if not entries else f"{len(entries)} .mrp entries ({', '.join(entries[:3])})"
            raise InputError(f"zip archive with {what}: expected exactly one", label)
        try:
            member = archive.open(entries[0])
        except (zipfile.BadZipFile, OSError, EOFError) as exc:  # e.g. a damaged local header
            archive.close()
            raise InputError(f"damaged zip archive: {exc}", label) from None
        return io.TextIOWrapper(member, encoding="utf-8")
    return open(path, encoding="utf-8")


def _damaged(exc: Exception) -> bool:
    """Whether ``exc`` is how gzip or zip report damaged compressed data (zlib's error, a bad
    CRC or header of a zip member); gzip's own :class:`OSError` subclasses are caught as
    ``OSError``."""
    import zlib

    zipfile = sys.modules.get("zipfile")  # (loaded if a zip archive is being read)
    return isinstance(exc, zlib.error) or (zipfile is not None and isinstance(exc, zipfile.BadZipFile))


def _fast_loads():
    """msgspec's JSON decoder, or None when it is not installed or ``MRKIT_JSON=stdlib``
    asks for the standard library alone (benchmarks; the results are the same)."""
    if os.environ.get("MRKIT_JSON", "").lower() == "stdlib":
        return None
    try:
        import msgspec
    except ImportError:  # not installed: the standard library alone gives the same results
        return None
    return msgspec.json.Decoder().decode


FAST_MIN_BYTES = 2_000_000
"""Files from this size on are decoded with msgspec: importing it costs about 25 ms of CPU,
decoding with it saves about 20 ms per MB against the standard library (MRP JSON lines,
measured on 29 MB), so below ~1.3 MB it does not pay."""


def _json_lines(lines: Iterable[str], label: str, fast=None) -> Iterator[tuple[int, Any, str]]:
    """Decode each line with ``fast`` (msgspec's decoder for large files, see
    :data:`FAST_MIN_BYTES`; integers of any size stay exact); a line it
    refuses is decoded again with the standard library, which reads what msgspec does not
    (``NaN``, ``1e400``) and words the errors: results and messages never depend on msgspec
    being there.  A lone surrogate escape (``"\\ud800"``), which JSON allows but no output
    can write, is an error naming the line (looked for only in lines holding ``\\ud``).  (orjson was measured too: it turns integers
    beyond 64 bits into floats, and the scan that guards against it cost more than it saved.)"""
    decoder = json.JSONDecoder()
    lineno = 0
    try:
        for lineno, line in enumerate(lines, 1):
            if fast is not None:
                try:
                    obj = fast(line)
                except Exception:
                    pass
                else:  # (msgspec refuses blank lines: they go below and are skipped)
                    if "\\ud" in line or "\\uD" in line:  # (a cheap look before a walk)
                        _refuse_surrogates(line, obj, label, lineno)
                    yield lineno, obj, label
                    continue
            text = line.strip()
            if not text:
                continue
            try:
                obj, end = decoder.raw_decode(text)
                if end != len(text):
                    raise json.JSONDecodeError("extra data after the graph", text, end)
            except json.JSONDecodeError as exc:
                m = _ID.search(text)
                raise InputError(f"not a JSON line: {exc.msg} (column {exc.colno})", label, lineno,
                                 m.group(1) if m else None) from None
            except (RecursionError, ValueError) as exc:  # nested too deeply; a 5,000-digit number
                m = _ID.search(text)
                raise InputError("JSON nested too deeply to read" if isinstance(exc, RecursionError)
                                 else f"not JSON: {exc}", label, lineno,
                                 m.group(1) if m else None) from None
            if "\\ud" in text or "\\uD" in text:
                _refuse_surrogates(text, obj, label, lineno)
            yield lineno, obj, label
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", label, lineno + 1) from None
    except (OSError, EOFError) as exc:  # a damaged gzip or zip member
        raise InputError(f"cannot read: {exc}", label, lineno + 1) from None
    except Exception as exc:
        if not _damaged(exc):
            raise
        raise InputError(f"damaged compressed data: {exc}", label, lineno + 1) from None


def _refuse_surrogates(text: str, obj, label: str, lineno: int) -> None:
    """A line holding a lone surrogate escape (``"\\ud800"``: JSON, but not Unicode text,
    which no output can write) is an error naming the graph id as written in the line."""
    from ._files import refuse_surrogates

    m = _ID.search(text)
    refuse_surrogates(text, obj, label, lineno, lambda _: (m.group(1) if m else None, "graph"))


def iter_mrp(source: str | os.PathLike | IO[str], name: str | None = None) -> Iterator[Graph]:
    """Stream the graphs of an MRP file (a path or an open text file)."""
    seen: set[tuple[str | None, str | None]] = set()
    warned = [False]
    for lineno, obj, label in iter_mrp_json(source, name):
        try:
            g = graph_from_json(obj, label, lineno, warned)
        except RecursionError:  # a deeply nested property value
            raise InputError("JSON nested too deeply", label, lineno) from None
        key = (g.framework, g.id)
        if key in seen:
            what = f"{g.framework} graph" if g.framework else "graph"
            raise InputError(f"duplicate {what} id {g.id}", label, lineno, g.id)
        seen.add(key)
        yield g


def read_mrp(source: str | os.PathLike | IO[str]) -> list[Graph]:
    """All graphs of an MRP file."""
    return list(iter_mrp(source))


def loads_mrp(text: str, name: str = "<string>") -> list[Graph]:
    """Parse MRP JSON-lines text."""
    return list(iter_mrp(io.StringIO(text), name))


# ---------------------------------------------------------------------------- writing

def _int_or_str(key: str) -> int | str:
    try:
        return int(key)
    except ValueError:
        return key


def _values(props: list[Property], raw: list | None) -> list:
    if raw is not None and len(raw) == len(props) and all(
            value_string(r) == p.value for r, p in zip(raw, props)):
        return list(raw)
    return [p.value for p in props]


def _ordered(fields: dict[str, Any], priv: dict, canonical: tuple[str, ...]) -> dict[str, Any]:
    order = priv.get("keys")
    if order is None:
        order = [k for k in canonical if k in fields] + [k for k in fields if k not in canonical]
    out = {k: fields[k] for k in order if k in fields}
    out.update((k, v) for k, v in fields.items() if k not in out)
    return out


def _node_json(node: Node) -> dict:
    priv = node.extra.get(PRIVATE, {})
    order = priv.get("keys", ())
    nulls = priv.get("null", ())
    f: dict[str, Any] = {"id": priv["id"] if "id" in priv else _int_or_str(node.id)}
    if node.label is not None:
        raw = priv.get("label")
        f["label"] = raw if raw is not None and value_string(raw) == node.label else node.label
    elif "label" in order:
        f["label"] = None
    _props_json(f, node.properties, "properties", priv)
    if node.anchors:
        f["anchors"] = [{"from": a.start, "to": a.end} for a in node.anchors]
    elif "anchors" in nulls:
        f["anchors"] = None
    elif "anchors" in priv.get("empty", ()):
        f["anchors"] = []
    for key, value in node.extra.items():
        if key != PRIVATE:
            f[key] = value
    return _ordered(f, priv, NODE_KEYS)


def _props_json(f: dict, props: list[Property], names_key: str, priv: dict) -> None:
    if props:
        f[names_key] = [p.key for p in props]
        f["values"] = _values(props, priv.get("values"))
        return
    for key in (names_key, "values"):
        if key in priv.get("null", ()):
            f[key] = None
        elif key in priv.get("empty", ()):
            f[key] = []


def _edge_json(edge: Edge) -> dict:
    priv = edge.extra.get(PRIVATE, {})
    order = priv.get("keys", ())
    f: dict[str, Any] = {"source": _int_or_str(edge.source), "target": _int_or_str(edge.target)}
    raw_label = priv.get("label", edge.label)
    if raw_label == "absent" and edge.label == "":
        pass
    elif raw_label is None and edge.label == "":
        f["label"] = None
    else:
        f["label"] = raw_label if value_string(raw_label) == edge.label else edge.label
    if edge.normal is not None:
        f["normal"] = edge.normal
    elif "normal" in order:
        f["normal"] = None
    _props_json(f, edge.attributes, priv.get("attributes_key", "attributes"), priv)
    for key, value in edge.extra.items():
        if key != PRIVATE:
            f[key] = value
    return _ordered(f, priv, _edge_keys(priv.get("attributes_key", "attributes")))


def graph_to_json(g: Graph) -> dict:
    """The MRP JSON object of a graph (inverse of :func:`graph_from_json`)."""
    priv = g.extra.get(PRIVATE, {})
    present = priv.get("present", ("id", "framework", "input", "tops", "nodes", "edges"))
    nulls = priv.get("null", ())
    f: dict[str, Any] = {}
    if g.id is not None:
        raw = priv.get("id")
        f["id"] = raw if raw is not None and str(raw) == g.id else g.id
    for key, value in g.extra.items():
        if key != PRIVATE:
            f[key] = value
    if g.framework is not None or "framework" in present:
        f["framework"] = g.framework
    if g.text is not None or "input" in present:
        f["input"] = g.text
    for key, items, conv in (("tops", g.tops, _int_or_str), ("nodes", list(g.nodes.values()), _node_json),
                             ("edges", g.edges, _edge_json)):
        if items:
            f[key] = [conv(x) for x in items]
        elif key in nulls:
            f[key] = None
        elif key in priv.get("empty", ()):
            f[key] = []
    return _ordered(f, priv, GRAPH_KEYS)


def dumps_mrp(graphs: Iterable[Graph]) -> str:
    """MRP JSON-lines text, one graph per line."""
    return "".join(json.dumps(graph_to_json(g), ensure_ascii=False) + "\n" for g in graphs)


def write_mrp(graphs: Iterable[Graph], path: str | os.PathLike) -> None:
    """Write graphs to an MRP file atomically (everything is serialized before writing)."""
    from ._files import atomic_write

    atomic_write(path, dumps_mrp(graphs))
