"""CoNLL-U (Universal Dependencies; the UDPipe companion trees of MRP 2019) <-> :class:`Graph`.

A sentence becomes a graph of framework ``conllu`` and flavor 0, as the companion data
of the shared task (``udpipe.mrp``): every syntactic word (integer ID) is a node with id
``ID - 1``, label FORM, properties ``lemma``, ``upos``, ``xpos`` and one per FEATS
entry; an edge HEAD -> word labelled DEPREL (the word whose HEAD is 0 is the top).
Anchors: ``TokenRange=FROM:TO`` in MISC where given; else the FORM found in the input
(the ``# text =`` comment, else ``texts`` by ``# sent_id``, else the forms joined with a
space unless ``SpaceAfter=No``).  The words of a multi-word token (range line ``i-j``)
share its anchor and no range line becomes a node (mtool makes range lines nodes of
their own); empty nodes (``i.j``) are left out.

Also the token source for anchoring other formats (:func:`read_token_map`): the tokens
of each sentence, as :class:`mrkit.codecs.anchoring.TokenText`, from CoNLL-U or from a
companion MRP file.
"""

from __future__ import annotations

import os
import re
from typing import IO, Iterator

from ..errors import InputError
from ..model.graph import Anchor, Graph, Property
from .anchoring import Anchorer, TokenText, open_lines

_RANGE = re.compile(r"^(\d+)-(\d+)$")
_TOKEN_RANGE = re.compile(r"(?:^|\|)TokenRange=(\d+):(\d+)(?:\||$)")


def _blocks(lines) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    block: list[tuple[int, str]] = []
    start = 0
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\n").rstrip("\r")
        if not line.strip():
            if block:
                yield start, block
                block = []
            continue
        if not block:
            start = lineno
        block.append((lineno, line))
    if block:
        yield start, block


def _graph(start: int, block: list[tuple[int, str]], label: str, texts: dict[str, str] | None,
           framework: str) -> Graph:
    gid = text = None
    rows: list[tuple[int, list[str]]] = []
    for lineno, line in block:
        if line.startswith("#"):
            body = line[1:].strip()
            if body.startswith("sent_id") and "=" in body:
                gid = body.split("=", 1)[1].strip()
            elif body.startswith("text") and "=" in body and body.split("=", 1)[0].strip() == "text":
                text = body.split("=", 1)[1].strip()
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(f"expected 10 tab-separated columns, found {len(cols)}", label, lineno, gid)
        rows.append((lineno, cols))
    if text is None and texts and gid is not None:
        text = texts.get(gid)
    words: list[tuple[int, list[str]]] = []
    surface: list[tuple[int, list[str], list[int]]] = []  # (line, cols, word numbers) per token
    covered: set[int] = set()
    seen_words: set[int] = set()
    for lineno, cols in rows:
        tid = cols[0]
        m = _RANGE.match(tid)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            # a range covers word lines of this sentence: never more numbers than it has lines
            # (memory must not grow with a number written in the input)
            if not 1 <= a <= b or b - a + 1 > len(rows):
                raise InputError(f"multiword token range {tid!r} does not cover words of this sentence "
                                 f"({len(rows)} lines)", label, lineno, gid)
            surface.append((lineno, cols, list(range(a, b + 1))))
            covered.update(range(a, b + 1))
            continue
        if "." in tid:
            continue  # an empty node
        if not tid.isdigit():
            raise InputError(f"word ID {tid!r} is not a number, a range or a decimal", label, lineno, gid)
        if int(tid) in seen_words:
            raise InputError(f"word ID {tid} is repeated", label, lineno, gid)
        seen_words.add(int(tid))
        words.append((lineno, cols))
        if int(tid) not in covered:
            surface.append((lineno, cols, [int(tid)]))
    if text is None:
        parts = []
        for i, (_, cols, _) in enumerate(surface):
            parts.append(cols[1])
            if i + 1 < len(surface) and "SpaceAfter=No" not in cols[9].split("|"):
                parts.append(" ")
        text = "".join(parts)
    g = Graph(id=gid, framework=framework, text=text, source_file=label, source_line=start)
    g.extra.update({"flavor": 0})
    anchorer = Anchorer(text, gid, label)
    span_of: dict[int, tuple[int, int]] = {}
    for lineno, cols, nums in surface:
        m = _TOKEN_RANGE.search(cols[9])
        try:
            span = (int(m.group(1)), int(m.group(2))) if m else anchorer.anchor(cols[1])
        except InputError as exc:
            raise InputError(exc.detail, label, lineno, gid) from None
        for n in nums:
            span_of[n] = span
    numbers = {int(cols[0]) for _, cols in words}
    for lineno, cols in words:
        n = int(cols[0])
        props = [Property(k, v) for k, v in (("lemma", cols[2]), ("upos", cols[3]), ("xpos", cols[4]))]
        if cols[5] != "_":
            for feat in cols[5].split("|"):
                name, eq, value = feat.partition("=")
                if not eq:
                    raise InputError(f"feature {feat!r} is not NAME=VALUE", label, lineno, gid)
                props.append(Property(name, value))
        anchors = [Anchor(*span_of[n])] if n in span_of else []
        g.add_node(str(n - 1), cols[1], properties=props, anchors=anchors)
    for lineno, cols in words:
        n, head = int(cols[0]), cols[6]
        if head == "_":
            continue
        if not head.isdigit() or (int(head) != 0 and int(head) not in numbers):
            raise InputError(f"head {head!r} of word {n} is not a word of the sentence", label, lineno, gid)
        if int(head) == 0:
            g.tops.append(str(n - 1))
        else:
            g.add_edge(str(int(head) - 1), str(n - 1), cols[7])
    return g


