"""Coreference and SciCo hierarchy: read -> pair -> score (executor) -> corpus result.

- Reading goes through the coreference rows of the codec registry
  (:data:`mrkit.codecs.registry.COREF_CODECS`): column files (``conll``), jsonlines
  clusters (``jsonl``), SciCo topics (``scico``; as documents for ``mrkit coref``), MS-AMR
  chains (``msamr`` XML or ``chains`` JSON, over AMR files); the format is guessed from
  the suffix and the first bytes, or named; ``-`` reads standard input.
- Documents are paired by id (topics too; MS-AMR documents by position), and pairs go in
  chunks through the caller's executor (:mod:`mrkit.runtime.executor`) to the metrics of
  :mod:`mrkit.metrics.coref`, which receive objects only.
- :func:`coref_corpus` / :func:`hierarchy_corpus` give the
  :class:`~mrkit.aggregate.corpus.CorpusResult` every command reports: for coreference
  one row of 12 summable numbers per document (recall and precision numerators and
  denominators of MUC, B-cubed, CEAFe) and :func:`conll_reduce`, whose ``f1`` is CoNLL-F1;
  for the hierarchy the four counts of the hierarchy score per topic.
"""

from __future__ import annotations

import os
import sys
import warnings
from functools import partial
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import InputError
from . import HeldWarnings, stream

if TYPE_CHECKING:  # numpy and the metrics load when a command scores
    import numpy as np

    from ..aggregate.corpus import CorpusResult
    from ..metrics.coref.hierarchy import HierarchyResult, TopicScore
    from ..metrics.coref.score import CorefResult, DocumentScore
    from ..model.clusters import CorefDocument

DOCUMENT_FORMATS = ("conll", "jsonl", "scorch", "scico")
"""Formats ``mrkit coref`` reads documents from (``auto``: guessed)."""

CONLL_METRICS = ("muc", "bcub", "ceafe")
CONLL_COLUMNS = tuple(f"{m}_{k}" for m in CONLL_METRICS for k in ("r_num", "r_den", "p_num", "p_den"))
"""The summable row of a document: what CoNLL-F1 is computed from."""


# ------------------------------------------------------------------ reading

