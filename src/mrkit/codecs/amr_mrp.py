"""AMR between its PENMAN reading and the MRP conventions (framework ``amr``, flavor 2).

PENMAN -> MRP (:func:`penman_to_mrp`): nodes get ids ``0, 1, ...`` in the order of the
PENMAN tree (depth first); the concept is the label; constants become properties with
their case and spelling kept (quotes dropped; ``:wiki`` dropped unless ``wiki=True``, as
in the MRP release); edges keep the role as written and get ``normal`` when inverted
(``ARG0-of`` -> ``ARG0``; not ``consist-of``, ``subset-of``, ``prep-*``) and ``domain`` for
``mod``.  Ids ``...wsj_NNNN.M`` become ``2NNNNMMM``; ``lpp_1943.N`` become ``1NNNN0``.

MRP -> PENMAN (:func:`mrp_to_penman`): variables are made from the first letter of the
concept (``j``, ``p``, ``p2``...); edges are laid out in the order of their targets, so
that reading the PENMAN back gives the same node ids when they were in tree order; constants are written quoted unless they are numbers,
``-``/``+``, or the value of ``:mode``/``:polarity``, or were read unquoted from PENMAN.
"""

from __future__ import annotations

import re

from ..model.amr import MRP_NORMAL
from ..model.graph import Graph, Property


def convert_amr_id(gid: str | None) -> str | None:
    if gid is None:
        return None
    m = re.search(r"wsj_(\d+)\.(\d+)", gid)
    if m:
        return "2%04d%03d" % (int(m.group(1)), int(m.group(2)))
    m = re.search(r"lpp_1943\.(\d+)", gid)
    if m:
        return "1%04d0" % int(m.group(1))
    return gid


def normal_of(role: str) -> str | None:
    """The role in the opposite direction when ``role`` is an inversion (MRP ``normal``;
    the convention :data:`mrkit.model.amr.MRP_NORMAL`)."""
    return MRP_NORMAL.base(role)


def penman_to_mrp(g: Graph, text: str | None = None, wiki: bool = False) -> Graph:
    """An AMR graph read from PENMAN, in the MRP conventions."""
    out = Graph(id=convert_amr_id(g.id), framework="amr", text=text if text is not None else g.text,
                source_file=g.source_file, source_line=g.source_line)
    out.extra.update({"flavor": 2})
    ids = {var: str(i) for i, var in enumerate(g.nodes)}
    for var, node in g.nodes.items():
        props = [Property(p.key, p.value, p.quoted) for p in node.properties if wiki or p.key != "wiki"]
        n = out.add_node(ids[var], node.label, properties=props)
        n.extra["_native"] = {"variable": var}
    for e in g.edges:
        out.add_edge(ids[e.source], ids[e.target], e.label, normal=normal_of(e.label))
    out.tops = [ids[t] for t in g.tops]
    return out


_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$", re.I)


def _quoted(p: Property, from_penman: bool) -> bool:
    if from_penman:
        return p.quoted
    return not (_NUMBER.match(p.value) or p.value in ("-", "+") or p.key in ("mode", "polarity"))


def mrp_to_penman(g: Graph) -> Graph:
    """An MRP AMR graph as a PENMAN-ready graph (variables as node ids)."""
    out = Graph(id=g.id, text=g.text, framework="amr", source_file=g.source_file,
                source_line=g.source_line)
    if g.text is not None:
        out.metadata["snt"] = g.text
    used: dict[str, int] = {}
    names: dict[str, str] = {}
    for nid, node in g.nodes.items():
        var = node.extra.get("_native", {}).get("variable")
        if not var or var in names.values():
            first = (node.label or "x")[:1].lower()
            first = first if first.isalpha() else "x"
            used[first] = used.get(first, 0) + 1
            var = first if used[first] == 1 else f"{first}{used[first]}"
            while var in names.values():
                used[first] += 1
                var = f"{first}{used[first]}"
        names[nid] = var
        from_penman = "variable" in node.extra.get("_native", {})
        out.add_node(var, node.label,
                     properties=[Property(p.key, p.value, _quoted(p, from_penman)) for p in node.properties])
    # edges in the order of their targets: the PENMAN layout then visits nodes in id order
    order = {nid: k for k, nid in enumerate(g.nodes)}
    for e in sorted(g.edges, key=lambda e: (order[e.source], order[e.target])):
        out.add_edge(names[e.source], names[e.target], e.label)
    out.tops = [names[t] for t in g.tops]
    return out
