"""Sentence AMR pairs for a reader: every pair's graphs, scores and certified alignment.

:func:`amr_study` scores one gold file against one or more system files with Smatch
(:func:`mrkit.pipeline.amr.smatch_files`, through the caller's executor, keeping each pair's
record and variable mapping), then reads the graphs once more and describes every pair
compactly for display (:func:`graph_view`, :func:`alignment_marks`): the nodes, attributes,
edges and tops of each graph as written, and which of their Smatch triples the certified
mapping matches.  The marks follow :mod:`mrkit.features.triples` exactly (lower-cased labels,
de-inverted roles, duplicates counted once), so the matched gold triples of a pair add up to
the pair's Smatch count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from ..errors import InputError
from ..model.amr import NON_INVERTED_OF, is_inverted, normalize_relation
from ..model.graph import Graph

if TYPE_CHECKING:
    from ..aggregate.corpus import CorpusResult
    from ..align import AlignConfig

TRIPLE_TYPES = ("instance", "attribute", "relation", "top")
"""The kinds of Smatch triples, in the order of a graph view's marks."""


@dataclass
class AmrStudy:
    """One gold file scored against several systems, pair by pair (sentence AMR with Smatch,
    or MRP graphs with the MRP metric: ``family``)."""

    gold: str
    systems: list[str]
    names: list[str]
    results: list["CorpusResult"]
    """Smatch of each system (records kept: scores, certification, mapping)."""
    pairs: list[dict] = field(default_factory=list)
    """Per pair: ``id``, ``snt`` (the sentence, or None), ``len`` (tokens of the sentence, or
    gold concepts when there is none), ``g`` (gold :func:`graph_view`), ``s`` (one view per
    system), ``m`` (per system: the system node of every gold node, -1 unmapped), ``k`` (per
    system: marks of the gold and of the system graph, see :func:`alignment_marks`)."""
    length_unit: str = "tokens"
    """``tokens`` of the sentence (``::snt``), or ``concepts`` of the gold graph when some pair
    has no sentence."""
    by_type: list[dict[str, tuple[int, int, int]]] = field(default_factory=list)
    """Per system: triple type -> (matched, gold, system) summed over the corpus."""
    subscores: list[dict[str, tuple[float, int, int]]] | None = None
    """Per system: the fine-grained subscores of :mod:`mrkit.metrics.amr.subscores` (name ->
    matched, gold, system summed over the pairs); None for MRP and document graphs."""
    family: str = "amr"
    """``amr`` (Smatch triples), ``mrp`` (MRP tuples; views carry anchors and the text) or
    ``document`` (document graphs: Smatch triples; results carry the coreference subscores)."""
    metric: str = "Smatch"


