"""Mention-pair relations of a SciCo topic: the classes SciCo's AUROC compares.

SciCo's (removed) ``eval/stat_metrics.py`` labels every ordered pair of mentions
``(x, y)`` of a topic, the pair of a mention with itself included, as

* ``0`` none: not related,
* ``1`` coreferent: the same cluster (so every ``(x, x)``),
* ``2`` parent: a directed path runs from x's cluster to y's (x is an ancestor of y),
* ``3`` child: a path runs from y's cluster to x's,

paths taken in the graph whose nodes are mentions and whose edges join every mention of
a parent cluster to every mention of its child: a relation to a cluster without mentions
links nothing.  Mentions are the gold topic's, in file order; a system topic gives the
class of a pair by matching mentions by span (a mention the system lacks is related to
nothing but itself).
"""

from __future__ import annotations

from typing import Sequence

NONE, COREF, PARENT, CHILD = 0, 1, 2, 3
CLASSES = ("none", "coref", "parent", "child")


def mention_list(topic) -> list[tuple]:
    """The topic's ``(mention, cluster)`` in file order (in cluster order when the topic
    was built without a file)."""
    if topic.mentions:
        return list(topic.mentions)
    return [(m, c) for c, ms in topic.clusters.items() for m in ms]


def cluster_reach(topic) -> dict:
    """cluster -> the set of clusters with mentions reachable from it by a directed path
    of one relation or more, walking only clusters that have mentions."""
    live = {c for c, ms in topic.clusters.items() if ms}
    children: dict = {}
    for p, c in topic.relations:
        if p in live and c in live and p != c:
            children.setdefault(p, set()).add(c)
    reach: dict = {}

    def walk(start):
        seen: set = set()
        stack = list(children.get(start, ()))
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            stack.extend(children.get(n, ()))
        return seen

    for c in live:
        reach[c] = walk(c) if c in children else set()
    return reach


def pair_classes(topic, mentions: Sequence | None = None) -> list[int]:
    """The class of every ordered pair ``(x, y)`` of ``mentions`` (default: the topic's
    own, in file order), row by row (``x`` outer), as SciCo's ``product(range(n),
    repeat=2)``."""
    where = {m: c for m, c in mention_list(topic)}
    if mentions is None:
        mentions = [m for m, _ in mention_list(topic)]
    reach = cluster_reach(topic)
    cl = [where.get(m) for m in mentions]
    out = []
    for i, a in enumerate(cl):
        ra = reach.get(a, ()) if a is not None else ()
        for j, b in enumerate(cl):
            if i == j or (a is not None and a == b):
                out.append(COREF)
            elif a is None or b is None:
                out.append(NONE)
            elif b in ra:
                out.append(PARENT)
            elif a in reach.get(b, ()):
                out.append(CHILD)
            else:
                out.append(NONE)
    return out
