"""Coreference and hierarchy metrics.

Readers turn column files (:func:`read_conll`), jsonlines clusters
(:func:`read_jsonlines`) and SciCo topics (:func:`read_scico`) into
:class:`CorefDocument` objects; :func:`score_documents` computes MUC, B-cubed, CEAFe,
CEAFm, BLANC, LEA and mention identification with the CoNLL-2012 reference scorer's
definitions, and CoNLL-F1.  :func:`score_files` does both from two paths.
"""

from __future__ import annotations

import os

from ...codecs.conll import iter_conll, read_conll
from ...codecs.coref_jsonl import read_jsonlines
from .metrics import METRICS, BlancCounts, Counts
from ...model.clusters import CorefDocument, Span, dedupe, prepare, span
from ...codecs.scico import Topic, read_scico
from .score import CorefResult, DocumentScore, score_clusters, score_documents


def read_documents(path: str | os.PathLike, fmt: str = "auto") -> list[CorefDocument]:
    """Documents of a column file or a jsonlines file (``fmt``: auto, conll, jsonl)."""
    name = os.fspath(path)
    if fmt == "auto":
        fmt = "jsonl" if name.endswith((".jsonl", ".jsonlines", ".json")) else "conll"
    if fmt == "jsonl":
        return read_jsonlines(name)
    if fmt == "conll":
        return read_conll(name)
    raise ValueError(f"unknown format {fmt!r}")


def score_files(key: str | os.PathLike, response: str | os.PathLike, fmt: str = "auto", **options) -> CorefResult:
    """Score a response file against a key file; options as for :func:`score_documents`."""
    return score_documents(read_documents(key, fmt), read_documents(response, fmt),
                           response_file=os.fspath(response), **options)


__all__ = [
    "BlancCounts", "CorefDocument", "CorefResult", "Counts", "DocumentScore", "METRICS",
    "dedupe", "iter_conll", "prepare", "read_conll", "read_documents", "read_jsonlines",
    "score_clusters", "score_documents", "score_files", "Span", "span", "Topic", "read_scico",
]
