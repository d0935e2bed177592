"""SemBLEU (Song & Gildea 2019): BLEU over graph n-grams.

The n-grams of a graph (on the labelled view of :mod:`mrkit.features.labelled`, so
inverted roles are un-inverted properly and attribute values are nodes):

* n = 1: every node label;
* n = 2: ``label :role label`` for every edge;
* n = 3: ``label :role label :role label`` for every path of two distinct edges.

The score is BLEU with clipped n-gram precision up to ``k`` (default 3), weights
``1/k`` each (they sum to 1), the brevity penalty over graph sizes (nodes + edges, as the
reference counts them), NIST geometric smoothing (Chen & Cherry's method 3) and
re-weighting to uniform ``1/m`` when no system graph has an n-gram longer than ``m``
(``auto_reweigh``).  ``sembleu_corpus`` sums the counts over the corpus (corpus BLEU);
each pair's sentence score is the same formula on that pair alone.

Differences from the reference (freesunshine0316/sembleu): its weights are
(0.34, 0.33, 0.34), which sum to 1.01 (pass ``weights=`` to reproduce them); it deletes
the string "-of" from every role and reverses the edge, which turns ``:consist-of``
into a reversed ``:consist``; it only collects n-grams from nodes reachable from a
parentless node, mrkit from every node.
"""

from __future__ import annotations

import math

from ...features.triples import Triples
from ...model.record import Record
from ..registry import pair_rows, register
from ..result import MetricScores, column_scores, metric_scores

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from collections import Counter
    from typing import Sequence

    from ...features.labelled import LabelledGraph
    from ...model.graph import Graph  # annotations only: the coded path builds no Graph

REFERENCE_WEIGHTS = (0.34, 0.33, 0.34)
"""The weights of the reference eval.py (they sum to 1.01)."""


class NgramStats(Record):
    """The n-grams of one graph per order (``ngrams``: order -> Counter), and its length
    (``length``: nodes + edges).  A :class:`~mrkit.model.record.Record`, not a dataclass:
    the coded path of ``score -m sembleu`` then loads no ``dataclasses`` (nor ``re``)."""

    _fields = ("ngrams", "length")

    def __init__(self, ngrams: dict[int, Counter], length: int) -> None:
        self.ngrams = ngrams
        self.length = length


def reachable_from_roots(lg: LabelledGraph) -> list[int]:
    """The nodes the reference collects n-grams from, in its breadth-first order: from
    every node without a parent (after its "-of" reversal; none: the top), following
    edges forward."""
    from collections import deque

    out = lg.out_edges()
    has_parent = [False] * len(lg.labels)
    for _, _, t in lg.edges:
        has_parent[t] = True
    roots = [v for v in range(len(lg.labels)) if not has_parent[v]]
    if not roots and lg.labels:
        roots = [lg.tops[0] if lg.tops else 0]
    seen = set(roots)
    order = []
    queue = deque(roots)
    while queue:
        v = queue.popleft()
        order.append(v)
        for _, t in out[v]:
            if t not in seen:
                seen.add(t)
                queue.append(t)
    return order


def reference_view(graph: Graph) -> LabelledGraph:
    """The labelled view as the reference reads a graph: every role ending in "-of" is an
    inversion (``:consist-of`` too; the reference deletes the string "-of" and reverses
    the edge)."""
    from ...features.labelled import labelled_graph

    return labelled_graph(graph, frozenset())


def graph_ngrams(lg: LabelledGraph, k: int = 3, reference: bool = False) -> NgramStats:
    """n-grams of a graph up to ``k``; ``reference``: only from the nodes reachable from
    the parentless nodes (:func:`reachable_from_roots`), as the reference does."""
    from collections import Counter

    if k > 3:
        raise ValueError("SemBLEU n-grams are defined up to n = 3")
    labels = lg.labels
    out = lg.out_edges()
    starts = reachable_from_roots(lg) if reference else range(len(labels))
    grams: dict[int, Counter] = {n: Counter() for n in range(1, k + 1)}
    if k >= 1:
        grams[1] = Counter([(labels[v],) for v in starts])
    if k >= 2:
        two = []
        three = []
        for v in starts:
            label = labels[v]
            for r1, m in out[v]:
                role1, mid = ":" + r1, labels[m]
                two.append((label, role1, mid))
                if k < 3:
                    continue
                for r2, t in out[m]:
                    if m == v and r2 == r1 and t == m:
                        continue  # the same self-loop twice
                    three.append((label, role1, mid, ":" + r2, labels[t]))
        grams[2] = Counter(two)
        if k >= 3:
            grams[3] = Counter(three)
    return NgramStats(grams, len(lg.labels) + len(lg.edges))


