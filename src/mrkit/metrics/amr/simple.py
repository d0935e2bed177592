"""SIMPLE: Jaccard similarity of the label sets of two AMR graphs (Opitz & Frank 2022).

The labels of a graph are its concepts, its attribute values and its role labels
(``:arg0``, ``:polarity``...), read from the shared labelled view
(:mod:`mrkit.features.labelled`).  ``score = |A ∩ B| / |A ∪ B|``, on sets as in the
reference script ``simple_metric.py`` of Heidelberg-NLP/AMRParseEval, or on bags
(multisets) with ``bags=True``.  Two empty graphs score 1.

Differences from the reference script, which works on the PENMAN string with regular
expressions: mrkit un-inverts roles (``:ARG0-of`` counts as ``:arg0``), and keeps concepts
of one or two letters (the script's variable-removing pattern also deletes a concept
such as ``i`` or ``he`` when a space follows it).
"""

from __future__ import annotations

from ...features.triples import Triples
from ...aggregate.reducers import mean_reduce
from ..registry import pair_rows, register
from ..result import MEAN_COLUMNS, MetricScores, mean_column_scores, mean_scores

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Sequence

    from collections import Counter

    from ...features.labelled import LabelledGraph  # the coded path reads no labelled view (start-up)
    from ...model.graph import Graph  # annotations only: the coded path builds no Graph


def label_bag(lg: LabelledGraph) -> Counter:
    from collections import Counter

    bag = Counter(lg.labels)
    bag.update(":" + r for _, r, _ in lg.edges)
    return bag


def jaccard(a: Counter, b: Counter, bags: bool = False) -> float:
    if bags:
        inter, union = sum((a & b).values()), sum((a | b).values())
    else:
        inter, union = len(a.keys() & b.keys()), len(a.keys() | b.keys())
    return inter / union if union else 1.0


def simple_pair(gold: Graph, system: Graph, bags: bool = False) -> float:
    from ...features.labelled import labelled_graph

    return jaccard(label_bag(labelled_graph(gold)), label_bag(labelled_graph(system)), bags)


def simple_triples_pair(gold: Triples, system: Triples, bags: bool = False) -> float:
    """:func:`simple_pair` of a pair given by its Smatch triples."""
    from ...features.labelled import labelled_from_triples

    return jaccard(label_bag(labelled_from_triples(gold)), label_bag(labelled_from_triples(system)), bags)


@register("simple", columns=MEAN_COLUMNS, reduce=mean_reduce, corpus="mean of pairs")
def simple_metric(golds: Sequence[Graph], systems: Sequence[Graph], bags: bool = False,
                  executor=None) -> MetricScores:
    """Per pair: Jaccard of the label sets; corpus: their mean.  Pairs run in chunks
    through ``executor`` (default: this process)."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    per = pair_rows(simple_pair, golds, systems, executor, bags=bags)
    return mean_scores("simple", per, [g.id for g in golds], {"bags": bags, "corpus": "mean of pairs"})


def simple_from_triples(golds: Sequence[Triples], systems: Sequence[Triples], ids: Sequence[str | None],
                        bags: bool = False, executor=None) -> MetricScores:
    """:func:`simple_metric` of pairs given by their Smatch triples and ids: the same result."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    per = pair_rows(simple_triples_pair, golds, systems, executor, bags=bags)
    return mean_scores("simple", per, ids, {"bags": bags, "corpus": "mean of pairs"})


def simple_from_scores(scores, ids: Sequence[str | None], bags: bool = False) -> MetricScores:
    """:func:`simple_metric` from the score of every pair (an ``array.array`` of float64:
    the compiled corpus path)."""
    return mean_column_scores("simple", scores, ids, {"bags": bags, "corpus": "mean of pairs"})


def simple_codes(codes: bytes, pairs: int, bags: bool = False):
    """The score of ``pairs`` pairs given by the int64 codes of
    :func:`mrkit.features.triples.pair_codes`, by the compiled twin of
    :func:`simple_triples_pair` (``mrkit.metrics.amr._simple``): an ``array.array`` of
    float64, NaN for a pair left to the caller.  ``None`` when the kernel is not built or
    ``MRKIT_PURE_SIMPLE`` is set."""
    from .kernels import compiled

    fn = compiled("mrkit.metrics.amr._simple", "simple_codes", "MRKIT_PURE_SIMPLE")
    if fn is None:
        return None
    from array import array

    a = array("d")
    a.frombytes(fn(codes, pairs, bags))
    return a
