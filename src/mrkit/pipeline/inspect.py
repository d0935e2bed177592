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
    """One gold file scored against several systems, pair by pair."""

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


def graph_view(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> dict:
    """A graph as written: ``v`` variables, ``c`` concepts (None without one), ``a``
    attributes ``[node, role, value]``, ``e`` edges ``[source, role, target, inverted]``
    (roles as written, ``ARG0-of`` kept; ``inverted`` 1 when Smatch counts the triple in the
    other direction), ``t`` top nodes (indices)."""
    index = {v: i for i, v in enumerate(graph.nodes)}
    view = {"v": list(graph.nodes), "c": [n.label for n in graph.nodes.values()], "a": [], "e": [], "t": []}
    for i, node in enumerate(graph.nodes.values()):
        for p in node.properties:
            view["a"].append([i, p.key.lstrip(":"), p.value])
    for e in graph.edges:
        view["e"].append([index[e.source], e.label.lstrip(":"), index[e.target], int(is_inverted(e.label, keep))])
    view["t"] = [index[t] for t in graph.tops if t in index]
    return view


def _keys(view: dict, keep: frozenset[str]) -> list[tuple | None]:
    """The Smatch triple of every element of a view (instances, attributes, edges, tops),
    over node indices; None for a node without a concept."""
    keys: list[tuple | None] = [("i", i, c.lower()) if c is not None else None for i, c in enumerate(view["c"])]
    keys += [("a", i, r.lower(), v.lower()) for i, r, v in view["a"]]
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
            index = {v: j for j, v in enumerate(sv["v"])}
            mapping = [index.get(record["mapping"].get(v), -1) if record["mapping"].get(v) is not None else -1
                       for v in gv["v"]]
            gm, sm, counts = alignment_marks(gv, sv, mapping, keep)
            for t, c in counts.items():
                for j in range(3):
                    totals[x][t][j] += c[j]
            pair["s"].append(sv)
            pair["m"].append(mapping)
            pair["k"].append([gm, sm])
        study.pairs.append(pair)
    if no_sentence:
        study.length_unit = "concepts"
        for pair in study.pairs:
            pair["len"] = sum(c is not None for c in pair["g"]["c"])
    study.by_type = [{t: tuple(c) for t, c in tot.items()} for tot in totals]
    return study
