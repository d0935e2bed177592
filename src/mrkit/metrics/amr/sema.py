"""SEMA (Anchiêta et al. 2019): triple overlap without variable alignment.

Variables are replaced by their concepts; a triple counts only if its parent concept
also matches:

* the root concept triple counts when both roots have the same concept;
* a relation ``(p, role, c)`` of the system counts when the gold graph has an unmatched
  relation with the same role, the same parent concept and the same child concept; its
  parent and child concept triples then count too (once per node);
* an attribute ``(p, role, value)`` counts when the gold graph has an unmatched attribute
  with the same role and value under a node with the same concept.

Precision = matched / system triples, recall = matched / gold triples (instance,
relation and attribute triples of :mod:`mrkit.model.amr`, no TOP triple); the corpus score is
micro-averaged, as in the reference.

Every matched triple is paired with one gold triple and one system triple of the same
kind, so scores stay in [0, 1].  The reference implementation (rafaelanchieta/sema)
matches a system triple against every gold triple it fits: at commit 9a4911c (the one
vendored in AMRParseEval) a system relation that fits two gold relations counts twice,
and at 0ede9e0 the root concept is counted twice, so identical graphs score 1.12-1.20.
On graphs without such repeated patterns mrkit equals 9a4911c.
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
    """``(matched, gold triples, system triples)`` of one pair, from its Smatch triples."""
    cg, cs = _concepts(tg), _concepts(ts)
    n_gold = len(tg.instances) + len(tg.relations) + len(tg.attributes)
    n_sys = len(ts.instances) + len(ts.relations) + len(ts.attributes)
    paired_g: set[int] = set()
    paired_s: set[int] = set()
    matched = 0

    def pair(g: int, s: int) -> int:
        if g in paired_g or s in paired_s or cg[g] is None or cg[g] != cs[s]:
            return 0
        paired_g.add(g)
        paired_s.add(s)
        return 1

    if tg.tops and ts.tops:
        matched += pair(tg.tops[0], ts.tops[0])
    # relations grouped by source node, in node order, as the reference reads them
    # relations grouped by source node, in node order, as the reference reads them; a
    # system triple takes the first unused gold triple that fits (queues by key: linear)
    from collections import deque

    free: dict[tuple, deque] = {}
    for pg, role, chg in sorted(tg.relations, key=lambda r: r[0]):
        free.setdefault((role, cg[pg], cg[chg]), deque()).append((pg, chg))
    for ps, role, chs in sorted(ts.relations, key=lambda r: r[0]):
        q = free.get((role, cs[ps], cs[chs]))
        if q:
            pg, chg = q.popleft()
            matched += 1 + pair(pg, ps) + pair(chg, chs)
    free_a: dict[tuple, int] = {}
    for pg, role, value in tg.attributes:
        key = (role, value, cg[pg])
        free_a[key] = free_a.get(key, 0) + 1
    for ps, role, value in ts.attributes:
        key = (role, value, cs[ps])
        if free_a.get(key, 0) > 0:
            free_a[key] -= 1
            matched += 1
    return matched, n_gold, n_sys


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
    int64, 3 per pair, -1s for a pair left to the caller (a refused block).  ``None`` when
    the kernel is not built or ``MRKIT_PURE_SEMA`` is set."""
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
