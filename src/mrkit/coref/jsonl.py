"""Reader for jsonlines coreference output: one document per line with token-span clusters.

The format neural coreference systems emit::

    {"doc_key": "d1", "sentences": [["A", "man"], ...], "clusters": [[[0, 1], [5, 5]], ...]}

Spans are ``[start, end]`` with ``end`` inclusive, in tokens over the whole document (the
same numbering and the same :class:`~mrkit.coref.model.Span` mentions as the column
reader, so a jsonlines response can be scored against a column key).  The id is
``doc_key`` (or ``id``, or the line number).
"""

from __future__ import annotations

import os

from ..errors import InputError
from ..io import json_lines
from .model import CorefDocument, span


def read_jsonlines(path: str | os.PathLike) -> list[CorefDocument]:
    name = os.fspath(path)
    docs = []
    for lineno, obj in json_lines(name):
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", name, lineno)
        doc_id = str(obj.get("doc_key", obj.get("id", lineno)))
        clusters = obj.get("clusters")
        if not isinstance(clusters, list):
            raise InputError("no 'clusters' list", name, lineno, doc_id, unit="document")
        doc = CorefDocument(doc_id, [], name, lineno)
        for cluster in clusters:
            try:
                pairs = [(int(s), int(e)) for s, e in cluster]
            except (TypeError, ValueError):
                raise InputError(f"a cluster must be a list of [start, end] spans: {cluster!r}",
                                 name, lineno, doc_id, unit="document") from None
            spans = []
            for s, e in pairs:
                if e < s:
                    raise InputError(f"span [{s}, {e}] ends before it starts", name, lineno, doc_id,
                                     unit="document")
                try:
                    spans.append(span(s, e))
                except ValueError:
                    raise InputError(f"span [{s}, {e}] is not a token span (tokens are numbered from 0)",
                                     name, lineno, doc_id, unit="document") from None
            if spans:
                doc.clusters.append(spans)
        docs.append(doc)
    return docs
