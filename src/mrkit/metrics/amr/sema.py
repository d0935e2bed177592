"""SEMA (Anchiêta et al. 2019): triple overlap without variable alignment.

Variables are replaced by their concepts; a triple counts only if its parent concept
also matches:

* the root concept triple counts when both roots have the same concept;
* a relation ``(p, role, c)`` of the system counts when the gold graph has an unmatched
  relation with the same role, the same parent concept and the same child concept; its
  parent and child concept triples then count too (once per node);
* an attribute ``(p, role, value)`` counts when the gold graph has an unmatched attribute
  with the same role and value under a node with the same concept.

Every matched triple is paired with one gold triple and one system triple of the same
kind, so scores stay in [0, 1], and the pairing is the one that matches the most triples.
Exactly: with ``key(r) = (role, concept of p, concept of c)``, choose

* ``R``, a one-to-one pairing of gold and system relations with equal keys;
* ``N``, a one-to-one pairing of gold and system nodes, holding the two roots when their
  concepts agree, and otherwise only pairs ``(u, v)`` that are the parents, or the
  children, of two relations paired in ``R`` (so ``u`` and ``v`` share a concept);
* ``A``, a one-to-one pairing of attributes with equal (role, value, concept of the node);

matched = ``|R| + |N| + |A|``, maximised.  ``|A|`` and the most ``|R|`` are multiset
intersections; ``|N|`` depends on which relations of a repeated key pair with which
(:mod:`mrkit.metrics.amr.sema_pairing` finds the most, exactly).  So the score does not
depend on how either graph is written (variable names, order of branches, where a
reentrant node is spelled out), and swapping the graphs swaps precision and recall.

Precision = matched / system triples, recall = matched / gold triples (instance,
relation and attribute triples of :mod:`mrkit.model.amr`, no TOP triple); the corpus score is
micro-averaged, as in the reference.

The reference implementation (rafaelanchieta/sema) matches a system triple against every
gold triple it fits: at commit 9a4911c (the one vendored in AMRParseEval) a system
relation that fits two gold relations counts twice, and at 0ede9e0 the root concept is
counted twice, so identical graphs score 1.12-1.20.  On graphs without such repeated
patterns mrkit equals 9a4911c.
"""

from __future__ import annotations

from ...model.inverted_roles import NON_INVERTED_OF
from ...features.triples import Triples, triples
from ...aggregate.reducers import prf_reduce
from ..registry import pair_rows, register
from ..result import MetricScores, column_scores, metric_scores

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import Sequence

    from ...model.graph import Graph  # annotations only: the coded path builds no Graph


def check_pairs(golds, systems) -> None:
    from ...features.labelled import check_pairs  # on use: the coded path never needs it (start-up)

    check_pairs(golds, systems)


COLUMNS = ("matched", "gold", "system")
"""SEMA's summable row (Smatch's: :data:`mrkit.metrics.amr.smatch_metric.COLUMNS`)."""


def _concepts(t: Triples) -> list[str | None]:
    c: list[str | None] = [None] * len(t.variables)
    for i, concept in t.instances:
        c[i] = concept
    return c


def sema_counts(gold: Graph, system: Graph,
                keep: frozenset[str] = NON_INVERTED_OF) -> tuple[int, int, int]:
    """``(matched, gold triples, system triples)`` of one pair."""
    return sema_triple_counts(triples(gold, keep), triples(system, keep))


def sema_triple_counts(tg: Triples, ts: Triples) -> tuple[int, int, int]:
    """``(matched, gold triples, system triples)`` of one pair, from its Smatch triples.

    The greedy pairing first (each system relation, in node order, takes the first free gold
    relation of its key); it is the optimum when its node pairs reach the bound of
    :func:`_node_bound`, else the node pairs are counted exactly by
    :func:`mrkit.metrics.amr.sema_pairing.most_carried`.  ``_sema.c`` does the same, leaving the
    second case to this function."""
    cg, cs = _concepts(tg), _concepts(ts)
    n_gold = len(tg.instances) + len(tg.relations) + len(tg.attributes)
    n_sys = len(ts.instances) + len(ts.relations) + len(ts.attributes)
    paired_g: set[int] = set()
    paired_s: set[int] = set()

    def pair(g: int, s: int) -> int:
        if g in paired_g or s in paired_s or cg[g] is None or cg[g] != cs[s]:
            return 0
        paired_g.add(g)
        paired_s.add(s)
        return 1

    root = pair(tg.tops[0], ts.tops[0]) if tg.tops and ts.tops else 0
    fixed_g, fixed_s = set(paired_g), set(paired_s)
    # relations grouped by source node, in node order; a system triple takes the first
    # unused gold triple that fits (queues by key: linear)
    from collections import deque

    free: dict[tuple, deque] = {}
    for pg, role, chg in sorted(tg.relations, key=lambda r: r[0]):
        free.setdefault((role, cg[pg], cg[chg]), deque()).append((pg, chg))
    gold_keys = set(free)
    relations = nodes = 0
    for ps, role, chs in sorted(ts.relations, key=lambda r: r[0]):
        q = free.get((role, cs[ps], cs[chs]))
        if q:
            pg, chg = q.popleft()
            relations += 1
            nodes += pair(pg, ps) + pair(chg, chs)
    if nodes < _node_bound(tg, ts, cg, cs, gold_keys, fixed_g, fixed_s):
        nodes = _most_node_pairs(tg, ts, cg, cs, fixed_g, fixed_s)
    free_a: dict[tuple, int] = {}
    for pg, role, value in tg.attributes:
        key = (role, value, cg[pg])
        free_a[key] = free_a.get(key, 0) + 1
    attributes = 0
    for ps, role, value in ts.attributes:
        key = (role, value, cs[ps])
        if free_a.get(key, 0) > 0:
            free_a[key] -= 1
            attributes += 1
    return root + relations + nodes + attributes, n_gold, n_sys


