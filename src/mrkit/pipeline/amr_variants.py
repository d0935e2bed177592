"""Sentence AMR beyond the classic Smatch: subscores, conventions, triple kinds, several golds.

Every function reads the files as graph pairs (:func:`mrkit.pipeline.amr.iter_amr_pairs`),
sends chunks of pairs through the caller's executor to a module-level worker, and
collects one summable row per pair in a :class:`~mrkit.aggregate.corpus.Collector`, so
``--bootstrap`` and ``--against`` work on each result.  The classic Smatch hot path
(:func:`mrkit.pipeline.amr.smatch_files`) is not touched: these run only when asked for.

* :func:`subscore_files` -- the eight subscores of amr-evaluation
  (:mod:`mrkit.metrics.amr.subscores`), 24 columns per pair.
* :func:`variant_smatch_files` -- Smatch under other conventions
  (:mod:`mrkit.features.conventions`) and/or over one kind of triple (smatch.py's
  ``--justinstance``, ``--justattribute``, ``--justrelation``).
* :func:`multiref_files` -- one system against several gold files of the same sentences.
"""

from __future__ import annotations

from ..errors import MrkitError
from . import CHUNK, chunked
from .amr import STDIN, iter_amr_pairs

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Callable, Sequence

if TYPE_CHECKING:
    from ..aggregate.corpus import CorpusResult
    from ..align import AlignConfig
    from ..features.conventions import Conventions

JUST = ("instance", "attribute", "relation")
"""The triple kinds of smatch.py's ``--justinstance`` / ``--justattribute`` / ``--justrelation``."""


def _config(config):
    if config is None:
        from ..align import AlignConfig

        return AlignConfig()
    return config


def _executor(executor):
    if executor is None:
        from ..runtime.executor import SerialExecutor

        return SerialExecutor()
    return executor


# ------------------------------------------------------------------ triples of one pair

def just_triples(t, just: str | None):
    """``t`` restricted to one kind of triple, as smatch.py 1.0.4 counts them:
    ``instance``: the instance triples; ``attribute``: the attribute triples and the TOP
    triple (smatch stores TOP as an attribute); ``relation``: the relation triples."""
    from ..features.triples import Triples

    if just is None:
        return t
    if just == "instance":
        return Triples(t.variables, list(t.instances))
    if just == "attribute":
        return Triples(t.variables, [], list(t.attributes), [], list(t.tops))
    if just == "relation":
        return Triples(t.variables, [], [], list(t.relations))
    raise ValueError(f"just {just!r}: one of {', '.join(JUST)}")


def variant_pair(k: int, g, s, config, conventions, just: str | None, record: bool) -> tuple:
    """(id, matched, gold, system, certified, record) of one pair under ``conventions``
    and ``just``."""
    from ..features.triples import triples
    from ..metrics.amr.subscores import aligned_counts

    ta = just_triples(conventions.triples(triples(conventions.graph(g), conventions.keep)), just)
    tb = just_triples(conventions.triples(triples(conventions.graph(s), conventions.keep)), just)
    m, ng, ns, ok = aligned_counts(ta, tb, config)
    rec = None
    if record:
        from ..aggregate.prf import prf

        p, r, f = prf(m, ng, ns)
        rec = {"index": k, "id": g.id, "matched": m, "gold": ng, "system": ns, "precision": p, "recall": r,
               "f1": f, "certified": ok}
    return g.id, m, ng, ns, ok, rec


# ------------------------------------------------------------------ workers

def _variant_chunk(task: tuple) -> list[tuple]:
    config, conventions, just, record, items = task
    return [variant_pair(k, g, s, config, conventions, just, record) for k, g, s in items]


def _subscore_chunk(task: tuple) -> list[tuple]:
    from ..metrics.amr.subscores import subscores_pair

    config, conventions, record, items = task
    out = []
    for k, g, s in items:
        p = subscores_pair(g, s, config, k, conventions)
        out.append((p.id, p.row(), p.certified, p.to_dict() if record else None))
    return out


def _items(gold: str, system: str, format: str | None):
    return ((k, g, s) for k, (g, s) in enumerate(iter_amr_pairs(gold, system, format)))


