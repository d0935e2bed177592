"""Hierarchy metrics for MS-AMR bridging: set-member and part-whole relations between
identity chains scored as a SciCo hierarchy.

An MS-AMR document (:class:`mrkit.model.document.Document`) becomes a SciCo topic: its
chains are the clusters (mentions ``(sentence, variable)``; a system's variables mapped to
gold ones through the Smatch alignment of each sentence pair, as ``mrkit coref --amr``
does), and each bridging relation ``parent -> child`` (the superset -> a member, the whole
-> a part) is a relation between clusters.  The cluster-level hierarchy score, its 50%
variant and the path ratio of :mod:`.hierarchy` then score the bridging structure without
penalising the identity-chain errors a second time.
"""

from __future__ import annotations

from typing import Sequence

from ...codecs.scico import Topic

KINDS = ("set-member", "part-whole")


def bridging_topic(doc, maps: Sequence[dict] | None = None, kinds: Sequence[str] = KINDS,
                   topic_id: str | None = None) -> Topic:
    """The document's chains as clusters and its bridging relations of ``kinds`` as
    parent -> child relations (``maps``: per sentence, system variable -> gold variable;
    an unmapped variable stays a mention no gold chain has)."""
    def var(sentence: int, variable: str):
        if maps is None:
            return variable
        return maps[sentence].get(variable, ("unaligned", variable))

    topic = Topic(str(topic_id if topic_id is not None else doc.id), {}, [], doc.source_file, None)
    for c in doc.chains:
        for m in c.mentions:
            mention = (m.sentence, var(m.sentence, m.variable))
            topic.clusters.setdefault(c.id, []).append(mention)
            topic.mentions.append((mention, c.id))
    for b in doc.bridges:
        if b.kind in kinds:
            topic.relations.extend((b.parent, child) for child in b.children)
    return topic


def bridging_topics(gold_doc, system_doc, *, align: bool = True, kinds: Sequence[str] = KINDS,
                    config=None) -> tuple[Topic, Topic]:
    """(gold, system) topics of one pair of documents, the system's named like gold's."""
    maps = None
    if align:
        from ...align import AlignConfig
        from .amr import variable_maps

        maps = variable_maps(gold_doc, system_doc, config or AlignConfig())
    return (bridging_topic(gold_doc, None, kinds), bridging_topic(system_doc, maps, kinds, topic_id=gold_doc.id))
