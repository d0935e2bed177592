"""Coreference over AMR variables (the MS-AMR inter-annotator setting).

Gold and system documents (:class:`mrkit.model.document.Document`) are sentence AMR
graphs plus identity chains of ``(sentence, variable)`` mentions.  When the two sides
annotate different graphs, a system variable means nothing by its name: each sentence
pair is aligned with the shared Smatch engine (:func:`mrkit.metrics.amr.smatch.align_triples`
on :func:`mrkit.features.triples.triples`), system mentions are mapped through that alignment to gold
variables, and every coreference metric is computed with variables as mentions.  A
system variable the alignment leaves unmapped stays a mention of its own, which no gold
chain has.  Implicit roles are mentions ``(sentence, predicate variable, role)``, the
predicate mapped the same way.
"""

from __future__ import annotations

from typing import Sequence

from ...align import AlignConfig
from ...features.triples import triples
from ...errors import InputError
from ...model.clusters import CorefDocument
from .score import CorefResult, score_documents


def variable_maps(gold_doc, system_doc, config: AlignConfig = AlignConfig()) -> list[dict[str, str]]:
    """For every sentence, system variable -> gold variable of the best Smatch alignment."""
    from ..amr.smatch import align_triples

    if len(gold_doc.sentences) != len(system_doc.sentences):
        raise InputError(f"gold has {len(gold_doc.sentences)} sentences, system {len(system_doc.sentences)}",
                         system_doc.source_file, None, system_doc.id, unit="document")
    maps = []
    for g, s in zip(gold_doc.sentences, system_doc.sentences):
        tg, ts = triples(g), triples(s)
        res = align_triples(tg, ts, config)
        maps.append({ts.variables[j]: tg.variables[i] for i, j in enumerate(res.mapping) if j >= 0})
    return maps


def _clusters(doc, maps: Sequence[dict[str, str]] | None, implicit: bool) -> list[list]:
    def var(sentence: int, variable: str):
        if maps is None:
            return variable
        return maps[sentence].get(variable, ("unaligned", variable))

    out: dict[str, list] = {c.id: [(m.sentence, var(m.sentence, m.variable)) for m in c.mentions]
                            for c in doc.chains}
    if implicit:
        for r in doc.implicit:
            out.setdefault(r.chain, []).append((r.sentence, var(r.sentence, r.variable), r.role))
    return [c for c in out.values() if c]


def variable_documents(gold_doc, system_doc, config: AlignConfig = AlignConfig(), *, align: bool = True,
                       implicit: bool = True) -> tuple[CorefDocument, CorefDocument]:
    """Key and response :class:`CorefDocument` with (aligned) variables as mentions."""
    maps = variable_maps(gold_doc, system_doc, config) if align else None
    key = CorefDocument(str(gold_doc.id), _clusters(gold_doc, None, implicit), gold_doc.source_file)
    response = CorefDocument(str(gold_doc.id), _clusters(system_doc, maps, implicit), system_doc.source_file)
    return key, response


def coref_over_variables(gold_doc, system_doc, config: AlignConfig = AlignConfig(), *,
                         align: bool = True, keep_singletons: bool = True, implicit: bool = True,
                         metrics: Sequence[str] | None = None) -> CorefResult:
    """All coreference metrics of the system's chains against the gold chains.

    ``align=False`` compares variables by name (both sides annotate the same graphs).
    """
    key, response = variable_documents(gold_doc, system_doc, config, align=align, implicit=implicit)
    return score_documents([key], [response], keep_singletons=keep_singletons, metrics=metrics)