def _bleu(stats: Sequence[tuple[NgramStats, NgramStats]], weights: Sequence[float]) -> float:
    """BLEU of (reference, hypothesis) n-gram statistics, summed over the pairs."""
    from collections import Counter

    num: Counter = Counter()
    den: Counter = Counter()
    hyp_len = ref_len = 0
    for ref, hyp in stats:
        for n in range(1, len(weights) + 1):
            counts = hyp.ngrams.get(n, Counter())
            total = sum(counts.values())
            if total == 0:
                continue
            refc = ref.ngrams.get(n, Counter())
            num[n] += sum(min(c, refc[g]) for g, c in counts.items())
            den[n] += total
        hyp_len += hyp.length
        ref_len += ref.length
    if hyp_len == 0:
        return 1.0 if ref_len == 0 else 0.0
    if num[1] == 0:
        return 0.0
    max_gram = max(n for n in den if den[n] > 0)
    if max_gram < len(weights):
        weights = (1.0 / max_gram,) * max_gram
    bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    logs = 0.0
    inc = 1
    for n, w in enumerate(weights, start=1):
        if num[n] == 0:
            p = 1.0 / (2 ** inc * max(1, den[n]))
            inc += 1
        else:
            p = num[n] / den[n]
        logs += w * math.log(p)
    return bp * math.exp(logs)


def _weights(k: int, weights: Sequence[float] | None, reference: bool = False) -> tuple[float, ...]:
    if weights is not None:
        return tuple(weights)
    if k not in (1, 2, 3):
        raise ValueError("SemBLEU k must be 1, 2 or 3")
    if reference and k == 3:
        return REFERENCE_WEIGHTS
    return (1.0 / k,) * k


def _view(graph: Graph, reference: bool) -> LabelledGraph:
    from ...features.labelled import labelled_graph

    return reference_view(graph) if reference else labelled_graph(graph)


def sembleu_pair(gold: Graph, system: Graph, k: int = 3,
                 weights: Sequence[float] | None = None, reference: bool = False) -> float:
    """Sentence-level SemBLEU of one pair."""
    w = _weights(k, weights, reference)
    return _bleu([(graph_ngrams(_view(gold, reference), len(w), reference),
                   graph_ngrams(_view(system, reference), len(w), reference))], w)


def sembleu_row(gold: Graph, system: Graph, k: int = 3, reference: bool = False) -> list[int]:
    """The summable statistics of one pair up to n-grams of length ``k``: clipped
    matches of every order, system n-grams of every order, system length, gold length
    (what :func:`_bleu` sums over a corpus)."""
    return _row(_view(gold, reference), _view(system, reference), k, reference)


def sembleu_triples_row(gold: Triples, system: Triples, k: int = 3, reference: bool = False) -> list[int]:
    """:func:`sembleu_row` of a pair given by its Smatch triples (made with ``keep`` =
    :func:`triples_keep` of ``reference``).  Without ``reference``, counted by the compiled
    kernel ``mrkit.metrics.amr._sembleu`` when it is built (the same row, tested against
    :func:`_row`; ``MRKIT_PURE_SEMBLEU`` set: this Python code)."""
    if not reference:
        fn = _compiled()
        if fn is not None:
            row = fn(len(gold.variables), gold.instances, gold.attributes, gold.relations,
                     len(system.variables), system.instances, system.attributes, system.relations, k)
            if row is not None:
                return row
    from ...features.labelled import labelled_from_triples

    return _row(labelled_from_triples(gold), labelled_from_triples(system), k, reference)


_FN: list = []


def _compiled():
    """``mrkit.metrics.amr._sembleu.sembleu_row`` or None (not built, or
    ``MRKIT_PURE_SEMBLEU`` set)."""
    if not _FN:
        import os

        try:
            from ._sembleu import sembleu_row as fn
        except ImportError:
            fn = None
        _FN.append(None if os.environ.get("MRKIT_PURE_SEMBLEU") else fn)
    return _FN[0]


def triples_keep(reference: bool = False) -> frozenset[str]:
    """The roles ending in -of that are not inversions, in the view SemBLEU reads (the
    reference's view: none)."""
    from ...model.amr import NON_INVERTED_OF

    return frozenset() if reference else NON_INVERTED_OF


