"""SDP 2015 tabular format (DM, PSD, PAS) <-> :class:`Graph` in the MRP conventions.

Reading: each token row ``id form lemma pos top pred frame arg...`` (ids 1, 2, ... in
order: another id is an input error) becomes node ``id - 1`` with label = lemma (the form
when the lemma is ``_``), properties ``pos`` and ``frame`` (when not ``_``), an anchor into
the input text, and ``top`` when marked.  Argument columns become edges from the i-th
predicate.  Tokens with no edge that are not tops are dropped, as in the MRP release.  The input text comes from ``texts`` (id -> sentence) or
is the tokens joined by spaces.

Writing: node ``i`` is written as token ``i + 1``; the input between nodes is cut into the
missing tokens (at whitespace, else at punctuation), which get ``_`` columns.
"""

from __future__ import annotations

import os
import re
from typing import IO, Iterable, Iterator

from ..errors import InputError
from ..model.graph import Anchor, Graph, Property
from .anchoring import Anchorer, open_lines

PSD_HINTS = ("-arg", "RSTR", "CONJ.member", "APPS.member", "PAT", "ACT")


def _blocks(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    buf: list[str] = []
    start = 0
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if line.startswith("#SDP"):
            continue
        if line.strip():
            if not buf:
                start = lineno
            buf.append(line)
        elif buf:
            yield start, buf
            buf = []
    if buf:
        yield start, buf


def _guess_framework(name: str, labels: set[str]) -> str:
    parts = name.replace("\\", "/").lower()
    for fw in ("psd", "dm", "pas"):
        if f"/{fw}/" in parts or f"{fw}." in os.path.basename(parts) or f".{fw}" in parts:
            return fw
    if any(any(h in lab for h in PSD_HINTS) for lab in labels):
        return "psd"
    return "dm"


def _block_graph(start: int, rows: list[str], label: str, framework: str | None,
                 texts: dict[str, str] | None) -> Graph:
    if not rows[0].startswith("#"):
        raise InputError("expected '#<graph id>' before the token rows", label, start)
    gid = rows[0][1:].strip()
    table = []
    for k, row in enumerate(rows[1:], start + 1):
        cols = row.split("\t")
        if len(cols) < 7:
            raise InputError(f"expected at least 7 tab-separated columns, found {len(cols)}", label, k, gid)
        if cols[0] != str(len(table) + 1):
            token = cols[0] if len(cols[0]) <= 20 else cols[0][:20] + "..."
            raise InputError(f"token ID {token!r} where {len(table) + 1} was expected (token IDs run 1, 2, ... "
                             "in order)", label, k, gid)
        table.append((k, cols))
    forms = [cols[1] for _, cols in table]
    text = texts.get(gid) if texts else None
    if text is None:
        text = " ".join(forms)
    anchorer = Anchorer(text, gid, label)
    g = Graph(id=gid, framework=framework, text=text, source_file=label, source_line=start)
    g.extra.update({"flavor": 0})
    predicates: list[str] = []
    for i, (k, cols) in enumerate(table):
        form, lemma, pos, top, pred, frame = cols[1:7]
        props = [Property("pos", pos)]
        if frame != "_":
            props.append(Property("frame", frame))
        try:
            start_, end = anchorer.anchor(form)
        except InputError as exc:
            raise InputError(exc.detail, label, k, gid) from None
        node = g.add_node(str(i), lemma if lemma != "_" else form, properties=props,
                          anchors=[Anchor(start_, end)])
        node.extra["_native"] = {"form": form, "lemma": lemma}
        if top == "+":
            g.tops.append(str(i))
        if pred == "+":
            predicates.append(str(i))
    for i, (k, cols) in enumerate(table):
        args = cols[7:]
        if len(args) != len(predicates):
            raise InputError(f"{len(args)} argument columns for {len(predicates)} predicates", label, k, gid)
        for p, lab in enumerate(args):
            if lab != "_":
                g.add_edge(predicates[p], str(i), lab)
    used = set(g.tops) | {e.source for e in g.edges} | {e.target for e in g.edges}
    g.nodes = {k: n for k, n in g.nodes.items() if k in used}
    return g


def iter_sdp(source: str | os.PathLike | IO[str], framework: str | None = None,
             texts: dict[str, str] | None = None, name: str | None = None) -> Iterator[Graph]:
    """Stream the graphs of an SDP 2015 file."""
    label, fh = open_lines(source, name)
    # lines decoded one by one: a byte that is not UTF-8 names its line
    for start, rows in _blocks(fh):
        g = _block_graph(start, rows, label, framework, texts)
        if g.framework is None:
            g.framework = _guess_framework(label, {e.label for e in g.edges})
        yield g


_PIECE = re.compile(r"\w+(?:[-'.]\w+)*\.?|[^\w\s]+")


def _split_gap(text: str, start: int, end: int, need: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into ``need`` tokens (tokens not in the graph)."""
    for pattern in (r"\S+", _PIECE.pattern, r"\w+|[^\w\s]"):
        pieces = [(start + m.start(), start + m.end()) for m in re.finditer(pattern, text[start:end])]
        if len(pieces) == need:
            return pieces
    pieces = [(start + m.start(), start + m.end()) for m in re.finditer(r"\S+", text[start:end])]
    if len(pieces) > need > 0:  # merge the tail
        pieces = pieces[: need - 1] + [(pieces[need - 1][0], pieces[-1][1])]
    return pieces[:need]


def _tokens(g: Graph) -> list[tuple[int, int, str | None]]:
    """Token spans: node ``i`` is token ``i + 1``; the input between nodes fills the other rows."""
    text = g.text or ""
    nodes = sorted(((int(k), k) for k in g.nodes), key=lambda x: x[0])
    out: list[tuple[int, int, str | None]] = []
    pos, index = 0, 0
    for i, key in nodes:
        a = g.nodes[key].anchors[0]
        out.extend((s, e, None) for s, e in _split_gap(text, pos, a.start, i - index))
        out.append((a.start, a.end, key))
        pos, index = a.end, i + 1
    out.extend((s, e, None) for s, e in re.finditer(r"\S+", text[pos:]) and
               [(pos + m.start(), pos + m.end()) for m in re.finditer(r"\S+", text[pos:])])
    return out


def dumps_sdp(graphs: Iterable[Graph]) -> str:
    """SDP 2015 text (``#SDP 2015`` header, one block per graph)."""
    blocks = ["#SDP 2015"]
    for g in graphs:
        text = g.text or ""
        for k, n in g.nodes.items():
            if not n.anchors:
                raise InputError(f"node {k} has no anchor: every node needs one to be written as SDP",
                                 g.source_file, g.source_line, g.id)
            if not k.lstrip("-").isdigit() or int(k) < 0:
                raise InputError(f"node id {k!r} is not a token number: cannot write SDP",
                                 g.source_file, g.source_line, g.id)
        toks = _tokens(g)
        preds = sorted({e.source for e in g.edges},
                       key=lambda n: g.nodes[n].anchors[0].start)
        col = {p: k for k, p in enumerate(preds)}
        incoming: dict[str, list] = {}
        for e in g.edges:
            incoming.setdefault(e.target, []).append(e)
        rows = [f"#{g.id}"]
        for k, (s, e, nid) in enumerate(toks, 1):
            form = text[s:e]
            if nid is None:
                rows.append("\t".join([str(k), form, "_", "_", "-", "-", "_"] + ["_"] * len(preds)))
                continue
            node = g.nodes[nid]
            native = node.extra.get("_native", {})
            form = native.get("form", form)
            pos = (node.property_values("pos") or ["_"])[0]
            frame = (node.property_values("frame") or ["_"])[0]
            args = ["_"] * len(preds)
            for edge in incoming.get(nid, []):
                args[col[edge.source]] = edge.label
            rows.append("\t".join([str(k), form, node.label or "_", pos, "+" if nid in g.tops else "-",
                                   "+" if nid in col else "-", frame] + args))
        blocks.append("\n".join(rows) + "\n")
    return blocks[0] + "\n" + "\n".join(blocks[1:])