# ------------------------------------------------------------------ corpus functions

def subscore_files(gold: str, system: str, *, config: "AlignConfig | None" = None, executor=None,
                   format: str | None = None, keep_records: bool = False,
                   conventions: "Conventions | None" = None,
                   progress: Callable[[int], None] | None = None, chunk: int = CHUNK) -> "CorpusResult":
    """The eight subscores of two files, as a :class:`CorpusResult` of 24 columns per pair
    (metric ``smatch-subscores``; statistics ``<name>_precision/_recall/_f1``); its
    ``detail["subscores"]`` is the table (name -> counts, P/R/F1, kind, definition) and
    ``certified`` says per pair whether every alignment-based subscore is proven optimal."""
    from ..aggregate.corpus import Collector
    from ..features.conventions import Conventions
    from ..metrics.amr.subscores import CERTIFIED_NOTE, WIDTH, subscores_reduce, subscores_table

    conventions = conventions or Conventions()
    col = Collector("smatch-subscores", subscores_reduce, WIDTH, certified=True, keep_records=keep_records)
    tasks = ((_config(config), conventions, keep_records, c) for c in chunked(_items(gold, system, format), chunk))
    for results in _executor(executor).map(_subscore_chunk, tasks):
        for pid, row, ok, rec in results:
            col.add(pid, row, ok, rec)
        if progress is not None:
            progress(len(results))
    result = col.result()
    result.detail["subscores"] = subscores_table(result.table.sum(axis=0))
    result.detail["subscores_note"] = CERTIFIED_NOTE
    return result


def variant_smatch_files(gold: str, system: str, *, config: "AlignConfig | None" = None, executor=None,
                         format: str | None = None, keep_records: bool = False,
                         conventions: "Conventions | None" = None, just: str | None = None,
                         progress: Callable[[int], None] | None = None, chunk: int = CHUNK) -> "CorpusResult":
    """Smatch of two files under ``conventions`` and/or over one kind of triple
    (``just``): the same :class:`CorpusResult` shape as
    :func:`mrkit.pipeline.amr.smatch_files` (rows matched, gold, system; certification)."""
    from ..aggregate.corpus import Collector
    from ..aggregate.prf import prf
    from ..aggregate.resampling import prf_reduce
    from ..features.conventions import Conventions

    if just is not None and just not in JUST:
        raise MrkitError(f"just {just!r}: one of {', '.join(JUST)}")
    conventions = conventions or Conventions()
    col = Collector("smatch", prf_reduce, 3, certified=True, keep_records=keep_records)
    tasks = ((_config(config), conventions, just, keep_records, c)
             for c in chunked(_items(gold, system, format), chunk))
    for results in _executor(executor).map(_variant_chunk, tasks):
        for pid, m, ng, ns, ok, rec in results:
            col.add(pid, (m, ng, ns), ok, rec)
        if progress is not None:
            progress(len(results))
    result = col.result()
    sums = result.table.sum(axis=0)
    matched, n_gold, n_system = float(sums[0]), int(sums[1]), int(sums[2])
    # uncertified pairs would need their bounds; these paths report the certified share only
    result.detail.update(matched=matched, gold_triples=n_gold, system_triples=n_system,
                         f1_upper_bound=prf(matched, n_gold, n_system)[2] if result.n_certified == result.pairs else None,
                         conventions=conventions.to_dict())
    if just is not None:
        result.detail["just"] = just
    return result


