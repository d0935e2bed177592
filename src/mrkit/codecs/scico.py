"""Reader for SciCo topics (hierarchical cross-document coreference).

One topic per line::

    {"id": 1, "tokens": [[...paragraph tokens...], ...],
     "mentions": [[paragraph, start, end_inclusive, cluster], ...],
     "relations": [[parent_cluster, child_cluster], ...]}

A mention is ``(paragraph, start, end)``: system mentions are matched to gold mentions
by span, not by their position in the list, so a system may find other mentions than
the gold ones, and mentions sharing a boundary token stay distinct.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field

from ._coref_json import is_int, json_objects, record_id, show
from ..model.clusters import CorefDocument


@dataclass
class Topic:
    """A SciCo topic: clusters of mentions (by cluster id) and parent -> child relations."""

    id: str
    clusters: dict = field(default_factory=dict)
    """cluster id -> list of mentions, in order of first appearance."""
    relations: list[tuple] = field(default_factory=list)
    source_file: str | None = None
    source_line: int | None = None
    mentions: list[tuple] = field(default_factory=list)
    """``(mention, cluster)`` in the order of the file (SciCo's code indexes mentions by
    this position: AUROC pairs, pair-score files)."""
    tokens: list[list[str]] = field(default_factory=list, repr=False)
    """The paragraphs' tokens (the Levenshtein baseline reads mention text)."""
    fields: dict = field(default_factory=dict, repr=False)
    """Every other field of the line (``id`` as written, ``hard_10``, ``hard_20``, ``source``, ``doc_ids``,
    ``metadata``, ...), as read."""

    def text(self, mention: tuple) -> str:
        """The tokens of a ``(paragraph, start, end)`` mention joined by spaces."""
        para, start, end = mention
        return " ".join(map(str, self.tokens[para][start:end + 1]))

    def document(self) -> CorefDocument:
        return CorefDocument(self.id, [list(c) for c in self.clusters.values()], self.source_file,
                             self.source_line)


_OWN_FIELDS = frozenset(("tokens", "mentions", "relations"))


def _cluster_id(value) -> bool:
    return is_int(value) or isinstance(value, str)


def _required(obj: dict, key: str, bad) -> list:
    """The list under ``key`` (SciCo's own code reads ``topic[key]``: no default)."""
    if key not in obj:
        others = sorted(k for k in obj if k not in _OWN_FIELDS and k != "id")
        seen = f" (its other keys: {show(others)})" if others else ""
        raise bad(f"no '{key}' key: a SciCo topic needs 'tokens', 'mentions' and 'relations'{seen}")
    value = obj[key]
    if not isinstance(value, list):
        raise bad(f"'{key}' must be a list, not {show(value)}")
    return value