class _Source:
    """A path, or standard input (``-``) spooled once to a temporary file so that it can
    be sniffed and read; errors and documents name ``-``."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.name = os.fspath(path)
        self.path = self.name
        self._tmp: str | None = None

    def __enter__(self) -> "_Source":
        if self.name == "-":
            import tempfile

            data = sys.stdin.buffer.read()
            fd, self._tmp = tempfile.mkstemp(prefix="mrkit-stdin-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            self.path = self._tmp
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._tmp is not None:
            os.unlink(self._tmp)
            if isinstance(exc, InputError) and exc.file == self._tmp:
                raise InputError(exc.detail, "-", exc.line, exc.graph, exc.unit) from None

    def head(self, size: int = 65536) -> str | None:
        try:
            with open(self.path, "rb") as fh:
                return fh.read(size).decode("utf-8", errors="replace")
        except OSError:
            return None  # the reader says why

    def rename(self, items: list) -> list:
        if self._tmp is not None:
            for item in items:
                if getattr(item, "source_file", None) == self._tmp:
                    item.source_file = "-"
        return items


def _format_name(fmt: str | None) -> str:
    from ..codecs.registry import COREF_ALIASES

    fmt = (fmt or "auto").lower()
    return COREF_ALIASES.get(fmt, fmt)


def check_stdin(*paths: str | None) -> None:
    """Standard input can be read once: ``-`` for one file at most."""
    if sum(p == "-" for p in paths if p is not None) > 1:
        from ..errors import MrkitError

        raise MrkitError("standard input ('-') can be read only once: give '-' for one file at most")


def read_documents(path: str | os.PathLike, fmt: str | None = "auto", unclosed: str = "error",
                   tokens: bool = False, entity_ids: bool = False) -> list["CorefDocument"]:
    """Documents of a column file, a jsonlines file, a SciCo file or scorch JSON (a file
    or a directory) (``fmt``: auto, conll, jsonl/jsonlines, scico, scorch; auto guesses
    from suffix and content, a directory is scorch's, else conll); ``-`` is standard
    input.  ``tokens``: keep every token's columns (column files only; for heads and
    parse trees); ``entity_ids``: keep the entity identifiers (column files only)."""
    from ..codecs.registry import COREF_CODECS, guess_coref_format

    fmt = _format_name(fmt)
    if fmt != "auto" and fmt not in DOCUMENT_FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    with _Source(path) as src:
        if fmt == "auto":
            fmt = "scorch" if os.path.isdir(src.path) else (
                guess_coref_format(src.name, src.head(), DOCUMENT_FORMATS) or "conll")
        if (tokens or entity_ids) and fmt != "conll":
            what = "token columns (heads, parse trees)" if tokens else "entity identifiers shared by documents"
            raise InputError(f"is read as {fmt}: {what} need a column file", src.name)
        with HeldWarnings() as held:  # a file that fails gives one line
            items = COREF_CODECS[fmt].read(src.path, *((unclosed, tokens, entity_ids) if fmt == "conll" else ()))
        held.show()
        if fmt == "scico":
            items = [t.document() for t in items]
        return src.rename(items)


def read_topics(path: str | os.PathLike, warn=None) -> list:
    """SciCo topics; the reader's warnings go to ``warn`` (once each, in order), or stay
    warnings when ``warn`` is None.  ``-`` is standard input."""
    from ..codecs.registry import COREF_CODECS

    with _Source(path) as src:
        if warn is None:
            return src.rename(COREF_CODECS["scico"].read(src.path))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            topics = src.rename(COREF_CODECS["scico"].read(src.path))
        for message in dict.fromkeys(str(w.message) for w in caught):
            warn(message.replace(src.path, "-") if src._tmp else message)
        return topics


def read_chain_documents(chains: str, amr: str) -> list:
    """Documents of an MS-AMR XML file or a chain JSON file over an AMR file (format from
    the suffix, then the content: ``<`` is XML)."""
    from ..codecs.registry import COREF_CODECS, guess_coref_format

    with _Source(chains) as src:
        fmt = guess_coref_format(src.name, src.head(), ("msamr", "chains")) or "chains"
        if fmt == "msamr":
            return src.rename(COREF_CODECS["msamr"].read(src.path, amr))
        from ..codecs.penman import read_penman

        return src.rename([COREF_CODECS["chains"].read(src.path, read_penman(amr))])


# ------------------------------------------------------------------ scoring

def _check(metrics: Sequence[str] | None, average: str) -> tuple[str, ...]:
    from ..metrics.coref.score import check_choices

    return check_choices(metrics, average)


def _score_chunk(pairs: list, names: tuple[str, ...], keep_singletons: bool, repeated: str,
                 remove_nested: bool = False, partial: tuple | None = None, np_only: bool = False,
                 min_span: bool = False) -> list:
    """(document score, CoNLL row) of every (key, response) pair of a chunk."""
    from ..metrics.coref.score import score_pair

    wanted = names + tuple(m for m in CONLL_METRICS if m not in names)
    out = []
    for k, r in pairs:
        d = score_pair(k, r, wanted, keep_singletons, repeated, remove_nested, partial, np_only, min_span)
        row = [x for m in CONLL_METRICS
               for x in (d.counts[m].r_num, d.counts[m].r_den, d.counts[m].p_num, d.counts[m].p_den)]
        d.counts = {m: d.counts[m] for m in names}
        out.append((d, row))
    return out


def _serial():
    from ..runtime.executor import SerialExecutor

    return SerialExecutor()


def score_pairs(pairs: Sequence[tuple], executor=None, *, keep_singletons: bool = True, repeated: str = "first",
                average: str = "micro", metrics: Sequence[str] | None = None, remove_nested: bool = False,
                partial_heads: tuple | None = None, np_only: bool = False, min_span: bool = False
                ) -> tuple["CorefResult", list[list[float]]]:
    """Score paired (key, response) documents through ``executor`` (default: serial):
    the :class:`~mrkit.metrics.coref.score.CorefResult` and every document's CoNLL row.
    ``partial_heads``: ``(weight, heads spec)``, partial credit for head matches;
    ``np_only`` / ``min_span``: coval's options (the keys read with their columns)."""
    from ..metrics.coref.score import CorefResult

    names = _check(metrics, average)
    fn = partial(_score_chunk, names=names, keep_singletons=keep_singletons, repeated=repeated,
                 remove_nested=remove_nested, partial=partial_heads, np_only=np_only, min_span=min_span)
    docs, rows = [], []
    for d, row in stream(fn, pairs, executor if executor is not None else _serial()):
        docs.append(d)
        rows.append(row)
    options = {"keep_singletons": keep_singletons, "repeated": repeated}
    if remove_nested:
        options["remove_nested"] = True
    if np_only:
        options["np_only"] = True
    if min_span:
        options["min_span"] = True
    if partial_heads is not None:
        options["partial_heads"] = {"weight": partial_heads[0], "heads": list(partial_heads[1])}
    return (CorefResult(docs, names, average, options), rows)


