"""Scoring documents and corpora: every metric at once, micro- or macro-averaged.

Micro (the reference scorer's way, the default): sum each metric's numerators and
denominators over the documents, then divide.  Macro: the mean of the per-document
recall, precision and F1.  CoNLL-F1 is the mean F1 of MUC, B-cubed and CEAFe.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ...codecs._files import gc_paused
from .metrics import METRICS, BlancCounts, Counts
from ...model.clusters import Clusters, CorefDocument, pair_documents, prepare
from .overlap import Overlap

CONLL_METRICS = ("muc", "bcub", "ceafe")


def score_clusters(key: Clusters, response: Clusters, metrics: Iterable[str] = METRICS) -> dict[str, Counts | BlancCounts]:
    """Counts of every metric for one document's (prepared) clusters."""
    o = Overlap.of(key, response)
    return {m: METRICS[m](o) for m in metrics}


def check_choices(metrics: Iterable[str] | None, average: str) -> tuple[str, ...]:
    """The metric names asked for (default: all), checked, and the average checked."""
    names = tuple(metrics) if metrics else tuple(METRICS)
    unknown = [m for m in names if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; choose from {', '.join(METRICS)}")
    if average not in ("micro", "macro"):
        raise ValueError(f"average must be 'micro' or 'macro', not {average!r}")
    return names


@dataclass
class DocumentScore:
    """The counts of every metric on one document."""

    id: str
    counts: dict[str, Counts | BlancCounts]


@dataclass
class CorefResult:
    """Scores of a corpus: per-document counts and the averages of every metric."""

    documents: list[DocumentScore]
    metrics: tuple[str, ...]
    average: str = "micro"
    options: dict = field(default_factory=dict)

    def counts(self, metric: str) -> Counts | BlancCounts:
        """The metric's counts summed over the documents (in document order, from 0; kept
        once computed while the documents stay the same list of the same length)."""
        memo = self.__dict__.setdefault("_sums", {})
        key = (metric, id(self.documents), len(self.documents))
        if key in memo:
            return memo[key]
        docs = [d.counts[metric] for d in self.documents]
        if metric == "blanc":
            total = BlancCounts()
            for c in docs:
                total = total + c
        else:  # the fields summed as Counts.__add__ does, without an object per step
            r_num = r_den = p_num = p_den = 0.0
            for c in docs:
                r_num += c.r_num
                r_den += c.r_den
                p_num += c.p_num
                p_den += c.p_den
            total = Counts(r_num, r_den, p_num, p_den)
        memo[key] = total
        return total

    def prf(self, metric: str, average: str | None = None) -> tuple[float, float, float]:
        """Recall, precision, F1 of one metric (``conll``: F1 only, mean of MUC, B3, CEAFe)."""
        average = average or self.average
        if metric == "conll":
            f = sum(self.prf(m, average)[2] for m in CONLL_METRICS) / len(CONLL_METRICS)
            return float("nan"), float("nan"), f
        if average == "micro":
            c = self.counts(metric)
            return c.recall, c.precision, c.f1
        if average != "macro":
            raise ValueError(f"average must be 'micro' or 'macro', not {average!r}")
        docs = [d.counts[metric] for d in self.documents]
        if not docs:
            return 0.0, 0.0, 0.0
        n = len(docs)
        return (sum(c.recall for c in docs) / n, sum(c.precision for c in docs) / n,
                sum(c.f1 for c in docs) / n)

    @property
    def conll_f1(self) -> float:
        return self.prf("conll")[2]

    def undefined_parts(self, metric: str, average: str | None = None) -> tuple[str, ...]:
        """Which of recall, precision, F1 of ``metric`` rest on a 0/0 (reported with the
        reference scorer's value, 0): micro, those of the summed counts; macro, those of
        any document; ``conll``: its F1 when one of MUC, B-cubed, CEAFe has one."""
        average = average or self.average
        if metric == "conll":
            return ("f1",) if any(self.undefined_parts(m, average) for m in CONLL_METRICS) else ()
        if average == "micro":
            return self.counts(metric).undefined
        seen = {p for d in self.documents for p in d.counts[metric].undefined}
        return tuple(p for p in ("recall", "precision", "f1") if p in seen)

    @property
    def undefined(self) -> list[str]:
        """The metrics (and ``conll``) with a 0/0 part."""
        names = list(self.metrics)
        if all(m in self.metrics for m in CONLL_METRICS):
            names.append("conll")
        return [m for m in names if self.undefined_parts(m)]

    def table_rows(self) -> list[tuple[str, float, float, float]]:
        rows = [(m, *self.prf(m)) for m in self.metrics]
        if all(m in self.metrics for m in CONLL_METRICS):
            rows.append(("conll", *self.prf("conll")))
        return rows

    def table_marks(self) -> dict[str, set[int]]:
        """For :meth:`table_rows`: metric -> columns (0 recall, 1 precision, 2 F1) that are 0/0."""
        column = {"recall": 0, "precision": 1, "f1": 2}
        return {m: {column[p] for p in self.undefined_parts(m)} for m, *_ in self.table_rows()
                if self.undefined_parts(m)}

    def to_dict(self, per_document: bool = False) -> dict:
        out: dict = {"average": self.average, "options": self.options, "documents": len(self.documents),
                     "scores": {}}
        for m in self.metrics:
            r, p, f = self.prf(m)
            entry = {"recall": r, "precision": p, "f1": f}
            if self.undefined_parts(m):
                entry["undefined"] = list(self.undefined_parts(m))
            if self.average == "micro":
                entry["counts"] = {k: v for k, v in self.counts(m).to_dict().items()
                                   if k not in ("recall", "precision", "f1", "undefined")}
            out["scores"][m] = entry
        if all(m in self.metrics for m in CONLL_METRICS):
            out["scores"]["conll"] = {"f1": self.conll_f1}
            if self.undefined_parts("conll"):
                out["scores"]["conll"]["undefined"] = ["f1"]
        out["undefined"] = self.undefined
        if per_document:
            out["per_document"] = {d.id: {m: c.to_dict() for m, c in d.counts.items()} for d in self.documents}
        return out


def score_pair(key: CorefDocument, response: CorefDocument, metrics: Sequence[str] = tuple(METRICS),
               keep_singletons: bool = True, repeated: str = "first", remove_nested: bool = False,
               partial: tuple | None = None, np_only: bool = False, min_span: bool = False) -> DocumentScore:
    """Counts of every metric for one (key, response) pair of documents.  ``partial``:
    ``(weight, heads)`` gives partial credit for head matches
    (:mod:`mrkit.metrics.coref.partial`; ``heads`` as its ``mention_heads`` spec);
    ``np_only`` / ``min_span``: coval's NP-only and minimum-span evaluation from the key's
    parse column (:mod:`mrkit.metrics.coref.mina`; the key read with its columns)."""
    if np_only or min_span:
        from ...model.clusters import remove_nested_mentions
        from .mina import ParseTrees, apply_parse_options

        trees = ParseTrees(key)
        kc = apply_parse_options(prepare(key, keep_singletons, repeated), trees, np_only, min_span)
        rc = apply_parse_options(prepare(response, keep_singletons, repeated), trees, np_only, min_span)
        if remove_nested:
            kc = remove_nested_mentions(kc, keep_singletons)
            rc = remove_nested_mentions(rc, keep_singletons)
    else:
        kc = prepare(key, keep_singletons, repeated, remove_nested)
        rc = prepare(response, keep_singletons, repeated, remove_nested)
    if partial is None:
        return DocumentScore(key.id, score_clusters(kc, rc, metrics))
    from .partial import match_partial, mention_heads

    weight, heads = partial
    rc, part = match_partial(kc, rc, mention_heads(key, kc, heads))
    counts = score_clusters(kc, rc, metrics)
    if "mentions" in counts and part:
        c = counts["mentions"]
        credit = c.r_num - (1 - weight) * part
        counts["mentions"] = Counts(credit, c.r_den, credit, c.p_den)
    return DocumentScore(key.id, counts)


def score_documents(keys: Sequence[CorefDocument], responses: Sequence[CorefDocument], *,
                    keep_singletons: bool = True, repeated: str = "first", average: str = "micro",
                    metrics: Sequence[str] | None = None, response_file: str | None = None) -> CorefResult:
    """Score response documents against key documents (paired by id; ids must match).

    ``keep_singletons=False`` removes one-mention clusters from key and response
    separately; ``repeated`` is ``"first"`` (keep a repeated mention's first occurrence,
    the reference scorer's rule) or ``"error"``.
    """
    names = check_choices(metrics, average)
    docs = []
    with gc_paused():  # many small objects, none cyclic: collections would only cost time
        for k, r in pair_documents(keys, responses, response_file):
            docs.append(score_pair(k, r, names, keep_singletons, repeated))
    return CorefResult(docs, names, average, {"keep_singletons": keep_singletons, "repeated": repeated})