def read_scico(path: str | os.PathLike) -> list[Topic]:
    """Topics of a SciCo jsonl file.

    Errors (one line naming file, line and topic): a line that is not an object, a
    ``tokens`` value that is not a list of token lists, a missing ``mentions`` or
    ``relations`` key (an empty topic writes ``[]``), a mention that is not four
    integers ``[paragraph, start, end, cluster]`` (cluster: integer or string) inside the
    topic's paragraphs and tokens, a mention listed twice, a relation that is not ``[parent, child]``, and
    relations that form a cycle.  A relation naming a cluster that has no mentions is
    kept (SciCo's own code counts it) with a :class:`UserWarning` naming it.
    """
    name = os.fspath(path)
    topics = []
    for lineno, obj in json_objects(name, "id", "topic"):
        tid, bad = record_id(obj.get("id", lineno), "topic 'id'", name, lineno, unit="topic")

        tokens = obj.get("tokens")
        if not (isinstance(tokens, list) and all(isinstance(p, list) for p in tokens)):
            raise bad("no 'tokens' list of paragraphs (lists of tokens)")
        mentions = _required(obj, "mentions", bad)
        relations = _required(obj, "relations", bad)
        topic = Topic(tid, {}, [], name, lineno, [], tokens,
                      {k: v for k, v in obj.items() if k not in _OWN_FIELDS})
        seen: dict = {}
        for m in mentions:
            if not (isinstance(m, list) and len(m) == 4 and all(map(is_int, m[:3])) and _cluster_id(m[3])):
                raise bad(f"a mention must be [paragraph, start, end, cluster] with integer offsets: {show(m)}")
            para, start, end, cluster = m
            if not 0 <= para < len(tokens):
                raise bad(f"mention {show(m)}: paragraph {para} is out of range (the topic has {len(tokens)})")
            if not 0 <= start <= end < len(tokens[para]):
                raise bad(f"mention {show(m)}: tokens {start}..{end} are not inside paragraph {para} "
                          f"({len(tokens[para])} tokens)")
            mention = (para, start, end)
            if mention in seen:
                raise bad(f"mention {show(list(mention))} is listed twice (clusters {show(seen[mention])} "
                          f"and {show(cluster)})")
            seen[mention] = cluster
            topic.clusters.setdefault(cluster, []).append(mention)
            topic.mentions.append((mention, cluster))
        for r in relations:
            if not (isinstance(r, list) and len(r) == 2 and all(map(_cluster_id, r))):
                raise bad(f"a relation must be [parent, child] cluster ids: {show(r)}")
            topic.relations.append((r[0], r[1]))
        cycle = find_cycle(topic.relations)
        if cycle:
            raise bad("the relations form a cycle: " + " -> ".join(map(show, cycle)))
        for parent, child in dict.fromkeys(topic.relations):
            missing = [c for c in (parent, child) if c not in topic.clusters]
            if missing:
                warnings.warn(f"{name}:{lineno}, topic {tid}: relation [{show(parent)}, {show(child)}] names "
                              f"cluster {show(missing[0])}, which has no mentions (counted, as SciCo does)",
                              stacklevel=2)
        topics.append(topic)
    return topics


def find_cycle(relations) -> list | None:
    """A cycle of ``(parent, child)`` relations as ``[a, b, ..., a]``, or ``None``.

    Iterative (Kahn's algorithm, then a walk among the nodes it could not order):
    linear in the relations, whatever the depth of the hierarchy.
    """
    children: dict = {}
    indegree: dict = {}
    for p, c in relations:
        children.setdefault(p, []).append(c)
        indegree.setdefault(p, 0)
        indegree[c] = indegree.get(c, 0) + 1
    ready = [n for n, d in indegree.items() if d == 0]
    while ready:
        n = ready.pop()
        for c in children.get(n, ()):
            indegree[c] -= 1
            if indegree[c] == 0:
                ready.append(c)
    left = {n for n, d in indegree.items() if d > 0}
    if not left:
        return None
    # a node left still has a parent left: walking up from one must come back to a node
    # already seen, and the walk from there is a cycle (read in the parent -> child order)
    parents: dict = {}
    for p, c in relations:
        if p in left and c in left:
            parents.setdefault(c, p)
    node = next(n for n in indegree if n in left)
    path, index = [], {}
    while node not in index:
        index[node] = len(path)
        path.append(node)
        node = parents[node]
    cycle = path[index[node]:] + [node]
    return cycle[::-1]


def topic_record(topic: Topic) -> dict:
    """A topic as a SciCo line: its other fields as read, ``id`` (as written), ``tokens``,
    ``mentions`` ``[paragraph, start, end, cluster]`` in the topic's order and
    ``relations`` ``[parent, child]``."""
    record = dict(topic.fields)
    record.setdefault("id", topic.id)
    mentions = topic.mentions or [(m, c) for c, ms in topic.clusters.items() for m in ms]
    record["tokens"] = topic.tokens
    record["mentions"] = [[*m, c] for m, c in mentions]
    record["relations"] = [[p, c] for p, c in topic.relations]
    return record


def dumps_scico(topics) -> str:
    """SciCo jsonl text of ``topics`` (one line each)."""
    import json

    return "".join(json.dumps(topic_record(t), ensure_ascii=False) + "\n" for t in topics)