def score_documents(keys: Sequence["CorefDocument"], responses: Sequence["CorefDocument"], executor=None, *,
                    response_file: str | None = None, **options) -> "CorefResult":
    """Score response documents against key documents, paired by id, through
    ``executor``; options as :func:`mrkit.metrics.coref.score.score_documents`."""
    return score_documents_rows(keys, responses, executor, response_file=response_file, **options)[0]


def score_documents_rows(keys, responses, executor=None, *, response_file: str | None = None, **options):
    from ..model.clusters import pair_documents

    _check(options.get("metrics"), options.get("average", "micro"))
    return score_pairs(pair_documents(keys, responses, response_file), executor, **options)


def score_files(key: str | os.PathLike, response: str | os.PathLike, fmt: str = "auto", executor=None,
                **options) -> "CorefResult":
    """Score a response file against a key file; options as :func:`score_documents`."""
    return score_documents(read_documents(key, fmt), read_documents(response, fmt), executor,
                           response_file=os.fspath(response), **options)


def _variable_chunk(pairs: list, align: bool, implicit: bool) -> list:
    from ..metrics.coref.amr import variable_documents

    return [variable_documents(g, s, align=align, implicit=implicit) for g, s in pairs]


def chain_pairs(gold_chains: str, gold_amr: str, system_chains: str, system_amr: str, executor=None, *,
                align: bool = True, implicit: bool = True) -> list[tuple]:
    """(key, response) documents over (aligned) AMR variables, documents paired by position;
    the sentence alignments run through ``executor``."""
    golds = read_chain_documents(gold_chains, gold_amr)
    systems = read_chain_documents(system_chains, system_amr)
    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} documents, system {len(systems)}", system_chains)
    fn = partial(_variable_chunk, align=align, implicit=implicit)
    return list(stream(fn, list(zip(golds, systems)), executor if executor is not None else _serial(), size=1))


def score_chain_files(gold_chains: str, gold_amr: str, system_chains: str, system_amr: str, executor=None, *,
                      align: bool = True, implicit: bool = True, **options) -> "CorefResult":
    """Coreference over AMR variables from files; documents paired by position."""
    pairs = chain_pairs(gold_chains, gold_amr, system_chains, system_amr, executor, align=align, implicit=implicit)
    return score_pairs(pairs, executor, **options)[0]


# ------------------------------------------------------------------ corpus results

def conll_reduce(sums: "np.ndarray") -> dict[str, "np.ndarray"]:
    """The 12 columns of :data:`CONLL_COLUMNS` -> ``f1``: CoNLL-F1, the mean F1 of MUC,
    B-cubed and CEAFe (each from its summed counts, 0/0 = 0 as the reference scorer).
    No precision or recall: CoNLL-F1 is not the F of a precision and a recall."""
    import numpy as np

    from ..aggregate.resampling import recall_precision_reduce

    sums = np.asarray(sums, dtype=np.float64)
    f = sum(recall_precision_reduce(sums[..., 4 * i:4 * i + 4])["f1"] for i in range(3))
    return {"f1": f / 3}


def coref_corpus(coref: "CorefResult", rows: Sequence[Sequence[float]], keep_records: bool = False,
                 per_document: bool = False, metric: str = "coref") -> "CorpusResult":
    """The corpus result of ``mrkit coref``: headline CoNLL-F1 (micro, or the mean of the
    documents' CoNLL-F1 with ``coref.average == "macro"``); the coreference tables of
    ``coref.to_dict`` are its detail; records (``keep_records``) give every document's
    recall, precision, F1 and counts of every metric."""
    from ..aggregate.corpus import Collector

    col = Collector(metric, conll_reduce, len(CONLL_COLUMNS), keep_records=keep_records, average=coref.average)
    for d, row in zip(coref.documents, rows):
        record = None
        if keep_records:
            record = {"id": d.id}
            for m, c in d.counts.items():
                record.update({f"{m}_{k}": v for k, v in c.to_dict().items() if not isinstance(v, list)})
            record.update(zip(CONLL_COLUMNS, row))
        col.add(d.id, row, record=record)
    return col.result(coref.to_dict(per_document=per_document))