def _row(gold: LabelledGraph, system: LabelledGraph, k: int, reference: bool) -> list[int]:
    from collections import Counter

    ref = graph_ngrams(gold, k, reference)
    hyp = graph_ngrams(system, k, reference)
    num, den = [0] * k, [0] * k
    for n in range(1, k + 1):
        counts = hyp.ngrams.get(n, Counter())
        refc = ref.ngrams.get(n, Counter())
        get = refc.get
        num[n - 1] = sum([c if c <= r else r for g, c in counts.items() if (r := get(g, 0))])
        den[n - 1] = sum(counts.values())
    return [*num, *den, hyp.length, ref.length]


def row_columns(k: int) -> tuple[str, ...]:
    return (*(f"match_{n}" for n in range(1, k + 1)), *(f"total_{n}" for n in range(1, k + 1)),
            "system_length", "gold_length")


def bleu_reducer(weights: Sequence[float]):
    """Column sums of :func:`sembleu_row` ``(..., 2k + 2)`` -> ``{"f1": BLEU (...)}``:
    exactly :func:`_bleu` (same operations in the same order, logarithms and exponentials
    of the math module), vectorised over the leading axes (resamples)."""
    weights = tuple(weights)
    K = len(weights)

    def reduce(sums):
        import numpy as np  # here: a small corpus's summary uses the scalar twin, without numpy

        _log, _exp = np.frompyfunc(math.log, 1, 1), np.frompyfunc(math.exp, 1, 1)

        def log(x):
            return np.asarray(_log(x), dtype=np.float64)

        def exp(x):
            return np.asarray(_exp(x), dtype=np.float64)

        sums = np.asarray(sums, dtype=np.float64)
        num, den = sums[..., :K], sums[..., K:2 * K]
        hyp, ref = sums[..., 2 * K], sums[..., 2 * K + 1]
        ok = (hyp > 0) & (num[..., 0] > 0)
        # the longest order with system n-grams; fewer than K: uniform weights 1/max_gram
        max_gram = np.where(den > 0, np.arange(1, K + 1), 0).max(axis=-1)
        reweigh = max_gram < K
        safe_gram = np.maximum(max_gram, 1)
        safe_hyp = np.where(hyp > 0, hyp, 1.0)
        bp = np.where(hyp > ref, 1.0, exp(1 - ref / safe_hyp))
        logs = np.zeros(hyp.shape)
        inc = np.ones(hyp.shape)
        for n in range(1, K + 1):
            active = ok & (n <= np.where(reweigh, max_gram, K))
            w = np.where(reweigh, 1.0 / safe_gram, weights[n - 1])
            zero = num[..., n - 1] == 0
            smooth = 1.0 / (2.0 ** inc * np.maximum(1.0, den[..., n - 1]))
            p = np.where(zero, smooth, num[..., n - 1] / np.where(den[..., n - 1] > 0, den[..., n - 1], 1.0))
            inc = inc + (zero & active)
            term = w * log(np.where(active, p, 1.0))
            logs = np.where(active, logs + term, logs)
        score = bp * exp(logs)
        out = np.where(ok, score, np.where(hyp == 0, np.where(ref == 0, 1.0, 0.0), 0.0))
        return {"f1": np.asarray(out, dtype=np.float64)}

    reduce.scalar = bleu_scalar_reducer(weights)
    return reduce


def bleu_scalar_reducer(weights: Sequence[float]):
    """The plain-Python twin of :func:`bleu_reducer` for one row of sums (the summary of a
    small corpus without numpy, :class:`mrkit.aggregate.corpus.RowTable`): the same
    float64 operations in the same order, so the same bits (tested against it)."""
    weights = tuple(float(w) for w in weights)
    K = len(weights)

    def scalar(sums) -> dict[str, float]:
        s = [float(x) for x in sums]
        num, den, hyp, ref = s[:K], s[K:2 * K], s[2 * K], s[2 * K + 1]
        ok = hyp > 0 and num[0] > 0
        max_gram = max(n if den[n - 1] > 0 else 0 for n in range(1, K + 1))
        reweigh = max_gram < K
        safe_gram = max(max_gram, 1)
        safe_hyp = hyp if hyp > 0 else 1.0
        bp = 1.0 if hyp > ref else math.exp(1 - ref / safe_hyp)
        logs, inc = 0.0, 1.0
        for n in range(1, K + 1):
            active = ok and n <= (max_gram if reweigh else K)
            w = 1.0 / safe_gram if reweigh else weights[n - 1]
            zero = num[n - 1] == 0
            p = (1.0 / (2.0 ** inc * max(1.0, den[n - 1])) if zero
                 else num[n - 1] / (den[n - 1] if den[n - 1] > 0 else 1.0))
            inc = inc + (1.0 if zero and active else 0.0)
            if active:
                logs = logs + w * math.log(p)
        if ok:
            return {"f1": bp * math.exp(logs)}
        return {"f1": (1.0 if ref == 0 else 0.0) if hyp == 0 else 0.0}

    scalar.columns = _bleu_columns(weights)
    return scalar


