"""System-pipeline input: aligned sentence AMRs plus text-level coreference clusters.

Sentence graphs come with node-to-token alignments in one of three forms:

* JAMR ``# ::node<TAB>var<TAB>concept<TAB>start-end`` lines (token range, end exclusive);
* ``# ::alignments`` metadata: ISI ``tok-path`` items (``3-1.2.1``, 1-based tree paths,
  every branch after the concept counts) or JAMR ``start-end|path+path`` items
  (0-based paths);
* PENMAN alignment markers (``want-01~e.2``), which the codec keeps in
  ``Node.extra["alignment"]``.

Clusters are the jsonlines format of neural coreference systems: one object per
document with ``clusters`` (lists of ``[start, end]`` token spans, end inclusive, over
the document's tokens) and optionally ``sentences`` (token lists; otherwise the
``# ::tok`` / ``# ::snt`` of each graph, split on spaces).

Projection (:func:`project_clusters`): a node's span is the smallest token span covering
the tokens aligned to it and to its descendants (re-entrant edges dropped, the first
occurrence kept); a text mention goes to the node with the shortest span containing it,
ties to the highest node; mentions of one chain within one sentence are left to the
sentence parser (only the first is kept); chains left in a single sentence are dropped.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Sequence

import penman

from ..errors import InputError
from ..model.graph import Graph
from ..model.document import Chain, Document, Mention, check_document


def _tree_paths(tree: penman.Tree, one_based: bool) -> dict[str, str]:
    """Tree path (``1.2.1`` / ``0.1.0``) -> variable of the node at or owning that branch."""
    base = 1 if one_based else 0
    paths: dict[str, str] = {}

    def walk(node, path: str) -> None:
        var, branches = node
        paths[path] = var
        k = base
        for role, target in branches:
            if role == "/":
                continue
            child = f"{path}.{k}"
            if isinstance(target, tuple):
                walk(target, child)
            else:
                paths[child] = var
            k += 1

    walk(tree.node, str(base))
    return paths


def token_alignments(g: Graph, tree: penman.Tree | None = None) -> dict[str, set[int]]:
    """Variable -> aligned token indices of one sentence graph."""
    out: dict[str, set[int]] = {v: set() for v in g.nodes}
    for v, n in g.nodes.items():
        out[v].update(n.extra.get("alignment") or ())
    # Only the first and last token of a range matter (spans are min..max), so a range is
    # kept as its two ends: nothing is allocated in proportion to a number in the input.
    ntok = len(_tokens(g))
    for lineno, line in g.extra.get("node_lines", ()):
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0] in out and re.fullmatch(r"[0-9]+-[0-9]+", parts[-1]):
            s, e = map(int, parts[-1].split("-"))
            if e < s or (ntok and e > ntok):
                raise InputError(f"# ::node span {parts[-1]} is not within the sentence's {ntok} tokens",
                                 g.source_file, lineno, g.id)
            if e > s:
                out[parts[0]].update((s, e - 1))
    spec = g.metadata.get("alignments")
    if spec and tree is not None:
        jamr = "|" in spec
        paths = _tree_paths(tree, one_based=not jamr)
        for item in spec.split():
            try:
                if jamr:
                    span, _, ps = item.partition("|")
                    s, _, e = span.partition("-")
                    s_, e_ = int(s), int(e)
                    if e_ < s_ or s_ < 0:
                        raise ValueError
                    toks = (s_, e_ - 1) if e_ > s_ else ()
                    targets = ps.split("+")
                else:
                    tok, _, p = item.partition("-")
                    toks = [int(tok)]
                    if toks[0] < 0:
                        raise ValueError
                    targets = [p.removesuffix(".r")]
            except ValueError:
                raise InputError(f"# ::alignments item {item!r} is not "
                                 f"{'start-end|path' if jamr else 'token-path'}",
                                 g.source_file, g.source_line, g.id) from None
            for p in targets:
                var = paths.get(p)
                if var is not None:
                    out[var].update(toks)
    return out


def node_spans(g: Graph, aligned: dict[str, set[int]]) -> tuple[dict[str, tuple[int, int]], dict[str, int]]:
    """(span, depth) of every aligned node: span = (first, last) token covered by the node
    and its descendants in the spanning tree from the top (re-entrancies dropped)."""
    children: dict[str, list[str]] = {v: [] for v in g.nodes}
    for e in g.edges:
        children[e.source].append(e.target)
    depth: dict[str, int] = {}
    order: list[str] = []
    for top in g.tops or list(g.nodes)[:1]:
        if top in depth:
            continue
        depth[top] = 0
        stack = [top]
        while stack:
            v = stack.pop()
            order.append(v)
            for c in reversed(children[v]):
                if c not in depth:
                    depth[c] = depth[v] + 1
                    stack.append(c)
    tree_children: dict[str, list[str]] = {v: [] for v in g.nodes}
    for v in order:
        for c in children[v]:
            if depth.get(c) == depth[v] + 1 and c not in tree_children[v] and c != v:
                tree_children[v].append(c)
    toks: dict[str, set[int]] = {}
    for v in reversed(order):
        t = set(aligned.get(v, ()))
        for c in tree_children[v]:
            t |= toks.get(c, set())
        toks[v] = t
    spans = {v: (min(t), max(t)) for v, t in toks.items() if t}
    return spans, depth


def project_mention(spans: dict[str, tuple[int, int]], depth: dict[str, int],
                    start: int, end: int) -> str | None:
    """The node with the shortest span containing tokens ``start..end`` (inclusive);
    ties go to the highest node."""
    best = None
    for v, (s, e) in spans.items():
        if s <= start and end <= e:
            key = (e - s, depth.get(v, 0))
            if best is None or key < best[0]:
                best = (key, v)
    return best[1] if best else None


def read_aligned_amr(path: str | os.PathLike) -> list[tuple[Graph, penman.Tree]]:
    """Sentence graphs with their PENMAN trees and raw ``# ::node`` lines."""
    from ..codecs.penman import iter_penman

    graphs = list(iter_penman(path))
    text = Path(path).read_text(encoding="utf-8")  # iter_penman has checked the encoding
    blocks: list[tuple[int, str]] = []  # (first line number, text) of each blank-line block
    start, cur = 1, []
    for no, ln in enumerate(text.split("\n"), 1):
        if ln.strip():
            if not cur:
                start = no
            cur.append(ln)
        elif cur:
            blocks.append((start, "\n".join(cur)))
            cur = []
    if cur:
        blocks.append((start, "\n".join(cur)))
    blocks = [(no, b) for no, b in blocks
              if not all(ln.lstrip().startswith("#") for ln in b.splitlines() if ln.strip())]
    try:
        trees = [penman.parse(b) for _, b in blocks]
    except Exception:  # the codec read the file; a block it reads differently gets no paths
        trees = []
    if len(trees) != len(graphs):  # several graphs in one block: no path alignments then
        trees = [None] * len(graphs)
    for g, (no, b) in zip(graphs, blocks if len(blocks) == len(graphs) else [(0, "")] * len(graphs)):
        g.extra["node_lines"] = [(no + k, ln.split("::node", 1)[1].strip("\n").lstrip("\t ").rstrip())
                                 for k, ln in enumerate(b.splitlines()) if ln.startswith("# ::node")]
    return list(zip(graphs, trees))