def score_coref(key: str, response: str, executor=None, *, fmt: str = "auto", keep_records: bool = False,
                per_document: bool = False, empty_key_error: bool = True, keys: list | None = None,
                unclosed: str = "error", topics: str | None = None, **options
                ) -> tuple["CorefResult", "CorpusResult"]:
    """``mrkit coref KEY RESPONSE``: read, pair by id, score through ``executor``
    (``keys``: the key's documents when already read, e.g. for a second response;
    ``topics``: a topic pattern, see :func:`score_topic_breakdown`)."""
    if keys is None:
        keys = read_documents(key, fmt, unclosed, entity_ids=bool(topics))
    if empty_key_error and not keys:  # nothing to score is not a perfect score
        raise InputError("holds no document: nothing to score", key)
    responses = read_documents(response, fmt, unclosed, entity_ids=bool(topics))
    if topics:
        return score_topic_breakdown(keys, responses, topics, executor, response_file=os.fspath(response),
                                     keep_records=keep_records, per_document=per_document, **options)
    coref, rows = score_documents_rows(keys, responses, executor,
                                       response_file=os.fspath(response), **options)
    return coref, coref_corpus(coref, rows, keep_records, per_document)


def score_topic_breakdown(keys, responses, topics: str, executor=None, *, response_file: str | None = None,
                          keep_records: bool = False, per_document: bool = False, **options
                          ) -> tuple["CorefResult", "CorpusResult"]:
    """Documents grouped into topics (:mod:`mrkit.metrics.coref.topics`; ``topics``: the
    regular expression whose first group, or match, in a document id is its topic): the
    cross-document scores (one document per topic) are the result, the within-document
    scores (every document alone) its ``within_document`` detail."""
    import re

    from ..errors import MrkitError
    from ..metrics.coref.topics import topic_pairs
    from ..model.clusters import pair_documents

    try:
        pattern = re.compile(topics)
    except re.error as exc:
        raise MrkitError(f"--topics: not a regular expression ({exc})") from None
    _check(options.get("metrics"), options.get("average", "micro"))
    pairs = pair_documents(keys, responses, response_file)
    within, _ = score_pairs(pairs, executor, **options)
    cross, rows = score_pairs(topic_pairs(pairs, pattern), executor, **options)
    result = coref_corpus(cross, rows, keep_records, per_document)
    result.detail["topics"] = {"pattern": topics, "topics": len(cross.documents), "documents": len(pairs)}
    result.detail["within_document"] = within.to_dict()["scores"]
    return cross, result


def score_coref_amr(key: str, gold_amr: str, response: str, system_amr: str, executor=None, *,
                    align: bool = True, keep_records: bool = False, per_document: bool = False, **options
                    ) -> tuple["CorefResult", "CorpusResult"]:
    """``mrkit coref --amr``: chains over AMR variables."""
    pairs = chain_pairs(key, gold_amr, response, system_amr, executor, align=align)
    coref, rows = score_pairs(pairs, executor, **options)
    return coref, coref_corpus(coref, rows, keep_records, per_document)


# ------------------------------------------------------------------ hierarchy

def _topic_chunk(pairs: list) -> list:
    from ..metrics.coref.hierarchy import score_topic

    return [score_topic(g, s) for g, s in pairs]


def score_topics(gold: Sequence, system: Sequence, executor=None, *, keep_singletons: bool = False,
                 repeated: str = "first", system_file: str | None = None) -> "HierarchyResult":
    """SciCo scores of system topics against gold topics (paired by id), topics and their
    coreference documents scored through ``executor``."""
    return _score_topics(gold, system, executor, keep_singletons=keep_singletons, repeated=repeated,
                         system_file=system_file)


