"""The framework-specific metrics reported beside the MRP metric.

* DM, PSD (and any other bi-lexical, flavor-0 framework): SDP labeled/unlabeled scores;
* EDS: EDM;
* UCCA: primary/remote x labeled/unlabeled edges over yields;
* AMR: Smatch, through :mod:`mrkit.metrics.amr.smatch` (certified alignments), on the
  graphs' edges as the MRP metric reads them: an edge with a ``normal`` label is turned
  around and gets that label (``mod`` with ``normal`` ``domain`` counts as ``domain`` in the
  other direction, ``consist-of`` with ``normal`` ``consist`` as ``consist``).

Gold and system graphs are paired as for the MRP metric; a missing system graph is empty.
"""

from __future__ import annotations

from typing import Sequence

from ...align import AlignConfig
from ...model.graph import Edge, Graph
from ...aggregate.counts import SetScores, pair_counts
from ...features.mrp_tuples import Normalizer, flavor
from .edm import edm_sets
from .sdp import sdp_sets
from .ucca import ucca_sets


def metric_for(graph: Graph) -> str | None:
    """Name of the framework-specific metric of a gold graph (``None``: there is none)."""
    fw = (graph.framework or "").lower()
    if fw == "eds":
        return "edm"
    if fw == "ucca":
        return "ucca"
    if fw == "amr":
        return "smatch"
    if flavor(graph) == 0:
        return "sdp"
    return None


def with_normal_edges(g: Graph) -> Graph:
    """A shallow copy of ``g`` whose edges with a ``normal`` label are turned to it."""
    if not any(e.normal for e in g.edges):
        return g
    edges = [Edge(e.target, e.source, str(e.normal)) if e.normal else e for e in g.edges]
    return Graph(id=g.id, nodes=g.nodes, edges=edges, tops=g.tops, text=g.text, framework=g.framework,
                 source_file=g.source_file, source_line=g.source_line)


SET_METRICS = {"sdp": (sdp_sets, None), "edm": (edm_sets, "all"), "ucca": (ucca_sets, None)}
"""Set metrics: per-pair tuple sets, and the name of their summed measure (if any)."""


def framework_pair(gold: Graph, system: Graph | None, config: AlignConfig = AlignConfig(),
                   normalize: frozenset[str] | None = None) -> tuple | None:
    """The framework metric of one pair: ``(framework, metric, payload)`` with the pair's
    :data:`~mrkit.aggregate.counts.PairCounts` for a set metric or its Smatch
    :class:`~mrkit.metrics.amr.smatch.PairScore` (without the mapping) for AMR; ``None``
    when the gold graph's framework has no metric.  ``normalize``: the MRP normalizations
    that apply (``None``: all; Smatch keeps its own conventions, only ``edges`` decides
    whether ``normal`` labels turn edges around).  A module-level function of objects:
    the caller's executor runs it."""
    name = metric_for(gold)
    if name is None:
        return None
    if system is None:
        system = Graph(id=gold.id, framework=gold.framework, text=gold.text)
    if name == "smatch":
        from ..amr.smatch import smatch_pair

        turn = with_normal_edges if normalize is None or "edges" in normalize else (lambda g: g)
        score = smatch_pair(turn(gold), turn(system), config)
        score.mapping = {}
        return gold.framework or "", name, score
    sets, _total = SET_METRICS[name]
    return gold.framework or "", name, pair_counts(sets(gold, system, Normalizer.of(normalize)))


HEADLINE = {"sdp": "labeled", "edm": "all", "ucca": "labeled primary", "smatch": "smatch"}
"""The measure of each framework metric that ``--bootstrap`` / ``--against`` resample."""


def headline_row(item: tuple | None) -> tuple[str, str, tuple[float, float, float]] | None:
    """``(framework, metric, (matched, gold, system))`` of one pair's framework metric
    (:func:`framework_pair`) in its headline measure (:data:`HEADLINE`): SDP labeled, EDM
    over all its tuple types, UCCA labeled primary, Smatch; a row
    :func:`~mrkit.aggregate.resampling.prf_reduce` sums."""
    if item is None:
        return None
    fw, name, payload = item
    if name == "smatch":
        return fw, name, (payload.matched, payload.gold, payload.system)
    if HEADLINE[name] == "all":
        from ...aggregate.counts import Counts

        c = Counts.total(c for c, _same in payload.values())
    else:
        c = payload[HEADLINE[name]][0]
    return fw, name, (c.c, c.g, c.s)


class FrameworkTotals:
    """The framework metrics summed as pairs stream past (frameworks in order of first
    appearance); :meth:`report` gives ``{framework: report of its metric}``."""

    def __init__(self) -> None:
        self._sets: dict[str, SetScores] = {}
        self._smatch: dict[str, list] = {}
        self._order: dict[str, str] = {}

    def add(self, item: tuple | None) -> None:
        if item is None:
            return
        fw, name, payload = item
        self._order.setdefault(fw, name)
        if name == "smatch":
            self._smatch.setdefault(fw, []).append(payload)
        else:
            self._sets.setdefault(fw, SetScores(name)).add(payload)

    def report(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for fw, name in self._order.items():
            if name == "smatch":
                from ..amr.smatch import SmatchResult

                pairs = self._smatch[fw]
                for k, p in enumerate(pairs):
                    p.index = k
                out[fw] = {"metric": "smatch", **SmatchResult(pairs).to_dict()}
            else:
                out[fw] = self._sets[fw].with_total(SET_METRICS[name][1]).to_dict()
        return out


def framework_scores(pairs: Sequence[tuple[Graph, Graph | None]], config: AlignConfig = AlignConfig(),
                     workers: int = 1, normalize: frozenset[str] | None = None) -> dict[str, dict]:
    """``{framework: report of its metric}`` for every framework that has one, in this
    process (``workers`` is ignored and deprecated: to run pairs in parallel, use
    :func:`mrkit.pipeline.mrp.score_pairs` with an executor)."""
    totals = FrameworkTotals()
    for gold, system in pairs:
        totals.add(framework_pair(gold, system, config, normalize))
    return totals.report()
