"""SciCo's edit-distance baseline (``lexical_baseline.py``; the paper's §5.2).

Mentions of a topic are clustered by average-linkage agglomerative clustering over the
distance ``1 - normalized Levenshtein similarity`` of their texts (tokens joined by
spaces; similarity ``1 - edit distance / length of the longer text``, as the
textdistance library computes it), with distance threshold 0.3; no relations.
"""

from __future__ import annotations

from ..codecs.scico import Topic
from ..metrics.coref.pairs import mention_list
from .agglomerative import agglomerative

THRESHOLD = 0.3


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions of one character each)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def similarity(a: str, b: str) -> float:
    """Normalized Levenshtein similarity: 1 - distance / max length (1 for two empty texts)."""
    longest = max(len(a), len(b))
    return 1.0 - levenshtein(a, b) / longest if longest else 1.0


def cluster_topic(topic: Topic, threshold: float = THRESHOLD) -> Topic:
    """The topic's mentions (in order) clustered by edit distance; no relations."""
    mentions = [m for m, _ in mention_list(topic)]
    texts = [topic.text(m) for m in mentions]
    n = len(texts)
    cache: dict = {}
    dist = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            key = (texts[i], texts[j])
            if key not in cache:
                cache[key] = 1.0 - similarity(*key)
            dist[i][j] = dist[j][i] = cache[key]
    labels = agglomerative(dist, threshold)
    return predicted_topic(topic, mentions, labels, [])


def predicted_topic(topic: Topic, mentions, labels, relations) -> Topic:
    """A new topic: ``topic``'s id, tokens and fields, ``mentions`` in clusters ``labels``."""
    out = Topic(topic.id, {}, list(relations), None, None, [], topic.tokens, dict(topic.fields))
    for m, c in zip(mentions, labels):
        out.clusters.setdefault(c, []).append(m)
        out.mentions.append((m, c))
    return out
