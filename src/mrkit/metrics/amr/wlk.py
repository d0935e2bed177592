"""WLK: the Weisfeiler-Leman kernel similarity of two AMR graphs (Opitz et al. 2021).

On the labelled view of :mod:`mrkit.features.labelled`:

* round 0 features: the set of node labels and the set of ``(label, role, label)``
  triples;
* round i = 1..k: every node's label becomes its previous label together with the sorted
  ``role_label`` strings of its neighbours (outgoing and incoming edges), and the round's
  features are the set of these labels;
* each graph is the concatenation of its binary feature vectors, round i weighted
  1/(1+i); the score is the cosine of the two vectors.

As in the reference (flipz357/weisfeiler-leman-amr-metrics, ``main_wlk.py``, k = 2),
features are occurrences (0/1), not counts.  ``edge_to_node=True`` first turns every
labelled edge into a node (the reference's ``--edge_to_node_transform``); such a role
node is labelled with its role *and a colon* (``:name``), as the reference's
``do_edge_node_transform`` does, so it never equals a concept (``name``) or a constant.

Each round's labels are compressed to small integers (one table shared by the two
graphs, so equal labels get equal numbers): a node's label of round i + 1 is its number
of round i with the sorted (role, number) pairs of its neighbours.  This is the
reference's string relabelling without its strings, whose length grows with the
neighbourhood (a node with 20,000 attributes gave every neighbour a label of 20,000
parts, 7.6 GB in all); memory is linear in the size of the graphs.
"""

from __future__ import annotations

from ...features.triples import Triples
from ...aggregate.reducers import mean_reduce
from ..registry import pair_rows, register
from ..result import MEAN_COLUMNS, MetricScores, mean_column_scores, mean_scores

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Sequence

    from ...features.labelled import LabelledGraph  # the coded path reads no labelled view (start-up)
    from ...model.graph import Graph  # annotations only: the coded path builds no Graph


def levi_graph(lg: LabelledGraph) -> LabelledGraph:
    """The edge-to-node transform with role nodes labelled ``:role`` (distinct from
    every concept and constant label, which never start with a colon)."""
    from ...features.labelled import to_levi

    lv = to_levi(lg)
    n = len(lg.labels)
    lv.labels[n:] = [":" + r for r in lv.labels[n:]]
    return lv


def wl_features_pair(a: LabelledGraph, b: LabelledGraph, k: int = 2) -> tuple[list[set], list[set]]:
    """The feature sets of rounds 0..k of two graphs (round 0 holds labels and triples);
    labels of rounds >= 1 are integers numbered by one table shared by both graphs."""
    table: dict = {}
    feats = []
    labelss = []
    nbrss = []
    for lg in (a, b):
        labels = list(lg.labels)
        f0 = {("n", l) for l in labels} | {("t", labels[s], r, labels[t]) for s, r, t in lg.edges}
        ids = [table.setdefault(("n", l), len(table)) for l in labels]
        nbrs: list[list[tuple[str, int]]] = [[] for _ in labels]
        for s, r, t in lg.edges:
            nbrs[s].append((r, t))
            nbrs[t].append((r, s))
        feats.append([f0])
        labelss.append(ids)
        nbrss.append(nbrs)
    for _ in range(k):
        table = {}
        for g in (0, 1):
            old, nbrs = labelss[g], nbrss[g]
            new = [table.setdefault((old[v], tuple(sorted([(r, old[u]) for r, u in nbrs[v]]))), len(table))
                   for v in range(len(old))]
            labelss[g] = new
            feats[g].append(set(new))
    return feats[0], feats[1]


def wl_features(lg: LabelledGraph, k: int = 2) -> list[set]:
    """The feature sets of rounds 0..k of one graph (see :func:`wl_features_pair`; the
    numbers of rounds >= 1 are only comparable within one call)."""
    from ...features.labelled import LabelledGraph

    return wl_features_pair(lg, LabelledGraph([]), k)[0]


def weighted_cosine(fa: list[set], fb: list[set]) -> float:
    """Cosine of the concatenated 0/1 vectors, block i weighted 1/(1+i)."""
    dot = na = nb = 0.0
    for i, (a, b) in enumerate(zip(fa, fb)):
        w2 = 1.0 / (1 + i) ** 2
        dot += w2 * len(a & b)
        na += w2 * len(a)
        nb += w2 * len(b)
    return _cosine(dot, na, nb)


def _cosine(dot: float, na: float, nb: float) -> float:
    """The weighted cosine from its dot product and squared norms (1 for two empty
    vectors, 0 when one is empty)."""
    if na == 0 and nb == 0:
        return 1.0
    if na == 0 or nb == 0:
        return 0.0
    import math

    return min(1.0, dot / math.sqrt(na * nb))


def wlk_pair(gold: Graph, system: Graph, k: int = 2, edge_to_node: bool = False) -> float:
    from ...features.labelled import labelled_graph

    return _wlk_labelled(labelled_graph(gold), labelled_graph(system), k, edge_to_node)


def wlk_triples_pair(gold: Triples, system: Triples, k: int = 2, edge_to_node: bool = False) -> float:
    """:func:`wlk_pair` of a pair given by its Smatch triples."""
    from ...features.labelled import labelled_from_triples

    if not edge_to_node:
        fn = _compiled()
        if fn is not None:
            r = fn(len(gold.variables), gold.instances, gold.attributes, gold.relations,
                   len(system.variables), system.instances, system.attributes, system.relations, k)
            if r is not None:
                return r
        return _wlk_triples_lean(gold, system, k)
    return _wlk_labelled(labelled_from_triples(gold), labelled_from_triples(system), k, edge_to_node)


_FN: list = []


