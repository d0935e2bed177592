"""The MRP family: read (any format the codec registry can turn into MRP graphs), pair by
(framework, id), score through the caller's executor, collect.

- :func:`read_side`: one file (``-``: stdin) in ``mrp``, ``amr`` (PENMAN), ``sdp`` (DM,
  PSD), ``eds`` or ``ucca`` (XML), given or guessed from the suffix and the content;
- :func:`pairs_of`: gold and system graphs paired by (framework, id) in gold order (a
  missing system graph is scored as empty), optionally only some frameworks;
- :func:`score_pairs`: the MRP metric of every pair (and, unless asked not to, the
  framework metric: SDP, EDM, UCCA, Smatch) in chunks through an executor; the summable
  row of a pair is (correct, gold, system) of all its tuples, so the corpus result's
  ``f1`` is the MRP "all" F1 over all tuples of all frameworks.

Results never depend on the executor: pairs are scored independently and collected in
gold order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from ..aggregate.corpus import Collector, CorpusResult
from ..aggregate.resampling import prf_reduce
from ..align import AlignConfig
from ..codecs.registry import READ_FORMATS, sniff_text
from ..metrics.mrp.frameworks import FrameworkTotals, framework_pair, headline_row
from ..metrics.mrp.mrp import GraphScore, MRPResult, pair_graphs, score_graph, select_frameworks
from ..model.graph import Graph
from ..runtime.executor import PARALLEL_MIN_PAIRS  # the one threshold (re-exported for cli/mrp)
from . import CHUNK, chunked

FORMATS = READ_FORMATS
"""Input formats ``mrkit mrp`` reads (everything :func:`mrkit.codecs.registry.read_graphs` turns into graphs)."""


# ------------------------------------------------------------------ reading

sniff = sniff_text  # the registry's content sniffing (kept under this name for one release)
from .read import _sniff_file, read_side  # noqa: E402  (light: no engine; kept here for callers)


def pairs_of(golds: Sequence[Graph], systems: Sequence[Graph], frameworks: Iterable[str] | None = None
             ) -> tuple[list[tuple[Graph, Graph | None]], int]:
    """Pairs by (framework, id) in gold order, only of ``frameworks`` if given, and how
    many system graphs have no gold graph."""
    pairs, unpaired = pair_graphs(golds, systems)
    if frameworks is not None:
        pairs = select_frameworks(pairs, frameworks)
    return pairs, unpaired


# ------------------------------------------------------------------ scoring

def _score_chunk(task: tuple) -> list[tuple[GraphScore, tuple | None]]:
    """Module-level (a process executor sends it to its workers): the MRP score of every
    pair of a chunk (with its node correspondence only if asked), and its framework metric
    if asked."""
    pairs, config, framework_metrics, keep_mapping, normalize = task
    out = []
    for gold, system in pairs:
        gs = score_graph(gold, system, config, normalize)
        if not keep_mapping:
            gs.mapping = {}
        gs.seconds = 0.0
        out.append((gs, framework_pair(gold, system, config, normalize) if framework_metrics else None))
    return out


def record(gs: GraphScore) -> dict:
    """A pair's record: its counts of all tuples (``gold``, ``system``, ``matched``), then
    what ``--per-graph`` reported per graph, and the node correspondence when it was kept."""
    a = gs.all
    rec = {"framework": gs.framework, "id": gs.id, "gold": a.g, "system": a.s, "matched": a.c,
           **{k: v for k, v in gs.to_dict().items() if k not in ("framework", "id")}}
    if gs.mapping:  # kept: gold node id -> system node id (None: unmatched), certified as the score
        rec["correspondence"] = dict(gs.mapping)
    return rec


@dataclass
class MRPCorpus:
    """What :func:`score_pairs` gives: the corpus result (summary, statistics, records) and
    the MRP tables and framework metrics that a report shows beside it."""

    result: CorpusResult
    mrp: MRPResult
    framework_metrics: dict = field(default_factory=dict)
    framework_results: dict = field(default_factory=dict)
    """framework -> :class:`CorpusResult` of its framework metric's headline measure
    (:data:`mrkit.metrics.mrp.frameworks.HEADLINE`), for ``--bootstrap`` / ``--against``."""


def chunk_size(n: int, workers: int) -> int:
    """Pairs per task: about four tasks per worker, at most :data:`mrkit.pipeline.CHUNK`."""
    return max(1, min(CHUNK, math.ceil(n / (4 * max(1, workers)))))


def score_pairs(pairs: Sequence[tuple[Graph, Graph | None]], config: AlignConfig, executor,
                *, framework_metrics: bool = True, keep_records: bool = False, unpaired_system: int = 0,
                progress: Callable[[int], None] | None = None, keep_mapping: bool = False,
                normalize: frozenset[str] | None = None) -> MRPCorpus:
    """Score (gold, system) pairs through ``executor`` (:mod:`mrkit.runtime.executor`).

    The corpus result's summary is the MRP score over all tuples of all pairs (micro over
    frameworks); its detail holds ``overall``, ``frameworks`` (per-framework tables),
    ``unpaired_system`` and, with ``framework_metrics``, ``framework_metrics``.  Ids are
    the graph ids (the framework is in each record).  ``keep_mapping``: keep every pair's
    node correspondence (``GraphScore.mapping``, and ``correspondence`` in its record).
    ``normalize``: the MRP normalizations that apply (``None``: all, mtool's default;
    :func:`mrkit.features.mrp_tuples.parse_normalize`)."""
    collector = Collector("mrp", prf_reduce, 3, certified=True, keep_records=keep_records)
    graphs: list[GraphScore] = []
    totals = FrameworkTotals()
    size = chunk_size(len(pairs), getattr(executor, "workers", 1))
    tasks = ((chunk, config, framework_metrics, keep_mapping, normalize) for chunk in chunked(pairs, size))
    per_fw: dict[str, Collector] = {}
    for out in executor.map(_score_chunk, tasks):
        for gs, fw in out:
            graphs.append(gs)
            totals.add(fw)
            head = headline_row(fw)
            if head is not None:
                name, metric, row = head
                if name not in per_fw:
                    per_fw[name] = Collector(metric, prf_reduce, 3)
                per_fw[name].add(gs.id, row)
            collector.add(gs.id, gs.all.row(), gs.certified, record(gs) if keep_records else None)
        if progress:
            progress(len(out))
    mrp = MRPResult(graphs, unpaired_system)
    extra = totals.report() if framework_metrics else {}
    detail = {k: v for k, v in mrp.to_dict().items()}
    if extra:
        detail["framework_metrics"] = extra
    return MRPCorpus(collector.result(detail), mrp, extra, {k: c.result() for k, c in per_fw.items()})


def score_graphs(golds: Sequence[Graph], systems: Sequence[Graph], config: AlignConfig = AlignConfig(),
                 executor=None, *, frameworks: Iterable[str] | None = None, **kw) -> MRPCorpus:
    """Pair and score two lists of graphs (``executor`` default: serial)."""
    if executor is None:
        from ..runtime.executor import SerialExecutor

        executor = SerialExecutor()
    pairs, unpaired = pairs_of(golds, systems, frameworks)
    with executor:
        return score_pairs(pairs, config, executor, unpaired_system=unpaired, **kw)


__all__ = ["FORMATS", "MRPCorpus", "pairs_of", "read_side", "record", "score_graphs", "score_pairs", "sniff"]
