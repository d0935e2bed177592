"""Coreference on the connected components of a SciCo hierarchy.

SciCo's evaluation (``utils/conll.py`` ``write_connected_components``, scored by
``evaluate.py`` before commit ee169b6) also scored coreference after merging every
cluster with the clusters its relations reach in either direction: a topic's mentions
are grouped by the connected component of their cluster in the undirected graph of
relations (a relation through a cluster without mentions still connects).
"""

from __future__ import annotations

from ...codecs.scico import Topic
from .pairs import mention_list


def component_topic(topic: Topic) -> Topic:
    """The topic with each cluster replaced by its connected component (numbered in
    order of first mention) and no relations."""
    parent: dict = {}

    def find(x):
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for c in topic.clusters:
        find(c)
    for p, c in topic.relations:
        rp, rc = find(p), find(c)
        if rp != rc:
            parent[rc] = rp
    number: dict = {}
    out = Topic(topic.id, {}, [], topic.source_file, topic.source_line, [], topic.tokens, topic.fields)
    for m, c in mention_list(topic):
        k = number.setdefault(find(c), len(number))
        out.clusters.setdefault(k, []).append(m)
        out.mentions.append((m, k))
    return out
