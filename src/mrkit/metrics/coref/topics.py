"""Documents grouped into topics: the within-document / cross-document breakdown.

Cross-document coreference corpora (ECB+, Cybulska & Vossen 2014; and the systems
evaluated on it, e.g. Barhom et al. 2019, Cattan et al. 2021) group documents into
topics; an entity (or event) may have mentions in several documents of its topic, and
in column files it keeps one identifier over them.  Two scores are reported:

* **cross-document** (the headline): every topic is one document (its documents one
  after the other, tokens renumbered, clusters joined by identifier) scored with the
  usual metrics; counts summed over topics (micro), as the CoNLL scorer does when it is
  run on a file with one document per topic.  A pattern that puts every document in
  one topic gives the corpus-level score (Cattan et al. 2021's "no topic" setting).
* **within-document**: every document alone, its clusters restricted to the document
  (an entity of several documents is one cluster per document): the ordinary score of
  the same files.

Which topic a document belongs to comes from its id: the first group of a regular
expression (or the whole match) searched in the id, e.g. ``^(\\d+)_`` for ECB+ names
(``12_3ecbplus`` -> topic ``12``).
"""

from __future__ import annotations

import re
from typing import Sequence

from ...errors import InputError
from ...model.clusters import CorefDocument, Span


def topic_of(doc: CorefDocument, pattern: re.Pattern) -> str:
    m = pattern.search(doc.id)
    if m is None:
        raise InputError(f"document id matches no topic (pattern {pattern.pattern!r})", doc.source_file,
                         doc.source_line, doc.id, unit="document")
    return m.group(1) if pattern.groups else m.group(0)


def _width(doc: CorefDocument) -> int:
    if doc.tokens is not None:
        return len(doc.tokens.columns)
    return max((m.last + 1 for c in doc.clusters for m in c if isinstance(m, Span)), default=0)


def merge_documents(topic: str, docs: Sequence[CorefDocument], offsets: Sequence[int]) -> CorefDocument:
    """One document of ``docs`` (tokens of ``docs[i]`` moved by ``offsets[i]``), clusters
    with the same identifier joined (first appearance order)."""
    first = docs[0] if docs else None
    merged = CorefDocument(topic, [], first.source_file if first else None, first.source_line if first else None)
    index: dict = {}
    for doc, offset in zip(docs, offsets):
        if doc.entity_ids is None:
            raise InputError("cross-document scores need the entity identifiers of a column file", doc.source_file,
                             doc.source_line, doc.id, unit="document")
        for ident, cluster in zip(doc.entity_ids, doc.clusters):
            i = index.get(ident)
            if i is None:
                i = index[ident] = len(merged.clusters)
                merged.clusters.append([])
            for m in cluster:
                moved = Span(((m.first + offset) << 32) | (m.last + offset))
                merged.clusters[i].append(moved)
                merged.mention_lines.setdefault(moved, doc.mention_lines.get(m, doc.source_line))
    merged.entity_ids = list(index)
    return merged


def topic_pairs(pairs: Sequence[tuple[CorefDocument, CorefDocument]], pattern: str | re.Pattern
                ) -> list[tuple[CorefDocument, CorefDocument]]:
    """(key, response) documents paired by id -> one (key, response) pair per topic (topics
    in order of first appearance; documents keep their order), the same token offsets on
    both sides."""
    rx = re.compile(pattern) if isinstance(pattern, str) else pattern
    groups: dict[str, list] = {}
    for k, r in pairs:
        groups.setdefault(topic_of(k, rx), []).append((k, r))
    out = []
    for topic, members in groups.items():
        offsets, at = [], 0
        for k, r in members:
            offsets.append(at)
            at += max(_width(k), _width(r))
        out.append((merge_documents(topic, [k for k, _ in members], offsets),
                    merge_documents(topic, [r for _, r in members], offsets)))
    return out