def _node_bound(tg: Triples, ts: Triples, cg: list, cs: list, gold_keys: set, fixed_g: set,
                fixed_s: set) -> int:
    """An upper bound of the concept triples the relations can pair: per concept, the
    fewer of the gold and the system nodes with that concept that are an end of a relation
    whose key the other graph has (the roots, when paired, left out)."""
    system_keys = {(role, cs[p], cs[c]) for p, role, c in ts.relations}
    count: dict = {}
    for rels, conc, keys, fixed, side in ((tg.relations, cg, system_keys, fixed_g, 0),
                                          (ts.relations, cs, gold_keys, fixed_s, 1)):
        ends = set()
        for p, role, c in rels:
            if (role, conc[p], conc[c]) in keys:
                ends.add(p)
                ends.add(c)
        for n in ends:
            if n not in fixed and conc[n] is not None:
                count.setdefault(conc[n], [0, 0])[side] += 1
    return sum(min(c) for c in count.values())


def _most_node_pairs(tg: Triples, ts: Triples, cg: list, cs: list, fixed_g: set, fixed_s: set) -> int:
    """The most concept triples a one-to-one pairing of same-key relations can pair
    (:func:`mrkit.metrics.amr.sema_pairing.most_carried`): a node pair is carried by two
    paired relations' parents or children, never a paired root nor a node without concept."""
    from .sema_pairing import most_carried

    def edges(rels, conc, fixed):
        def end(n):
            return None if n in fixed or conc[n] is None else n

        return [((role, conc[p], conc[c]), end(p), end(c)) for p, role, c in rels]

    return most_carried(edges(tg.relations, cg, fixed_g), edges(ts.relations, cs, fixed_s))


def sema_pair(gold: Graph, system: Graph) -> tuple[float, float, float]:
    """Precision, recall, F1 of one pair."""
    from ...aggregate.prf import prf

    return prf(*sema_counts(gold, system))


@register("sema", columns=COLUMNS, reduce=prf_reduce, corpus="micro F1")
def sema_metric(golds: Sequence[Graph], systems: Sequence[Graph], executor=None) -> MetricScores:
    """Per pair: SEMA F1; corpus: micro F1 (summed counts).  Pairs run in chunks through
    ``executor`` (default: this process)."""
    check_pairs(golds, systems)
    return _result(pair_rows(sema_counts, golds, systems, executor), [g.id for g in golds])


def sema_from_triples(golds: Sequence[Triples], systems: Sequence[Triples], ids: Sequence[str | None],
                      executor=None) -> MetricScores:
    """:func:`sema_metric` of pairs given by their Smatch triples (``keep`` =
    :data:`~mrkit.model.amr.NON_INVERTED_OF`) and the pairs' ids: the same result."""
    check_pairs(golds, systems)
    return _result(pair_rows(sema_triple_counts, golds, systems, executor), ids)


def sema_from_columns(columns, ids: Sequence[str | None]) -> MetricScores:
    """:func:`sema_metric` from the columns (``array.array`` of int64: matched, gold,
    system) of the pairs (the compiled corpus path, :mod:`mrkit.pipeline.amr_metrics`):
    the same result."""
    res = column_scores("sema", columns, ids, prf_reduce, COLUMNS)
    m, gt, st = (sum(c) for c in columns)
    res.detail.update(precision=res.precision, recall=res.recall, matched=m, gold_triples=gt,
                      system_triples=st)
    return res


def sema_codes(codes: bytes, pairs: int):
    """The rows ``(matched, gold, system)`` of ``pairs`` pairs given by the int64 codes of
    :func:`mrkit.features.triples.pair_codes`, counted by the compiled twin of
    :func:`sema_triple_counts` (``mrkit.metrics.amr._sema``): one flat ``array.array`` of
    int64, 3 per pair, -1s for a pair left to the caller (a refused block, or a pair whose
    greedy pairing does not reach the bound, for :func:`sema_triple_counts` to count
    exactly).  ``None`` when the kernel is not built or ``MRKIT_PURE_SEMA`` is set."""
    from .kernels import compiled

    fn = compiled("mrkit.metrics.amr._sema", "sema_codes", "MRKIT_PURE_SEMA")
    if fn is None:
        return None
    from array import array

    a = array("q")
    a.frombytes(fn(codes, pairs))
    return a


def _result(counts: list, ids: Sequence[str | None]) -> MetricScores:
    res = metric_scores("sema", counts, ids, prf_reduce, COLUMNS)
    m, gt, st = (sum(c[k] for c in counts) for k in range(3))
    res.detail.update(precision=res.precision, recall=res.recall, matched=m, gold_triples=gt,
                      system_triples=st)
    return res
