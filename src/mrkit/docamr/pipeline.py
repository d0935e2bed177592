"""System-pipeline input: aligned sentence AMRs plus text-level coreference clusters.

Sentence graphs come with node-to-token alignments in one of three forms:

* JAMR ``# ::node<TAB>var<TAB>concept<TAB>start-end`` lines (token range, end exclusive);
* ``# ::alignments`` metadata: ISI ``tok-path`` items (``3-1.2.1``, 1-based tree paths,
  every branch after the concept counts) or JAMR ``start-end|path+path`` items
  (0-based paths);
* PENMAN alignment markers (``want-01~e.2``), which the codec keeps in
  ``Node.extra["alignment"]``.

Clusters come in three formats (:func:`cluster_records` tells them apart):

* the jsonlines format of neural coreference systems: one object per document with
  ``clusters`` (lists of ``[start, end]`` token spans, end inclusive, over the document's
  tokens) and optionally ``sentences`` (token lists; otherwise the ``# ::tok`` /
  ``# ::snt`` of each graph, split on spaces);
* CoNLL-2012 column files (``#begin document`` ... ``#end document``, coreference in the
  last column, blank lines between sentences), read by :mod:`mrkit.codecs.conll`;
* CoreNLP JSON (``{"sentences": [{"tokens": [...]}], "corefs": {"1": [{"sentNum": 1,
  "startIndex": 1, "endIndex": 3}, ...]}}``, 1-based, end exclusive).

Projection (:func:`project_clusters`): a node's span is the smallest token span covering
the tokens aligned to it and to its descendants (re-entrant edges dropped, the first
occurrence kept); a text mention goes to the node with the shortest span containing it,
ties to the highest node; mentions of one chain within one sentence are left to the
sentence parser (only the first is kept); chains left in a single sentence are dropped.

Diagnostics (``Document.diagnostics``, :func:`diagnostics_lines`): the mentions that
could not be placed (no aligned node covers them), those placed on a predicate (a
concept ending in ``-NN``: often a sign that the span covers a clause), those whose span
crosses a sentence boundary (skipped) and those left out as a repeat within one sentence.
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

_PREDICATE = re.compile(r".+-\d+$")
DIAGNOSTICS = ("unplaced", "on_predicate", "crosses_sentences", "same_sentence")


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
                     file: str | None = None, line: int | None = None,
                     diag: dict | None = None) -> list[Chain]:
    """Project document-level token-span clusters onto sentence nodes (see module doc);
    ``diag`` (a dict) receives the diagnostics: lists of ``(cluster, start, end[,
    sentence, variable])`` under ``unplaced``, ``on_predicate``, ``crosses_sentences``,
    ``same_sentence``."""
    diag = {} if diag is None else diag
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
            if k is None or end >= offsets[-1] or end < start:
                raise InputError(f"cluster {c}: span {span!r} is outside the document's tokens", file, line)
            if end >= offsets[k + 1]:
                diag.setdefault("crosses_sentences", []).append((c, start, end))
                continue
            if k in seen:
                diag.setdefault("same_sentence", []).append((c, start, end))
                continue
            spans, depth = info[k]
            var = project_mention(spans, depth, start - offsets[k], end - offsets[k])
            if var is None:
                diag.setdefault("unplaced", []).append((c, start, end))
                continue
            if _PREDICATE.fullmatch(sentences[k].nodes[var].label or ""):
                diag.setdefault("on_predicate", []).append((c, start, end, k, var))
            seen.add(k)
            mentions.append(Mention(k, var))
        if len(mentions) >= 2:
            chains.append(Chain(f"rel-{len(chains)}", mentions))
    return chains


def _jsonlines_records(path: str, text: str):
    for lineno, ln in enumerate(text.splitlines(), 1):
        if not ln.strip():
            continue
        try:
            obj = json.loads(ln)
            obj["clusters"]
        except (ValueError, KeyError, TypeError, RecursionError):  # ValueError: bad JSON, 5,000-digit numbers
            raise InputError("expected a JSON object with \"clusters\"", path, lineno) from None
        yield lineno, obj


def _conll_records(path: str, text: str):
    """CoNLL-2012 documents as jsonlines records (sentence lengths from the blank lines)."""
    from ..codecs.conll import read_conll

    lengths: list[list[int]] = []
    cur: list[int] | None = None
    n = 0
    for ln in text.splitlines():
        if ln.startswith("#"):
            if re.match(r"#\s*begin document", ln):
                cur, n = [], 0
                lengths.append(cur)
            elif re.match(r"#\s*end document", ln) and cur is not None:
                if n:
                    cur.append(n)
                cur, n = None, 0
            continue
        if not ln.strip():
            if cur is not None and n:
                cur.append(n)
            n = 0
        elif cur is not None:
            n += 1
    for doc, lens in zip(read_conll(path), lengths):
        clusters = [[list(m) for m in c] for c in doc.clusters]  # a Span unpacks as (first, last)
        yield doc.source_line, {"doc_key": doc.id, "clusters": clusters, "sentences": [["_"] * k for k in lens]}


def _corenlp_records(path: str, obj: dict):
    """A CoreNLP JSON document as a jsonlines record (1-based, end-exclusive indices)."""
    try:
        sents = [len(s["tokens"]) for s in obj["sentences"]]
        offsets = [0]
        for k in sents:
            offsets.append(offsets[-1] + k)
        clusters = []
        for chain in obj.get("corefs", {}).values():
            spans = []
            for m in chain:
                k, a, b = int(m["sentNum"]) - 1, int(m["startIndex"]) - 1, int(m["endIndex"]) - 2
                if not (0 <= k < len(sents)) or not (0 <= a <= b < sents[k]):
                    raise InputError(f"CoreNLP mention {m.get('text', '')!r} is outside sentence "
                                     f"{m['sentNum']}'s tokens", path, 1)
                spans.append([offsets[k] + a, offsets[k] + b])
            clusters.append(spans)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"malformed CoreNLP JSON ({type(exc).__name__}: {exc})", path, 1) from None
    yield 1, {"doc_key": obj.get("docId"), "clusters": clusters, "sentences": [["_"] * k for k in sents]}


def cluster_records(path: str | os.PathLike):
    """``(line, record)`` of every document of a cluster file, whatever its format:
    jsonlines, CoNLL-2012 columns, or CoreNLP JSON (see the module doc).  A record is a
    jsonlines object (``clusters``, ``sentences``, ``doc_key``)."""
    from ..codecs._files import read_text

    file = str(path)
    text = read_text(path)
    head = text.lstrip()[:2000]
    if re.match(r"#\s*begin document", head):
        return list(_conll_records(file, text))
    if head.startswith("{") and "\n{" not in text.strip():
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            obj = None
        if isinstance(obj, dict) and "corefs" in obj and "sentences" in obj:
            return list(_corenlp_records(file, obj))
    return list(_jsonlines_records(file, text))


def read_pipeline(amr_path: str | os.PathLike, clusters_path: str | os.PathLike,
                  doc_id: str | None = None) -> list[Document]:
    """Aligned sentence AMRs plus a file of clusters (:func:`cluster_records`) -> one
    Document per cluster document, with its projection diagnostics.

    With several documents, the sentence graphs are taken in order, as many per
    document as its ``sentences`` list has (a single document takes all graphs).
    """
    pairs = read_aligned_amr(amr_path)
    file = str(clusters_path)
    docs = []
    pos = 0
    for lineno, obj in cluster_records(clusters_path):
        clusters = obj["clusters"]
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
        diag: dict = {}
        chains = project_clusters(graphs, clusters, lengths, [t for _, t in part], file, lineno, diag)
        doc = Document(str(obj.get("doc_key") or doc_id or graphs[0].id if graphs else "document"),
                       graphs, chains, source_file=file)
        doc.diagnostics = {k: diag.get(k, []) for k in DIAGNOSTICS}
        check_document(doc)
        docs.append(doc)
    return docs


def diagnostics_lines(doc: Document) -> list[str]:
    """One summary line of a document's projection diagnostics, then one line per
    mention that was not placed or was placed on a predicate or crossed sentences."""
    d = getattr(doc, "diagnostics", None) or {}
    if not d:
        return []
    lines = [f"{doc.id}: " + ", ".join(f"{len(d.get(k, []))} {k.replace('_', ' ')}" for k in DIAGNOSTICS)]
    for k in ("unplaced", "on_predicate", "crosses_sentences"):
        for item in d.get(k, []):
            c, a, b = item[:3]
            where = f" -> sentence {item[3] + 1} variable {item[4]}" if len(item) > 3 else ""
            lines.append(f"  {k.replace('_', ' ')}: cluster {c} tokens {a}-{b}{where}")
    return lines