def _score_topics(gold, system, executor, *, keep_singletons: bool = False, repeated: str = "first",
                  system_file: str | None = None, extras: Sequence[str] = (), pair_scores: dict | None = None,
                  pair_scores_file: str | None = None):
    from ..metrics.coref.hierarchy import HierarchyResult, pair_topics

    executor = executor if executor is not None else _serial()
    pairs = pair_topics(gold, system, system_file)
    scores = list(stream(_topic_chunk, pairs, executor, size=8))
    coref, _ = score_pairs([(g.document(), s.document()) for g, s in pairs], executor,
                           keep_singletons=keep_singletons, repeated=repeated)
    options = {"keep_singletons": keep_singletons, "repeated": repeated}
    return HierarchyResult(scores, coref, options,
                           extra_scores(pairs, extras, executor, pair_scores, pair_scores_file,
                                        keep_singletons=keep_singletons, repeated=repeated))


EXTRA_SCORES = ("auroc", "common_ancestor", "components", "within_document")
"""SciCo's further scores (``mrkit hierarchy --auroc/--common-ancestor/--components``)."""


def extra_scores(pairs: Sequence[tuple], extras: Sequence[str], executor=None, pair_scores: dict | None = None,
                 pair_scores_file: str | None = None, **coref_options) -> dict:
    """The further scores of paired topics: ``auroc`` (one-hot classes of the system's
    structure, as SciCo's code), ``auroc_scores`` (from a pair scorer's probabilities,
    when ``pair_scores`` is given), ``common_ancestor``, ``components`` (coreference on
    the connected components of the hierarchy), ``within_document`` (coreference of each
    document of a topic alone: the within-document part of the cross-document score)."""
    out: dict = {}
    for name in extras:
        if name not in EXTRA_SCORES:
            raise ValueError(f"unknown score {name!r} (choose from {', '.join(EXTRA_SCORES)})")
    if "auroc" in extras:
        from ..metrics.coref.auroc import structure_auroc

        out["auroc"] = structure_auroc(pairs).to_dict()
    if pair_scores is not None:
        from ..metrics.coref.auroc import scores_auroc

        check_pair_scores(pairs, pair_scores, pair_scores_file, need=("none", "coref", "parent", "child"))
        out["auroc_scores"] = scores_auroc(pairs, pair_scores).to_dict()
    if "common_ancestor" in extras:
        from ..metrics.coref.ancestor import common_ancestor

        out["common_ancestor"] = common_ancestor(pairs).to_dict()
    if "components" in extras:
        from ..metrics.coref.components import component_topic

        coref, _ = score_pairs([(component_topic(g).document(), component_topic(s).document()) for g, s in pairs],
                               executor, **coref_options)
        out["components"] = coref.to_dict()["scores"]
    if "within_document" in extras:
        from ..metrics.coref.components import split_by_document

        docs = [p for g, s in pairs for p in split_by_document(g, s)]
        coref, _ = score_pairs(docs, executor, **coref_options)
        out["within_document"] = {"documents": len(docs), **coref.to_dict()["scores"]}
    return out


def check_pair_scores(pairs: Sequence[tuple], table: dict, file: str | None, need: Sequence[str] = ()) -> None:
    """Every scored pair names mentions of its topic, and the ``need`` columns are there."""
    from ..metrics.coref.pairs import mention_list

    known = {g.id: len(mention_list(g)) for g, _ in pairs}
    for tid, scored in table.items():
        n = known.get(tid)
        if n is None:
            continue  # a topic not scored (another subset)
        for (i, j), values in scored.items():
            if i >= n or j >= n:
                raise InputError(f"pair ({i}, {j}) names a mention the topic does not have ({n} mentions)",
                                 file, None, tid, unit="topic")
            missing = [c for c in need if c not in values]
            if missing:
                raise InputError(f"no {', '.join(missing)} column (needed here)", file)


def select_topics(topics: Sequence, subset: str | None, file: str | None = None) -> list:
    """The topics of a SciCo subset, as SciCo's ``evaluate.py GOLD SYSTEM FIELD``:
    ``FIELD`` keeps the topics whose field is true (``hard_10``, ``hard_20``),
    ``FIELD=VALUE`` those whose field, written as text, is VALUE (``source=curated``).
    No topic left is an error."""
    if not subset:
        return list(topics)
    field_, sep, value = subset.partition("=")
    if sep:
        kept = [t for t in topics if field_ in t.fields and str(t.fields[field_]) == value]
    else:
        kept = [t for t in topics if t.fields.get(field_) is True]
    if not kept:
        raise InputError(f"no topic is in the subset {subset!r} (field {field_!r}"
                         f"{' = ' + repr(value) if sep else ' true'})", file)
    return kept


