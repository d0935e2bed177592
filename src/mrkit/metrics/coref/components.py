"""Coreference on the connected components of a SciCo hierarchy.

SciCo's evaluation (``utils/conll.py`` ``write_connected_components``, scored by
``evaluate.py`` before commit ee169b6) also scored coreference after merging every
cluster with the clusters its relations reach in either direction: a topic's mentions
are grouped by the connected component of their cluster in the undirected graph of
relations (a relation through a cluster without mentions still connects).
"""

from __future__ import annotations

from ...codecs.scico import Topic
from ...model.union_find import UnionFind
from .pairs import mention_list


def component_topic(topic: Topic) -> Topic:
    """The topic with each cluster replaced by its connected component (numbered in
    order of first mention) and no relations."""
    sets = UnionFind()
    for c in topic.clusters:
        sets.find(c)
    for p, c in topic.relations:
        sets.union(p, c)
    find = sets.find
    number: dict = {}
    out = Topic(topic.id, {}, [], topic.source_file, topic.source_line, [], topic.tokens, topic.fields)
    for m, c in mention_list(topic):
        k = number.setdefault(find(c), len(number))
        out.clusters.setdefault(k, []).append(m)
        out.mentions.append((m, k))
    return out


def document_of(topic: Topic, paragraph: int):
    """The document a paragraph belongs to: ``doc_ids[paragraph]`` when the topic has
    them (SciCo's files do), else the paragraph itself."""
    doc_ids = topic.fields.get("doc_ids")
    if isinstance(doc_ids, list) and 0 <= paragraph < len(doc_ids):
        return doc_ids[paragraph]
    return paragraph


def split_by_document(gold: Topic, system: Topic) -> list[tuple]:
    """Within-document coreference: one (key, response) pair of
    :class:`~mrkit.model.clusters.CorefDocument` per document of the gold topic, each
    cluster cut into its parts in that document (documents as the gold topic assigns
    paragraphs to them; a system mention in a paragraph gold does not list goes with
    that paragraph)."""
    from ...model.clusters import CorefDocument

    def parts(topic: Topic) -> dict:
        out: dict = {}
        for m, c in mention_list(topic):
            d = document_of(gold, m[0])
            out.setdefault(d, {}).setdefault(c, []).append(m)
        return out

    g, s = parts(gold), parts(system)
    pairs = []
    for d in list(dict.fromkeys(list(g) + list(s))):
        name = f"{gold.id}/{d}"
        pairs.append((CorefDocument(name, list(g.get(d, {}).values()), gold.source_file, gold.source_line),
                      CorefDocument(name, list(s.get(d, {}).values()), system.source_file, system.source_line)))
    return pairs