def _compiled():
    """``mrkit.metrics.amr._wlk.wlk_triples`` (the C twin of :func:`_wlk_triples_lean`,
    tested to the bit against it), or None when it is not built or ``MRKIT_PURE_WLK``
    is set."""
    if not _FN:
        import os

        try:
            from ._wlk import wlk_triples as fn
        except ImportError:
            fn = None
        _FN.append(None if os.environ.get("MRKIT_PURE_WLK") else fn)
    return _FN[0]


def _lean_view(t: Triples) -> tuple[list[str], list[list[tuple[str, str]]], set]:
    """Labels, neighbour lists ``(role, label)`` and round-0 features (labels and
    ``(label, role, label)`` triples) of one graph's labelled view, built straight from
    its triples: the nodes, edges and features of :func:`labelled_from_triples` and
    :func:`wl_features_pair` in the same order."""
    labels = [""] * len(t.variables)
    for i, concept in t.instances:
        labels[i] = concept
    nbrs: list[list] = [[] for _ in labels]
    f0 = set(labels)
    for s, r, o in t.relations:
        ls, lo = labels[s], labels[o]
        f0.add((ls, r, lo))
        nbrs[s].append((r, o))
        nbrs[o].append((r, s))
    for i, r, value in t.attributes:
        f0.add(value)
        f0.add((labels[i], r, value))
        v = len(labels)
        labels.append(value)
        nbrs[i].append((r, v))
        nbrs.append([(r, i)])
    return labels, nbrs, f0


def _wlk_triples_lean(gold: Triples, system: Triples, k: int) -> float:
    """:func:`_wlk_labelled` without edge-to-node, from the triples with no
    :class:`LabelledGraph` in between (to the bit the same score, tested in
    tests/metrics/amr/test_wlk_lean.py).  Round 0 uses the label strings themselves
    as node numbers (an injective numbering, like the table's): the relabelling's keys
    (label, sorted neighbour multiset) are equal exactly when the table's are, so every
    round's classes, and the set sizes the cosine counts, are the same.  Node labels
    (strings) and triples (3-tuples) never compare equal, so one round-0 set holds both,
    as the tagged ``("n", l)`` / ``("t", ...)`` features do."""
    la, na, fa0 = _lean_view(gold)
    lb, nb, fb0 = _lean_view(system)
    dot = float(len(fa0 & fb0))
    sa = float(len(fa0))
    sb = float(len(fb0))
    for i in range(1, k + 1):
        table: dict = {}
        sd = table.setdefault
        la = [sd((la[v], tuple(sorted([(r, la[u]) for r, u in nbr]))), len(table)) for v, nbr in enumerate(na)]
        lb = [sd((lb[v], tuple(sorted([(r, lb[u]) for r, u in nbr]))), len(table)) for v, nbr in enumerate(nb)]
        a, b = set(la), set(lb)
        w2 = 1.0 / (1 + i) ** 2
        dot += w2 * len(a & b)
        sa += w2 * len(a)
        sb += w2 * len(b)
    return _cosine(dot, sa, sb)


def _wlk_labelled(a: LabelledGraph, b: LabelledGraph, k: int, edge_to_node: bool) -> float:
    if edge_to_node:
        a, b = levi_graph(a), levi_graph(b)
    return weighted_cosine(*wl_features_pair(a, b, k))


@register("wlk", columns=MEAN_COLUMNS, reduce=mean_reduce, corpus="mean of pairs")
def wlk_metric(golds: Sequence[Graph], systems: Sequence[Graph], k: int = 2,
               edge_to_node: bool = False, executor=None) -> MetricScores:
    """Per pair: WLK cosine; corpus: mean of pairs.  Pairs run in chunks through
    ``executor`` (default: this process)."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    per = pair_rows(wlk_pair, golds, systems, executor, k=k, edge_to_node=edge_to_node)
    return mean_scores("wlk", per, [g.id for g in golds],
                       {"k": k, "edge_to_node": edge_to_node, "corpus": "mean of pairs"})


def wlk_from_triples(golds: Sequence[Triples], systems: Sequence[Triples], ids: Sequence[str | None],
                     k: int = 2, edge_to_node: bool = False, executor=None) -> MetricScores:
    """:func:`wlk_metric` of pairs given by their Smatch triples and ids: the same result."""
    from ...features.labelled import check_pairs

    check_pairs(golds, systems)
    per = pair_rows(wlk_triples_pair, golds, systems, executor, k=k, edge_to_node=edge_to_node)
    return mean_scores("wlk", per, ids, {"k": k, "edge_to_node": edge_to_node, "corpus": "mean of pairs"})


def wlk_from_scores(scores, ids: Sequence[str | None], k: int = 2, edge_to_node: bool = False) -> MetricScores:
    """:func:`wlk_metric` from the score of every pair (an ``array.array`` of float64: the
    compiled corpus path)."""
    return mean_column_scores("wlk", scores, ids, {"k": k, "edge_to_node": edge_to_node,
                                                   "corpus": "mean of pairs"})


def wlk_codes(codes: bytes, pairs: int, k: int = 2):
    """The WLK score (no edge-to-node) of ``pairs`` pairs given by the int64 codes of
    :func:`mrkit.features.triples.pair_codes`, by ``mrkit.metrics.amr._wlk.wlk_codes``
    (the operations of :func:`_wlk_triples_lean`): an ``array.array`` of float64, NaN for a
    pair left to the caller.  ``None`` when the kernel is not built or ``MRKIT_PURE_WLK``
    is set."""
    from .kernels import compiled

    fn = compiled("mrkit.metrics.amr._wlk", "wlk_codes", "MRKIT_PURE_WLK")
    if fn is None:
        return None
    from array import array

    a = array("d")
    a.frombytes(fn(codes, pairs, k))
    return a