def graph_view(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> dict:
    """A graph as written: ``v`` variables, ``c`` concepts (None without one), ``a``
    attributes ``[node, role, value]`` (``[node, role, value, 1]`` for a quoted constant), ``e`` edges ``[source, role, target, inverted]``
    (roles as written, ``ARG0-of`` kept; ``inverted`` 1 when Smatch counts the triple in the
    other direction), ``t`` top nodes (indices)."""
    index = {v: i for i, v in enumerate(graph.nodes)}
    view = {"v": list(graph.nodes), "c": [n.label for n in graph.nodes.values()], "a": [], "e": [], "t": []}
    for i, node in enumerate(graph.nodes.values()):
        for p in node.properties:
            view["a"].append([i, p.key.lstrip(":"), p.value, 1] if p.quoted else [i, p.key.lstrip(":"), p.value])
    for e in graph.edges:
        view["e"].append([index[e.source], e.label.lstrip(":"), index[e.target], int(is_inverted(e.label, keep))])
    view["t"] = [index[t] for t in graph.tops if t in index]
    return view


def _keys(view: dict, keep: frozenset[str]) -> list[tuple | None]:
    """The Smatch triple of every element of a view (instances, attributes, edges, tops),
    over node indices; None for a node without a concept."""
    keys: list[tuple | None] = [("i", i, c.lower()) if c is not None else None for i, c in enumerate(view["c"])]
    keys += [("a", a[0], a[1].lower(), a[2].lower()) for a in view["a"]]
    for s, r, t, _ in view["e"]:
        s2, r2, t2 = normalize_relation(str(s), r, str(t), keep)
        keys.append(("r", int(s2), r2, int(t2)))
    keys += [("t", i) for i in view["t"]]
    return keys


def _image(key: tuple, m: Sequence[int]) -> tuple | None:
    """A gold triple's key under the node mapping ``m`` (None when a node is unmapped)."""
    if key[0] == "r":
        s, t = m[key[1]], m[key[3]]
        return None if s < 0 or t < 0 else ("r", s, key[2], t)
    j = m[key[1]]
    return None if j < 0 else (key[0], j, *key[2:])


def alignment_marks(gold: dict, system: dict, mapping: Sequence[int],
                    keep: frozenset[str] = NON_INVERTED_OF) -> tuple[str, str, dict[str, tuple[int, int, int]]]:
    """Which elements of two graph views the mapping matches: one character per element
    (instances, attributes, edges, tops, in view order), ``1`` matched, ``0`` not, ``-`` no
    triple (a node without a concept); and per triple type the distinct (matched, gold,
    system) counts."""
    gkeys, skeys = _keys(gold, keep), _keys(system, keep)
    sset = {k for k in skeys if k is not None}
    inverse = [-1] * len(system["v"])
    for i, j in enumerate(mapping):
        if j >= 0:
            inverse[j] = i
    gset = {k for k in gkeys if k is not None}
    gmarks = "".join("-" if k is None else ("1" if _image(k, mapping) in sset else "0") for k in gkeys)
    smarks = "".join("-" if k is None else ("1" if _image(k, inverse) in gset else "0") for k in skeys)
    counts: dict[str, list[int]] = {t: [0, 0, 0] for t in TRIPLE_TYPES}
    names = {"i": "instance", "a": "attribute", "r": "relation", "t": "top"}
    for k in gset:
        c = counts[names[k[0]]]
        c[1] += 1
        if _image(k, mapping) in sset:
            c[0] += 1
    for k in sset:
        counts[names[k[0]]][2] += 1
    return gmarks, smarks, {t: (c[0], c[1], c[2]) for t, c in counts.items()}


def _positions(gold_vars, mapping: dict, system_vars, key=lambda v: v) -> list[int]:
    """Per gold variable, the position among ``system_vars`` of its image under ``mapping``
    (``key`` of the image, as the system view names it), or -1 when it has none."""
    index = {v: j for j, v in enumerate(system_vars)}
    return [index.get(key(mapping[v]), -1) if mapping.get(v) is not None else -1 for v in gold_vars]


def _add_system(pair: dict, total: dict, view: dict, mapping: list[int], gold_marks, system_marks,
                counts: dict) -> None:
    """One system's side of a pair view, and its triple counts added to the system's totals."""
    for t, c in counts.items():
        for j in range(3):
            total[t][j] += c[j]
    pair["s"].append(view)
    pair["m"].append(mapping)
    pair["k"].append([gold_marks, system_marks])


def _prepared(gold: str, systems: Sequence[str], names, config, executor) -> tuple:
    """The common start of every study: its inputs are read twice (so no standard input),
    the engine configuration (default), the executor (serial by default) and the systems'
    names (their paths by default)."""
    from ..align import AlignConfig

    if "-" in (gold, *systems):
        raise InputError("the report reads its inputs twice: give files, not '-' (standard input)")
    if executor is None:
        from ..runtime.executor import SerialExecutor

        executor = SerialExecutor()
    return config or AlignConfig(), executor, (list(names) if names is not None else [str(s) for s in systems])


def _score_subscores_chunk(task: tuple) -> list[dict]:
    """Worker: the subscores of a chunk of (index, gold, system)."""
    from ..metrics.amr.subscores import subscores_pair

    config, items = task
    return [dict(subscores_pair(g, s, config, k).counts) for k, g, s in items]


def _subscores(gold: str, system: str, config, executor, format: str | None) -> dict[str, tuple[float, int, int]]:
    from . import chunked
    from .amr import iter_amr_pairs

    sums: dict[str, list[float]] = {}
    items = ((k, g, s) for k, (g, s) in enumerate(iter_amr_pairs(gold, system, format)))
    for out in executor.map(_score_subscores_chunk, ((config, c) for c in chunked(items, 64))):
        for counts in out:
            for name, c in counts.items():
                acc = sums.setdefault(name, [0.0, 0, 0])
                for j in range(3):
                    acc[j] += c[j]
    return {name: (float(c[0]), int(c[1]), int(c[2])) for name, c in sums.items()}


def _sentence(g: Graph) -> str | None:
    snt = g.metadata.get("snt") if g.metadata else None
    return snt if snt else (g.text or None)


def amr_study(gold: str, systems: Sequence[str], names: Sequence[str] | None = None, *,
              config: "AlignConfig | None" = None, executor=None, format: str | None = None,
              progress: Callable[[int], None] | None = None,
              keep: frozenset[str] = NON_INVERTED_OF) -> AmrStudy:
    """Score ``gold`` against every file of ``systems`` and describe every pair for display
    (see :class:`AmrStudy`).  Files are PENMAN or MRP (``format`` or guessed); standard
    input cannot be read twice and is refused."""
    from .amr import iter_amr_graphs, smatch_files

    if "-" in (gold, *systems):
        raise InputError("the report reads its inputs twice: give files, not '-' (standard input)")
    names = list(names) if names is not None else [str(s) for s in systems]
    results = [smatch_files(gold, s, config=config, executor=executor, format=format, keep_records=True,
                            progress=progress, keep=keep) for s in systems]
    study = AmrStudy(gold, list(systems), names, results)
    totals = [{t: [0, 0, 0] for t in TRIPLE_TYPES} for _ in systems]
    readers = [iter_amr_graphs(gold, format)] + [iter_amr_graphs(s, format) for s in systems]
    no_sentence = False
    for k, graphs in enumerate(zip(*readers)):
        g = graphs[0]
        gv = graph_view(g, keep)
        snt = _sentence(g)
        if snt is None:
            snt = next((_sentence(s) for s in graphs[1:] if _sentence(s)), None)
        no_sentence = no_sentence or snt is None
        pair = {"id": results[0].ids[k] if results[0].ids[k] is not None else g.id, "snt": snt,
                "len": len(snt.split()) if snt else sum(c is not None for c in gv["c"]),
                "g": gv, "s": [], "m": [], "k": []}
        for x, s in enumerate(graphs[1:]):
            sv = graph_view(s, keep)
            record = results[x].records[k]
            mapping = _positions(gv["v"], record["mapping"], sv["v"])
            gm, sm, counts = alignment_marks(gv, sv, mapping, keep)
            _add_system(pair, totals[x], sv, mapping, gm, sm, counts)
        study.pairs.append(pair)
    if no_sentence:
        study.length_unit = "concepts"
        for pair in study.pairs:
            pair["len"] = sum(c is not None for c in pair["g"]["c"])
    study.by_type = [{t: tuple(c) for t, c in tot.items()} for tot in totals]
    from ..align import AlignConfig
    from ..runtime.executor import SerialExecutor

    # the fine-grained subscores (amr-evaluation's eight), beside Smatch
    study.subscores = [_subscores(gold, s, config or AlignConfig(), executor or SerialExecutor(), format)
                       for s in systems]
    return study


# ------------------------------------------------------------------ MRP graphs

MRP_TYPES = ("labels", "properties", "edges", "tops", "anchors", "attributes")
"""The MRP tuple types, in the order of the report's table (marks follow the view order)."""


def mrp_view(graph: Graph | None, normalize: frozenset[str] | None = None) -> dict:
    """An MRP graph as written, in the layout of :func:`graph_view` (``v`` node ids, ``c``
    labels, ``a`` properties, ``e`` edges ``[source, label, target, turned, counted label]``,
    ``t`` tops) plus ``x`` every node's anchors (``[[start, end], ...]`` or None), ``txt``
    the sentence and ``fw`` the framework.  ``None`` (no system graph): an empty view.
    ``normalize``: the MRP normalizations of the score (``None``: all)."""
    from ..features.mrp_tuples import Normalizer

    normalizer = Normalizer.of(normalize)
    if graph is None:
        return {"v": [], "c": [], "a": [], "e": [], "t": [], "x": [], "txt": None, "fw": None}
    index = {v: i for i, v in enumerate(graph.nodes)}
    view = {"v": [str(v) for v in graph.nodes], "c": [n.label for n in graph.nodes.values()], "a": [], "e": [],
            "t": [index[t] for t in graph.tops if t in index], "txt": graph.text, "fw": graph.framework,
            "x": [[[a.start, a.end] for a in n.anchors] if n.anchors else None for n in graph.nodes.values()]}
    for i, node in enumerate(graph.nodes.values()):
        for p in node.properties:
            view["a"].append([i, str(p.key), str(p.value)])
    for e in graph.edges:
        if e.source not in index or e.target not in index:
            continue
        s, _, lab = normalizer.edge(graph.framework, e)
        label = e.label if e.label is not None else ""
        view["e"].append([index[e.source], label, index[e.target], int(s != e.source), lab or ""])
    return view


def mrp_marks(gold: Graph, system: Graph | None, mapping: Sequence[int],
              normalize: frozenset[str] | None = None) -> tuple[str, str, dict]:
    """Marks of two MRP graph views under ``mapping`` (labels, properties, edges, tops,
    anchors: one character per element in view order, as :func:`alignment_marks`), and
    per tuple type the (matched, gold, system) counts of the MRP metric (under ``normalize``,
    ``None``: all)."""
    from ..features.mrp_tuples import Normalizer, mrp_tuples, norm
    from ..metrics.mrp.mrp import match_counts

    normalizer = Normalizer.of(normalize)
    ta = mrp_tuples(gold, normalize)
    tb = mrp_tuples(system if system is not None else Graph(id=gold.id, framework=gold.framework), normalize)
    inverse = [-1] * tb.n
    for i, j in enumerate(mapping):
        if j >= 0:
            inverse[j] = i

    def marks(graph: Graph | None, t, other, m) -> str:
        if graph is None:
            return ""
        index = {v: i for i, v in enumerate(graph.nodes)}
        out = []
        for i, lab in enumerate(t.labels):
            out.append("-" if lab is None else "1" if m[i] >= 0 and other.labels[m[i]] == lab else "0")
        for i, node in enumerate(graph.nodes.values()):
            for p in node.properties:
                out.append("1" if m[i] >= 0 and (normalizer.name(p.key), norm(p.value)) in other.properties[m[i]]
                           else "0")
        for e in graph.edges:
            if e.source not in index or e.target not in index:
                continue
            s, o, lab = normalizer.edge(graph.framework, e)
            si, oi = m[index[s]], m[index[o]]
            out.append("1" if si >= 0 and oi >= 0 and (si, oi, lab) in other.edges else "0")
        for v in graph.tops:
            if v in index:
                out.append("1" if m[index[v]] >= 0 and m[index[v]] in other.tops else "0")
        for i, a in enumerate(t.anchors):
            out.append("-" if a is None else "1" if m[i] >= 0 and other.anchors[m[i]] == a else "0")
        return "".join(out)

    counts = match_counts(ta, tb, list(mapping))
    return (marks(gold, ta, tb, list(mapping)), marks(system, tb, ta, inverse),
            {k: (c.c, c.g, c.s) for k, c in counts.items()})


def _score_mrp_chunk(task: tuple) -> list:
    """Worker: the MRP score of every pair of a chunk, with its node mapping."""
    from ..metrics.mrp.mrp import score_graph

    pairs, config, normalize = task
    out = []
    for gold, system in pairs:
        gs = score_graph(gold, system, config, normalize)
        gs.seconds = 0.0
        out.append(gs)
    return out


def mrp_study(gold: str, systems: Sequence[str], names: Sequence[str] | None = None, *,
              config: "AlignConfig | None" = None, executor=None, format: str | None = None,
              frameworks: Sequence[str] | None = None, normalize: frozenset[str] | None = None) -> AmrStudy:
    """MRP graphs (any format :mod:`mrkit.pipeline.mrp` reads) scored by the MRP metric
    against every system, paired by (framework, id) in gold order (a missing system graph
    is empty), each pair described for display with its anchors (see :func:`mrp_view`).
    ``normalize``: the MRP normalizations that apply (``None``: all)."""
    from ..aggregate.corpus import Collector
    from ..aggregate.resampling import prf_reduce
    from . import chunked
    from .mrp import chunk_size, pairs_of, read_side, record

    config, executor, names = _prepared(gold, systems, names, config, executor)
    golds = read_side(gold, format)
    results, scored, paired = [], [], []
    for path in systems:
        pairs, unpaired = pairs_of(golds, read_side(path, format), frameworks)
        if not pairs:
            raise InputError("no gold graph to score (none of the chosen frameworks?)", gold)
        col = Collector("mrp", prf_reduce, 3, certified=True, keep_records=True)
        graphs = []
        tasks = ((chunk, config, normalize)
                 for chunk in chunked(pairs, chunk_size(len(pairs), getattr(executor, "workers", 1))))
        for out in executor.map(_score_mrp_chunk, tasks):
            for gs in out:
                col.add(gs.id, gs.all.row(), gs.certified, record(gs))
                graphs.append(gs)
        results.append(col.result({"unpaired_system": unpaired}))
        scored.append(graphs)
        paired.append(pairs)
    study = AmrStudy(gold, list(systems), names, results, family="mrp", metric="MRP", length_unit="tokens")
    totals = [{t: [0, 0, 0] for t in MRP_TYPES} for _ in systems]
    for k, (g, _) in enumerate(paired[0]):
        gv = mrp_view(g, normalize)
        snt = g.text
        pair = {"id": f"{g.framework} {g.id}" if g.framework else g.id, "snt": snt,
                "len": len(snt.split()) if snt else len(g.nodes), "g": gv, "s": [], "m": [], "k": []}
        for x in range(len(systems)):
            s = paired[x][k][1]
            sv = mrp_view(s, normalize)
            mapping = _positions(g.nodes, scored[x][k].mapping, sv["v"], str)
            gm, sm, counts = mrp_marks(g, s, mapping, normalize)
            _add_system(pair, totals[x], sv, mapping, gm, sm, counts)
        study.pairs.append(pair)
    if any(p["snt"] is None for p in study.pairs):
        study.length_unit = "nodes"
        for p in study.pairs:
            p["len"] = len(p["g"]["v"])
    study.by_type = [{t: tuple(c) for t, c in tot.items()} for tot in totals]
    return study


# ------------------------------------------------------------------ document graphs

def _score_document_chunk(task: tuple) -> list:
    """Worker: document Smatch of a chunk of (index, gold, system), with the node mapping."""
    from ..metrics.document.docsmatch import docsmatch_pair

    config, chunk = task
    return [docsmatch_pair(g, s, config, k) for k, g, s in chunk]


def document_study(gold: str, systems: Sequence[str], names: Sequence[str] | None = None, *,
                   config: "AlignConfig | None" = None, executor=None,
                   format: str | None = None) -> AmrStudy:
    """Document graphs (PENMAN with provenance, as ``mrkit docsmatch`` reads them) scored by
    document Smatch against every system, paired in order, each pair described for display
    like a sentence pair (:func:`graph_view`, :func:`alignment_marks`); ``detail`` of each
    result holds the coreference and reentrancy subscores summed over the documents."""
    from ..aggregate.corpus import Collector
    from ..aggregate.resampling import prf_reduce
    from ..metrics.document.docsmatch import COREF_PARTS, Subscore
    from . import chunked
    from .document import pair_in_order, read_documents

    config, executor, names = _prepared(gold, systems, names, config, executor)
    results = []
    for path in systems:
        col = Collector("docsmatch", prf_reduce, 3, certified=True, keep_records=True)
        sums = {k: Subscore() for k in ("coref", "reentrancy", *COREF_PARTS)}
        pairs = pair_in_order(read_documents(gold, format), read_documents(path, format), gold, path)
        for out in executor.map(_score_document_chunk, ((config, c) for c in chunked(pairs, 1))):
            for p in out:
                col.add(p.id, (p.matched, p.gold, p.system), p.certified, {**p.to_dict(), "mapping": p.mapping})
                sums["coref"].add(p.coref)
                sums["reentrancy"].add(p.reentrancy)
                for k in COREF_PARTS:
                    sums[k].add(p.coref_parts[k])
        results.append(col.result({k: v.to_dict() for k, v in sums.items()}))
    study = AmrStudy(gold, list(systems), names, results, family="document", metric="document Smatch",
                     length_unit="concepts")
    totals = [{t: [0, 0, 0] for t in TRIPLE_TYPES} for _ in systems]
    readers = [read_documents(gold, format)] + [read_documents(s, format) for s in systems]
    for k, graphs in enumerate(zip(*readers)):
        g = graphs[0]
        gv = graph_view(g)
        pair = {"id": results[0].ids[k] if results[0].ids[k] is not None else g.id, "snt": None,
                "len": sum(c is not None for c in gv["c"]), "g": gv, "s": [], "m": [], "k": []}
        for x, s in enumerate(graphs[1:]):
            sv = graph_view(s)
            rec = results[x].records[k]
            mapping = _positions(gv["v"], rec["mapping"], sv["v"])
            gm, sm, counts = alignment_marks(gv, sv, mapping)
            _add_system(pair, totals[x], sv, mapping, gm, sm, counts)
        study.pairs.append(pair)
    study.by_type = [{t: tuple(c) for t, c in tot.items()} for tot in totals]
    return study
