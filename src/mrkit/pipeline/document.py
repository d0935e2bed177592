"""Document graphs through the pipeline: read -> pair in order -> document Smatch
(:mod:`mrkit.metrics.document.docsmatch`) through the caller's executor -> one
:class:`~mrkit.aggregate.corpus.CorpusResult`.

Each pair's row is the (matched, gold, system) triples of the overall score, so the
headline (``summary.f1``) is document Smatch micro-averaged over the pairs, and
bootstrap intervals and comparisons resample document pairs.  The coreference subscore
(with its named-entity / bridging / other parts), the reentrancy subscore and the upper
bound of the F1 are summed as the pairs stream past and reported as the result's detail,
with the CoNLL-family metrics of the chains (``chains``: MUC, B-cubed, CEAFe, LEA,
CoNLL-F1; :mod:`mrkit.metrics.document.chains`), mentions matched through the alignment.
"""

from __future__ import annotations

import sys
from functools import partial

from ..errors import InputError, MrkitError

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable, Iterable, Iterator

INPUT_FORMATS = ("penman", "amr")
"""Input formats ``mrkit docsmatch --format`` takes (both name PENMAN)."""

CHUNK = 1
"""Document pairs per executor task: one document pair is seconds of work, so one pair
per task keeps every worker busy (the round trip costs far less)."""


def read_documents(path: str, fmt: str | None = None) -> Iterator:
    """Stream the document graphs of a PENMAN file (``-``: standard input), each with its
    provenance read (:func:`mrkit.features.provenance.read_provenance`)."""
    from ..codecs.docgraphs import iter_document_graphs

    if fmt is not None and fmt.lower() not in INPUT_FORMATS:
        raise MrkitError(f"document graphs are read as PENMAN, not {fmt!r}")
    if path == "-":
        yield from iter_document_graphs(sys.stdin, "<stdin>")
    else:
        yield from iter_document_graphs(path)


def pair_in_order(golds: Iterable, systems: Iterable, gold_name: str, system_name: str) -> Iterator[tuple]:
    """``(index, gold, system)`` of two streams paired by position; two streams of
    different lengths (or none at all) are an error naming the files."""
    gi, si = iter(golds), iter(systems)
    n = 0
    for g in gi:
        s = next(si, None)
        if s is None:
            rest = 1 + sum(1 for _ in gi)
            raise InputError(f"holds {n} graphs but the gold file {gold_name} holds {n + rest}", system_name)
        yield n, g, s
        n += 1
    rest = sum(1 for _ in si)
    if rest:
        raise InputError(f"holds {n + rest} graphs but the gold file {gold_name} holds {n}", system_name)
    if n == 0:
        raise InputError("holds no graphs: nothing to score", gold_name)


def _score_chunk(config, chunk: list[tuple], align_sentences: bool = False) -> list[tuple]:
    """Module level (a process executor sends it to its workers): document Smatch of a
    chunk of ``(index, gold, system)``; per pair the Collector's ``(id, row, certified,
    record)``, the pair's bound and the subscore counts that the detail sums."""
    from ..metrics.document.docsmatch import COREF_PARTS, docsmatch_pair

    out = []
    for index, gold, system in chunk:
        p = docsmatch_pair(gold, system, config, index, align_sentences)
        counts = {"coref": p.coref, "reentrancy": p.reentrancy,
                  **{f"coref_parts.{k}": p.coref_parts[k] for k in COREF_PARTS}}
        record = {**p.to_dict(), "coref_f1": p.coref.f1, "reentrancy_f1": p.reentrancy.f1}
        counts.update({f"chains.{k}": c for k, c in p.chains.items()})
        out.append((p.id, (p.matched, p.gold, p.system), p.certified, record, p.bound, counts))
    return out


def _chain_scores(chains: dict) -> dict:
    """The summed CoNLL-family counts as ``{metric: {recall, precision, f1, counts}}`` plus
    ``conll`` (the mean F1 of MUC, B-cubed and CEAFe)."""
    out = {k: c.to_dict() for k, c in chains.items()}
    if all(k in chains for k in ("muc", "bcub", "ceafe")):
        out["conll"] = {"f1": sum(chains[k].f1 for k in ("muc", "bcub", "ceafe")) / 3}
    return out


def score_documents(gold: str, system: str, config=None, executor=None, *, input_format: str | None = None,
                    keep_records: bool = False, progress: Callable[[int], None] | None = None,
                    align_sentences: bool = False):
    """Document Smatch of two PENMAN files of document graphs (``-``: standard input),
    paired in order, scored through ``executor`` (serial by default): a
    :class:`~mrkit.aggregate.corpus.CorpusResult` with the subscores as its detail
    (``coref``, ``coref_parts``, ``reentrancy``, ``overall``, ``f1_upper_bound``, ``chains``).
    ``align_sentences``: align system sentences to gold sentences by their text
    (:mod:`mrkit.metrics.document.segmentation`); every pair's alignment is in
    ``detail["sentence_alignment"]``."""
    from ..aggregate.corpus import Collector
    from ..aggregate.prf import prf
    from ..aggregate.resampling import prf_reduce
    from ..align import AlignConfig
    from ..metrics.document.docsmatch import COREF_PARTS, Subscore
    from ..runtime.executor import SerialExecutor
    from . import stream

    if gold == "-" and system == "-":
        raise MrkitError("only one of the two files can be standard input ('-')")
    config = config or AlignConfig()
    executor = executor or SerialExecutor()
    pairs = pair_in_order(read_documents(gold, input_format), read_documents(system, input_format),
                          gold, system)
    collector = Collector("docsmatch", prf_reduce, 3, certified=True, keep_records=keep_records)
    sums = {k: Subscore() for k in ("coref", "reentrancy", *(f"coref_parts.{p}" for p in COREF_PARTS))}
    bound = 0.0
    chains: dict = {}  # CoNLL-family counts of the chains (metrics.document.chains), summed
    alignments: list = []
    score = partial(_score_chunk, config, align_sentences=align_sentences)
    with executor:
        for pid, row, certified, record, pair_bound, counts in stream(score, pairs, executor, CHUNK):
            collector.add(pid, row, certified, record)
            if align_sentences:
                alignments.append(record.get("sentence_alignment"))
            bound += pair_bound
            for k, s in counts.items():
                if k.startswith("chains."):
                    chains[k[7:]] = chains[k[7:]] + s if k[7:] in chains else s
                else:
                    sums[k].add(s)
            if progress:
                progress(1)
    result = collector.result()
    matched, n_gold, n_system = result.column_sums()
    overall = Subscore(matched, int(n_gold), int(n_system))
    result.detail = {
        "overall": overall.to_dict(),
        "coref": sums["coref"].to_dict(),
        "coref_parts": {p: sums[f"coref_parts.{p}"].to_dict() for p in COREF_PARTS},
        "reentrancy": sums["reentrancy"].to_dict(),
        "f1_upper_bound": prf(bound, n_gold, n_system)[2],
        "chains": _chain_scores(chains),
    }
    if align_sentences:
        result.detail["sentence_alignment"] = alignments
    return result