def multiref_files(golds: Sequence[str], system: str, *, mode: str = "best", config: "AlignConfig | None" = None,
                   executor=None, format: str | None = None, keep_records: bool = False,
                   conventions: "Conventions | None" = None, just: str | None = None) -> "CorpusResult":
    """Multi-reference Smatch: ``system`` against each of ``golds`` (the same sentences, in
    the same order); per sentence the ``best`` reference (highest F1; ties: the first
    gold file) or the ``mean`` of the counts over the references.  Micro scores sum the
    chosen (or averaged) counts; macro is the mean of the sentence F1.  Each record
    names the chosen reference (``reference``, 0-based) and every reference's F1."""
    from ..aggregate.corpus import Collector
    from ..aggregate.prf import prf
    from ..aggregate.resampling import prf_reduce

    if mode not in ("best", "mean"):
        raise MrkitError(f"multi-reference mode {mode!r}: best or mean")
    if len(golds) < 1:
        raise MrkitError("give at least one gold file")
    if STDIN in golds or (system == STDIN and len(golds) > 1):
        raise MrkitError("several gold files read the system file once per gold file: give files, not '-'")
    per_gold = [variant_smatch_files(g, system, config=config, executor=executor, format=format,
                                     keep_records=True, conventions=conventions, just=just) for g in golds]
    n = per_gold[0].pairs
    for path, res in zip(golds, per_gold):
        if res.pairs != n:  # the pipeline already checked each gold against the system
            raise MrkitError(f"{path} holds {res.pairs} graphs, {golds[0]} holds {n}")
    col = Collector("smatch-multiref", prf_reduce, 3, certified=True, keep_records=keep_records)
    for i in range(n):
        rows = [res.table[i] for res in per_gold]
        f1s = [prf(*row)[2] for row in rows]
        certified = all(bool(res.certified[i]) for res in per_gold)
        if mode == "best":
            best = max(range(len(rows)), key=lambda j: (f1s[j], -j))
            row = tuple(float(x) for x in rows[best])
        else:
            best = None
            row = tuple(float(sum(r[c] for r in rows)) / len(rows) for c in range(3))
        rec = None
        if keep_records:
            p, r, f = prf(*row)
            rec = {"index": i, "id": per_gold[0].ids[i], "matched": row[0], "gold": row[1], "system": row[2],
                   "precision": p, "recall": r, "f1": f, "certified": certified, "reference": best,
                   "reference_f1": f1s}
        col.add(per_gold[0].ids[i], row, certified, rec)
    result = col.result()
    result.detail.update(references=list(golds), mode=mode,
                         per_reference=[{"gold": g, **res.summary()} for g, res in zip(golds, per_gold)])
    return result


# ------------------------------------------------------------------ documents

def _document_subscore_chunk(task: tuple) -> list[tuple]:
    from ..features.triples import triples
    from ..metrics.amr.subscores import subscores_pair
    from ..metrics.document.docsmatch import candidate_matrix

    config, record, items = task
    out = []
    for k, g, s in items:
        allowed = candidate_matrix(g, s, triples(g), triples(s))
        p = subscores_pair(g, s, config, k, None, allowed)
        out.append((p.id, p.row(), p.certified, p.to_dict() if record else None))
    return out


def document_subscore_files(gold: str, system: str, *, config: "AlignConfig | None" = None, executor=None,
                            input_format: str | None = None, keep_records: bool = False) -> "CorpusResult":
    """The eight subscores of two files of document graphs (``mrkit docsmatch
    --subscores``), each alignment under document Smatch's sentence constraint
    (:func:`mrkit.metrics.document.docsmatch.candidate_matrix`): the same definitions and
    result shape as :func:`subscore_files`.  Its Reentrancies is the score DocAMR's Table 2
    reports as "Reent" (Damonte et al.'s definition, its own alignment of the reentrant
    subset)."""
    from ..aggregate.corpus import Collector
    from ..metrics.amr.subscores import CERTIFIED_NOTE, WIDTH, subscores_reduce, subscores_table
    from .document import pair_in_order, read_documents

    pairs = pair_in_order(read_documents(gold, input_format), read_documents(system, input_format), gold, system)
    col = Collector("docsmatch-subscores", subscores_reduce, WIDTH, certified=True, keep_records=keep_records)
    tasks = ((_config(config), keep_records, [item]) for item in pairs)  # one document per task
    for results in _executor(executor).map(_document_subscore_chunk, tasks):
        for pid, row, ok, rec in results:
            col.add(pid, row, ok, rec)
    result = col.result()
    result.detail["subscores"] = subscores_table(result.table.sum(axis=0))
    result.detail["subscores_note"] = CERTIFIED_NOTE
    return result
