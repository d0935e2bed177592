"""Coreference and hierarchy metrics.

Readers turn column files (:func:`read_conll`), jsonlines clusters
(:func:`read_jsonlines`) and SciCo topics (:func:`read_scico`) into
:class:`CorefDocument` objects; :func:`score_documents` computes MUC, B-cubed, CEAFe,
CEAFm, BLANC, LEA and mention identification with the CoNLL-2012 reference scorer's
definitions, and CoNLL-F1.  Metrics receive objects: reading files, pairing and running
through an executor is :mod:`mrkit.pipeline.coref` (``read_documents``, ``score_files``).
"""

from __future__ import annotations

from ...codecs.conll import iter_conll, read_conll
from ...codecs.coref_jsonl import read_jsonlines
from .metrics import METRICS, BlancCounts, Counts
from ...model.clusters import CorefDocument, Span, dedupe, prepare, span
from ...codecs.scico import Topic, read_scico
from .score import CorefResult, DocumentScore, score_clusters, score_documents, score_pair


__all__ = [
    "BlancCounts", "CorefDocument", "CorefResult", "Counts", "DocumentScore", "METRICS",
    "dedupe", "iter_conll", "prepare", "read_conll", "read_jsonlines",
    "score_clusters", "score_documents", "score_pair", "Span", "span", "Topic", "read_scico",
]