def _bleu_columns(weights: tuple[float, ...]):
    """The scalar reducer of every row of int64 columns at once, by the compiled
    ``bleu_f1`` (the same bits, tested; None: not built, ``MRKIT_PURE_SEMBLEU`` set, or
    columns that are not int64, and the rows go one by one)."""

    def columns(cols):
        from .kernels import compiled

        fn = compiled("mrkit.metrics.amr._sembleu", "bleu_f1", "MRKIT_PURE_SEMBLEU")
        if fn is None or any(getattr(c, "typecode", None) != "q" for c in cols):
            return None
        from array import array

        out = array("d")
        out.frombytes(fn(cols, weights))
        return {"f1": out}

    return columns


def sembleu_corpus(golds: Sequence[Graph], systems: Sequence[Graph], k: int = 3,
                   weights: Sequence[float] | None = None,
                   reference: bool = False) -> tuple[float, list[float]]:
    """Corpus SemBLEU and the sentence SemBLEU of every pair."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    w = _weights(k, weights, reference)
    stats = [(graph_ngrams(_view(g, reference), len(w), reference),
              graph_ngrams(_view(s, reference), len(w), reference))
             for g, s in zip(golds, systems)]
    return _bleu(stats, w), [_bleu([st], w) for st in stats]


@register("sembleu", reduce=None, corpus="corpus BLEU of the summed n-gram counts and lengths")
def sembleu_metric(golds: Sequence[Graph], systems: Sequence[Graph], k: int = 3,
                   weights: Sequence[float] | None = None, reference: bool = False,
                   executor=None) -> MetricScores:
    """Per pair: sentence SemBLEU; corpus: corpus SemBLEU (not the mean of pairs), from
    the summed rows of :func:`sembleu_row` by :func:`bleu_reducer`.  ``reference``: as
    the reference computes it (n-grams of :func:`reference_view` from the nodes reachable
    from the parentless ones; k = 3 weights 0.34/0.33/0.34).  Pairs run in chunks through
    ``executor`` (default: this process)."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    w = _weights(k, weights, reference)
    rows = pair_rows(sembleu_row, golds, systems, executor, k=len(w), reference=reference)
    return _result(rows, [g.id for g in golds], k, w, reference)


def sembleu_from_triples(golds: Sequence[Triples], systems: Sequence[Triples], ids: Sequence[str | None],
                         k: int = 3, weights: Sequence[float] | None = None, reference: bool = False,
                         executor=None) -> MetricScores:
    """:func:`sembleu_metric` of pairs given by their Smatch triples (made with ``keep`` =
    :func:`triples_keep` of ``reference``) and ids: the same result."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    w = _weights(k, weights, reference)
    rows = pair_rows(sembleu_triples_row, golds, systems, executor, k=len(w), reference=reference)
    return _result(rows, ids, k, w, reference)


def sembleu_from_columns(columns, ids: Sequence[str | None], k: int = 3,
                         weights: Sequence[float] | None = None) -> MetricScores:
    """:func:`sembleu_metric` (mrkit's view) from the columns of :func:`sembleu_row` of
    the pairs (``array.array`` of int64: the compiled corpus path): the same result."""
    w = _weights(k, weights, False)
    return column_scores("sembleu", columns, ids, bleu_reducer(w), row_columns(len(w)), {"k": k, "weights": list(w)})


def sembleu_codes(codes: bytes, pairs: int, k: int):
    """The :func:`sembleu_row` (mrkit's view, n-grams up to ``k``) of ``pairs`` pairs given
    by the int64 codes of :func:`mrkit.features.triples.pair_codes`, by
    ``mrkit.metrics.amr._sembleu.sembleu_codes``: one flat ``array.array`` of int64,
    2k + 2 per pair, -1 first for a pair left to the caller.  ``None`` when the kernel is
    not built or ``MRKIT_PURE_SEMBLEU`` is set."""
    from .kernels import compiled

    fn = compiled("mrkit.metrics.amr._sembleu", "sembleu_codes", "MRKIT_PURE_SEMBLEU")
    if fn is None:
        return None
    from array import array

    a = array("q")
    a.frombytes(fn(codes, pairs, k))
    return a


def _result(rows: list, ids: Sequence[str | None], k: int, w: tuple, reference: bool) -> MetricScores:
    details = {"k": k, "weights": list(w)}
    if reference:
        details["reference"] = True
    return metric_scores("sembleu", rows, ids, bleu_reducer(w), row_columns(len(w)),
                         None, details)
