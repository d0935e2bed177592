"""Coreference and hierarchy metrics.

Readers turn column files (:func:`read_conll`), jsonlines clusters
(:func:`read_jsonlines`) and SciCo topics (:func:`read_scico`) into
:class:`CorefDocument` objects; :func:`score_documents` computes MUC, B-cubed, CEAFe,
CEAFm, BLANC, LEA and mention identification with the CoNLL-2012 reference scorer's
definitions, and CoNLL-F1.  Metrics receive objects: reading files, pairing and running
through an executor is :mod:`mrkit.pipeline.coref` (``read_documents``, ``score_files``).
"""

from __future__ import annotations

import importlib

# Loaded on first use (PEP 562): a caller that needs one submodule -- document Smatch's
# chain metrics need only ``metrics`` -- does not pay for the readers and SciCo's codec.
_WHERE = {
    "iter_conll": "...codecs.conll", "read_conll": "...codecs.conll",
    "read_jsonlines": "...codecs.coref_jsonl",
    "METRICS": ".metrics", "BlancCounts": ".metrics", "Counts": ".metrics",
    "CorefDocument": "...model.clusters", "Span": "...model.clusters", "dedupe": "...model.clusters",
    "prepare": "...model.clusters", "span": "...model.clusters",
    "Topic": "...codecs.scico", "read_scico": "...codecs.scico",
    "CorefResult": ".score", "DocumentScore": ".score", "score_clusters": ".score",
    "score_documents": ".score", "score_pair": ".score",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
