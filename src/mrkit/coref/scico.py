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
from dataclasses import dataclass, field

from ..errors import InputError
from ..io import json_lines
from .model import CorefDocument


@dataclass
class Topic:
    """A SciCo topic: clusters of mentions (by cluster id) and parent -> child relations."""

    id: str
    clusters: dict = field(default_factory=dict)
    """cluster id -> list of mentions, in order of first appearance."""
    relations: list[tuple] = field(default_factory=list)
    source_file: str | None = None
    source_line: int | None = None

    def document(self) -> CorefDocument:
        return CorefDocument(self.id, [list(c) for c in self.clusters.values()], self.source_file,
                             self.source_line)


def read_scico(path: str | os.PathLike) -> list[Topic]:
    name = os.fspath(path)
    topics = []
    for lineno, obj in json_lines(name):
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", name, lineno)
        tid = str(obj.get("id", lineno))
        topic = Topic(tid, {}, [], name, lineno)
        try:
            for para, start, end, cluster in obj.get("mentions", []):
                topic.clusters.setdefault(cluster, []).append((int(para), int(start), int(end)))
            topic.relations = [(parent, child) for parent, child in obj.get("relations", [])]
        except (TypeError, ValueError):
            raise InputError("mentions must be [paragraph, start, end, cluster] and relations "
                             "[parent, child]", name, lineno, tid, unit="topic") from None
        topics.append(topic)
    return topics