def hierarchy_corpus(result: "HierarchyResult", keep_records: bool = False,
                     per_topic: bool = False) -> "CorpusResult":
    """The corpus result of ``mrkit hierarchy``: headline the hierarchy F1 (micro), with
    its recall and precision; one row of (r_num, r_den, p_num, p_den) per topic; today's
    report as detail."""
    from ..aggregate.corpus import Collector
    from ..aggregate.resampling import recall_precision_reduce

    col = Collector("hierarchy", recall_precision_reduce, 4, keep_records=keep_records)
    for t in result.topics:
        c = t.hierarchy
        record = None
        if keep_records:
            record: dict[str, Any] = {"id": t.id}
            for name in ("hierarchy", "hierarchy50"):
                record.update({f"{name}_{k}": v for k, v in getattr(t, name).to_dict().items()
                               if not isinstance(v, list)})
            record["path_ratio_num"], record["path_ratio_den"] = t.path
            record["path_ratio_with_tn_num"], record["path_ratio_with_tn_den"] = t.path_tn
        col.add(t.id, (c.r_num, c.r_den, c.p_num, c.p_den), record=record)
    return col.result(result.to_dict(per_topic=per_topic))


def score_hierarchy(gold: str, system: str, executor=None, *, warn=None, keep_records: bool = False,
                    per_topic: bool = False, gold_topics: list | None = None, subset: str | None = None,
                    extras: Sequence[str] = (), pair_scores: str | None = None,
                    **options) -> tuple["HierarchyResult", "CorpusResult"]:
    """``mrkit hierarchy GOLD SYSTEM``: read, pair topics by id, score through ``executor``
    (``gold_topics``: the gold file's topics when already read)."""
    g = read_topics(gold, warn) if gold_topics is None else gold_topics
    s = read_topics(system, warn)
    if not g:  # nothing to score is not a perfect score
        raise InputError("holds no topic: nothing to score", gold)
    if subset:  # SciCo: gold topics of the subset, the system's topics of those ids
        g = select_topics(g, subset, os.fspath(gold))
        ids = {t.id for t in g}
        s = [t for t in s if t.id in ids]
    table = None
    if pair_scores is not None:
        from ..codecs.pair_scores import read_pair_scores

        table = read_pair_scores(pair_scores)
    result = _score_topics(g, s, executor, system_file=os.fspath(system), extras=extras, pair_scores=table,
                           pair_scores_file=os.fspath(pair_scores) if pair_scores is not None else None,
                           **options)
    return result, hierarchy_corpus(result, keep_records, per_topic)


def _bridging_chunk(pairs: list, align: bool, kinds: tuple) -> list:
    from ..metrics.coref.bridging import bridging_topics

    return [bridging_topics(g, s, align=align, kinds=kinds) for g, s in pairs]


def score_bridging(gold_chains: str, gold_amr: str, system_chains: str, system_amr: str, executor=None, *,
                   align: bool = True, kinds: Sequence[str] = ("set-member", "part-whole"),
                   keep_records: bool = False, per_topic: bool = False, **options
                   ) -> tuple["HierarchyResult", "CorpusResult"]:
    """``mrkit hierarchy --amr``: MS-AMR bridging relations (set-member, part-whole)
    between chains scored with SciCo's hierarchy metrics, documents paired by position,
    the sentence alignments run through ``executor``."""
    golds = read_chain_documents(gold_chains, gold_amr)
    systems = read_chain_documents(system_chains, system_amr)
    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} documents, system {len(systems)}", system_chains)
    if not golds:
        raise InputError("holds no document: nothing to score", gold_chains)
    fn = partial(_bridging_chunk, align=align, kinds=tuple(kinds))
    executor = executor if executor is not None else _serial()
    pairs = list(stream(fn, list(zip(golds, systems)), executor, size=1))
    result = _score_topics([g for g, _ in pairs], [s for _, s in pairs], executor, system_file=system_chains,
                           **options)
    return result, hierarchy_corpus(result, keep_records, per_topic)


__all__ = [
    "CONLL_COLUMNS", "DOCUMENT_FORMATS", "chain_pairs", "conll_reduce", "coref_corpus", "hierarchy_corpus",
    "read_chain_documents", "read_documents", "read_topics", "score_chain_files", "score_coref",
    "score_bridging", "score_coref_amr", "score_documents", "score_files", "score_hierarchy", "score_pairs",
    "score_topic_breakdown",
    "score_topics",
]