def iter_conllu(source: str | os.PathLike | IO[str], texts: dict[str, str] | None = None,
                name: str | None = None, framework: str = "conllu") -> Iterator[Graph]:
    """Stream the sentences of a CoNLL-U file as graphs."""
    label, lines = open_lines(source, name)
    for start, block in _blocks(lines):
        if all(line.startswith("#") for _, line in block):
            continue
        yield _graph(start, block, label, texts, framework)


def dumps_conllu(graphs) -> str:
    """CoNLL-U of dependency graphs (framework ``conllu``: one head per word); tokens
    anchored by ``TokenRange`` in MISC, the input as ``# text``."""
    out = []
    for g in graphs:
        heads: dict[str, tuple[str, str]] = {}
        for e in g.edges:
            if e.target in heads:
                raise InputError(f"node {e.target} has two heads: not a CoNLL-U tree", g.source_file,
                                 g.source_line, g.id)
            heads[e.target] = (e.source, e.label)
        keys = list(g.nodes)
        index = {k: i + 1 for i, k in enumerate(keys)}
        out.append(f"# sent_id = {g.id}")
        if g.text is not None:
            out.append(f"# text = {g.text}")
        for k in keys:
            n = g.nodes[k]
            props = {p.key: p.value for p in n.properties}
            feats = "|".join(f"{p.key}={p.value}" for p in n.properties if p.key not in ("lemma", "upos", "xpos"))
            head, rel = heads.get(k, (None, "root" if k in g.tops else "_"))
            misc = "|".join(f"TokenRange={a.start}:{a.end}" for a in n.anchors[:1]) or "_"
            out.append("\t".join([str(index[k]), n.label or "_", props.get("lemma", "_"), props.get("upos", "_"),
                                  props.get("xpos", "_"), feats or "_",
                                  str(index[head]) if head is not None else ("0" if k in g.tops else "_"),
                                  rel, "_", misc]))
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def read_token_map(path: str) -> dict[str, str]:
    """The tokens of every sentence of a companion file, CoNLL-U or MRP (``conllu`` or any
    anchored graphs: the nodes' anchors in node order), as id -> :class:`TokenText`."""
    with open(path, "rb") as fh:
        head = fh.read(4096).lstrip(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"{"):
        from .mrp import iter_mrp

        graphs = iter_mrp(path)
    else:
        graphs = iter_conllu(path)
    out: dict[str, str] = {}
    for g in graphs:
        if g.id is None or g.text is None:
            continue
        spans = sorted({(a.start, a.end) for n in g.nodes.values() for a in n.anchors})
        out[g.id] = TokenText(g.text, spans)
    return out


__all__ = ["dumps_conllu", "iter_conllu", "read_token_map"]
