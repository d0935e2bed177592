"""``mrkit mrp --errors OUT``: per graph pair, the gold and the system graph as Graphviz
DOT, side by side, with what the MRP metric matched under the node correspondence it
certified (the same correspondence that gives the score).

* a gold node is green when it is matched and every node-local tuple (top, label,
  properties, anchors) agrees, orange when it is matched but some tuple differs (the
  differing tuples are listed), red when it has no system node; a system node is green,
  orange or red the same way (red: extra);
* a gold edge is green when its system counterpart exists, red (bold) when missing; a
  system edge red (dashed) when it has no gold counterpart;
* a dotted grey line joins each gold node to its system node.

The tuples are the normalized ones of :mod:`mrkit.features.mrp_tuples`, under the
normalizations the score used (by default all: lower case, un-inverted AMR edges, anchors as
character positions).
"""

from __future__ import annotations

from ..features.mrp_tuples import MRPTuples, mrp_tuples
from ..model.graph import Graph

GREEN, ORANGE, RED, GREY = "#1a9641", "#f39c12", "#d7191c", "#9e9e9e"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _node_text(g: Graph, key: str) -> str:
    n = g.nodes[key]
    parts = [f"#{key}" + (f" {n.label}" if n.label is not None else "")]
    if n.anchors:
        spans = ", ".join(f"{a.start}:{a.end}" for a in n.anchors)
        words = " ".join(g.text[a.start:a.end] for a in n.anchors) if g.text else ""
        parts.append(f"<{spans}> {words}".rstrip())
    parts.extend(f"{p.key}={p.value}" for p in n.properties)
    return "\n".join(parts)


def _local(t: MRPTuples, i: int) -> dict[str, object]:
    return {"top": i in t.tops, "label": t.labels[i], "properties": t.properties[i], "anchors": t.anchors[i]}


def pair_dot(gold: Graph, system: Graph | None, mapping: dict[str, str | None], name: str,
             normalize: frozenset[str] | None = None) -> str:
    """One ``digraph``: clusters ``gold`` and ``system``, colours as in the module docstring
    (tuples under the normalizations ``normalize``, ``None``: all, as the score)."""
    system = system if system is not None else Graph(id=gold.id, framework=gold.framework, text=gold.text)
    ta, tb = mrp_tuples(gold, normalize), mrp_tuples(system, normalize)
    ia = {k: i for i, k in enumerate(ta.ids)}
    ib = {k: i for i, k in enumerate(tb.ids)}
    fwd = {ia[g]: ib[s] for g, s in mapping.items() if s is not None and g in ia and s in ib}
    back = {j: i for i, j in fwd.items()}
    lines = [f"digraph {_q(name)} {{", "  compound=true; rankdir=TB; node [shape=box, style=filled, "
             "fillcolor=white, fontname=Helvetica, fontsize=10]; edge [fontname=Helvetica, fontsize=9];"]

    def node_colour(i: int, j: int | None, a: MRPTuples, b: MRPTuples) -> tuple[str, list[str]]:
        if j is None:
            return RED, []
        la, lb = _local(a, i), _local(b, j)
        diff = [k for k in la if la[k] != lb[k]]
        return (GREEN if not diff else ORANGE), diff

    for side, g, t, index, other, to_other in (("gold", gold, ta, ia, tb, fwd), ("system", system, tb, ib, ta, back)):
        title = f"{side} {g.framework or ''} {g.id}"
        lines.append(f"  subgraph cluster_{side} {{ label={_q(title)}; fontname=Helvetica;")
        for k in t.ids:
            i = index[k]
            colour, diff = node_colour(i, to_other.get(i), t, other)
            text = _node_text(g, k) + (f"\n[differs: {', '.join(diff)}]" if diff else "")
            if side == "gold" and colour == RED:
                text += "\n[no system node]"
            if side == "system" and colour == RED:
                text += "\n[extra]"
            peripheries = 2 if i in t.tops else 1
            lines.append(f"    {_q(side + ':' + k)} [label={_q(text)}, color={_q(colour)}, "
                         f"fillcolor={_q(colour + '33')}, peripheries={peripheries}];")
        lines.append("  }")
    # edges: gold edges matched / missing; system edges extra
    sys_matched: set[tuple[int, int, str | None]] = set()
    for s, o, lab in sorted(ta.edges, key=repr):
        ms, mo = fwd.get(s), fwd.get(o)
        hit = ms is not None and mo is not None and (ms, mo, lab) in tb.edges
        if hit:
            sys_matched.add((ms, mo, lab))  # type: ignore[arg-type]
        style = f"color={_q(GREEN)}" if hit else f"color={_q(RED)}, style=bold"
        lines.append(f"  {_q('gold:' + ta.ids[s])} -> {_q('gold:' + ta.ids[o])} [label={_q(lab or '')}, {style}];")
    for s, o, lab in sorted(tb.edges, key=repr):
        hit = (s, o, lab) in sys_matched
        style = f"color={_q(GREEN)}" if hit else f"color={_q(RED)}, style=dashed"
        lines.append(f"  {_q('system:' + tb.ids[s])} -> {_q('system:' + tb.ids[o])} [label={_q(lab or '')}, {style}];")
    for i, j in sorted(fwd.items()):
        lines.append(f"  {_q('gold:' + ta.ids[i])} -> {_q('system:' + tb.ids[j])} "
                     f"[style=dotted, color={_q(GREY)}, arrowhead=none, constraint=false];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def errors_dot(pairs, scores, normalize: frozenset[str] | None = None, all_graphs: bool = False) -> str:
    """The DOT of every pair (``pairs``: (gold, system) graphs; ``scores``: their
    :class:`~mrkit.metrics.mrp.mrp.GraphScore` with the correspondence kept, in the same
    order); only pairs that are not perfect unless ``all_graphs``; ``normalize`` as the score had."""
    out = []
    for (gold, system), gs in zip(pairs, scores):
        if not all_graphs and gs.all.perfect:
            continue
        out.append(pair_dot(gold, system, gs.mapping, f"{gs.framework} {gs.id}", normalize))
    return "".join(out)


__all__ = ["errors_dot", "pair_dot"]
