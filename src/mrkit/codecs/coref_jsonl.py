"""Reader for jsonlines coreference output: one document per line with token-span clusters.

The format neural coreference systems emit::

    {"doc_key": "d1", "sentences": [["A", "man"], ...], "clusters": [[[0, 1], [5, 5]], ...]}

Spans are ``[start, end]`` with ``end`` inclusive, in tokens over the whole document (the
same numbering and the same :class:`~mrkit.model.clusters.Span` mentions as the column
reader, so a jsonlines response can be scored against a column key).  The id is
``doc_key`` (or ``id``); a line without one is an error.
"""

from __future__ import annotations

import os

from ..errors import InputError
from ._coref_json import is_int, json_objects, record_id, show
from ..model.clusters import CorefDocument, span


def read_jsonlines(path: str | os.PathLike) -> list[CorefDocument]:
    """Documents of a jsonlines file.

    Each line needs a ``doc_key`` (or ``id``: a string or an integer) and a ``clusters``
    list of lists of ``[start, end]`` integer spans (``0 <= start <= end``); with a
    ``sentences`` list of token lists, spans must lie inside the document's tokens.
    Anything else is an :class:`InputError` naming the file, line and document.
    """
    name = os.fspath(path)
    docs = []
    for lineno, obj in json_objects(name, "doc_key", "document"):
        key = obj.get("doc_key", obj.get("id"))
        if key is None:
            raise InputError("no 'doc_key' (the document id)", name, lineno)
        doc_id, bad = record_id(key, "'doc_key'", name, lineno, unit="document")

        clusters = obj.get("clusters")
        if not isinstance(clusters, list):
            raise bad("no 'clusters' list")
        n_tokens = None
        sentences = obj.get("sentences")
        if isinstance(sentences, list) and all(isinstance(s, list) for s in sentences):
            n_tokens = sum(map(len, sentences))
        doc = CorefDocument(doc_id, [], name, lineno)
        for cluster in clusters:
            if not isinstance(cluster, list):
                raise bad(f"a cluster must be a list of [start, end] spans: {show(cluster)}")
            spans = []
            for pair in cluster:
                if not (isinstance(pair, list) and len(pair) == 2 and all(map(is_int, pair))):
                    raise bad(f"a span must be [start, end] with integer token offsets: {show(pair)}")
                s, e = pair
                if e < s:
                    raise bad(f"span [{s}, {e}] ends before it starts")
                if n_tokens is not None and e >= n_tokens:
                    raise bad(f"span [{s}, {e}] is outside the document's {n_tokens} tokens")
                try:
                    spans.append(span(s, e))
                except ValueError:
                    raise bad(f"span [{s}, {e}] is not a token span (tokens are numbered from 0)") from None
            if spans:
                doc.clusters.append(spans)
        docs.append(doc)
    return docs