def _tokens(g: Graph) -> list[str]:
    text = g.metadata.get("tok") or g.metadata.get("snt") or ""
    return text.split()


def project_clusters(sentences: Sequence[Graph], clusters: Sequence[Sequence[Sequence[int]]],
                     sentence_tokens: Sequence[int], trees: Sequence | None = None,
                     file: str | None = None, line: int | None = None) -> list[Chain]:
    """Project document-level token-span clusters onto sentence nodes (see module doc)."""
    offsets = [0]
    for n in sentence_tokens:
        offsets.append(offsets[-1] + n)
    info = []
    for k, g in enumerate(sentences):
        tree = trees[k] if trees else None
        info.append(node_spans(g, token_alignments(g, tree)))
    chains = []
    if not isinstance(clusters, list):
        raise InputError(f"\"clusters\" must be a list of clusters, not {type(clusters).__name__}", file, line)
    for c, cluster in enumerate(clusters):
        mentions: list[Mention] = []
        seen: set[int] = set()
        if not isinstance(cluster, list):
            raise InputError(f"cluster {c} is not a list of [start, end] spans", file, line)
        for span in cluster:
            if not (isinstance(span, list) and len(span) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in span)):
                raise InputError(f"cluster {c}: span {span!r} is not [start, end]", file, line)
            start, end = span
            k = next((i for i in range(len(sentences)) if offsets[i] <= start < offsets[i + 1]), None)
            if k is None or end >= offsets[k + 1] or end < start:
                raise InputError(f"cluster {c}: span {span!r} is outside the document's tokens "
                                 "or crosses a sentence boundary", file, line)
            if k in seen:
                continue
            spans, depth = info[k]
            var = project_mention(spans, depth, start - offsets[k], end - offsets[k])
            if var is None:
                continue
            seen.add(k)
            mentions.append(Mention(k, var))
        if len(mentions) >= 2:
            chains.append(Chain(f"rel-{len(chains)}", mentions))
    return chains


def read_pipeline(amr_path: str | os.PathLike, clusters_path: str | os.PathLike,
                  doc_id: str | None = None) -> list[Document]:
    """Aligned sentence AMRs plus a jsonlines file of clusters -> one Document per line.

    With several jsonlines documents, the sentence graphs are taken in order, as many per
    document as its ``sentences`` list has (a single document takes all graphs).
    """
    pairs = read_aligned_amr(amr_path)
    file = str(clusters_path)
    from ..codecs._files import read_text

    lines = [(no, ln) for no, ln in enumerate(read_text(clusters_path).splitlines(), 1) if ln.strip()]
    docs = []
    pos = 0
    for lineno, ln in lines:
        try:
            obj = json.loads(ln)
            clusters = obj["clusters"]
        except (ValueError, KeyError, TypeError, RecursionError):  # ValueError: bad JSON, 5,000-digit numbers
            raise InputError("expected a JSON object with \"clusters\"", file, lineno) from None
        sents = obj.get("sentences")
        if sents is not None and not (isinstance(sents, list) and all(isinstance(x, list) for x in sents)):
            raise InputError("\"sentences\" must be a list of token lists", file, lineno)
        count = len(sents) if sents is not None else len(pairs) - pos
        part = pairs[pos:pos + count]
        if len(part) < count:
            raise InputError(f"needs {count} sentences but only {len(pairs) - pos} graphs are left", file, lineno)
        pos += count
        graphs = [g for g, _ in part]
        lengths = [len(s) for s in sents] if sents is not None else [len(_tokens(g)) for g in graphs]
        chains = project_clusters(graphs, clusters, lengths, [t for _, t in part], file, lineno)
        doc = Document(str(obj.get("doc_key") or doc_id or graphs[0].id if graphs else "document"),
                       graphs, chains, source_file=file)
        check_document(doc)
        docs.append(doc)
    return docs
