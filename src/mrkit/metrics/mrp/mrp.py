"""The MRP metric of the CoNLL 2019/2020 shared tasks, on the shared alignment engine.

Gold and system graphs are paired by (framework, id); a missing system graph scores as
an empty graph.  Each graph becomes its normalized tuples (:mod:`.mrp_tuples`): tops,
labels, properties, anchors (node-local, unary features of the engine), edges and edge
attributes (labelled edges of the engine).  The node correspondence that matches the
most tuples in total is found by :func:`mrkit.align.align`:

1. the heuristic search on the whole problem; when it reaches the upper bound, the
   graph is certified optimal;
2. otherwise, *seed*: for anchored and bi-lexical graphs, the problem restricted to node
   pairs whose anchors (or, for unanchored nodes such as UCCA units, yields) overlap is
   searched too: in bi-lexical graphs every node is a token, so this pairs tokens in
   their order; the better mapping starts
3. *prove*: the exact ILP on the unrestricted problem, so that the certificate holds for
   the metric itself, not only for the restricted search space.  A graph not proven
   within the ILP time limit reports its upper bound.

Reported per tuple type, and "all" (counts summed over types): precision, recall, F1,
per framework and over all frameworks; per graph the counts and whether the alignment
is certified optimal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

import numpy as np

from ...align import AlignConfig, align, build_problem, pair_budget
from ...errors import InputError
from ...model.graph import Graph
from ...aggregate.counts import Counts
from ...features.mrp_tuples import TUPLE_TYPES, MRPTuples, mrp_tuples

ALL = "all"


# ------------------------------------------------------------------ pairing

def _key(g: Graph) -> tuple[str, str]:
    return (g.framework or "", str(g.id))


def pair_graphs(golds: Sequence[Graph], systems: Sequence[Graph]) -> tuple[list[tuple[Graph, Graph | None]], int]:
    """Pair gold and system graphs by (framework, id), in gold order.

    Returns the pairs (system ``None`` when missing) and the number of system graphs with
    no gold graph.  A (framework, id) that occurs twice in one file is an input error.
    """
    def index(graphs: Sequence[Graph]) -> dict[tuple[str, str], Graph]:
        out: dict[tuple[str, str], Graph] = {}
        for g in graphs:
            k = _key(g)
            if k in out:
                raise InputError(f"duplicate {k[0] or 'graph'} id {k[1]!r} "
                                 f"(first at line {out[k].source_line})",
                                 g.source_file, g.source_line, g.id)
            out[k] = g
        return out

    gold_index = index(golds)
    sys_index = index(systems)
    pairs = [(g, sys_index.get(k)) for k, g in gold_index.items()]
    extra = sum(1 for k in sys_index if k not in gold_index)
    return pairs, extra


# ------------------------------------------------------------------ one graph

@dataclass
class GraphScore:
    """The MRP score of one gold graph and its system graph."""

    framework: str
    id: str
    counts: dict[str, Counts]
    certified: bool
    bound: float
    """Upper bound on the total number of matched tuples (equals it when certified)."""
    method: str
    missing: bool = False
    """No system graph with this (framework, id): scored as empty."""
    seconds: float = 0.0
    """Wall-clock time of the pair (never part of a report)."""
    mapping: dict[str, str | None] = field(default_factory=dict, repr=False)

    @property
    def all(self) -> Counts:
        return Counts.total(self.counts.values())

    @property
    def f1_bound(self) -> float:
        a = self.all
        return 2 * self.bound / (a.g + a.s) if a.g + a.s else 1.0

    def to_dict(self) -> dict:
        d = {"framework": self.framework, "id": self.id}
        d.update({k: v.to_dict() for k, v in self.counts.items()})
        d[ALL] = self.all.to_dict()
        # no wall-clock seconds: a report is the same bytes on every run (issue 12, item 15)
        d.update(certified=self.certified, bound=self.bound, method=self.method, missing=self.missing)
        return d


def match_counts(a: MRPTuples, b: MRPTuples, mapping: np.ndarray) -> dict[str, Counts]:
    """Per tuple type: gold, system and matched counts under a node mapping."""
    m = [int(j) for j in mapping] if len(mapping) else []
    ga, gb = a.counts(), b.counts()
    c = dict.fromkeys(TUPLE_TYPES, 0)
    for i, j in enumerate(m):
        if j < 0:
            continue
        c["tops"] += i in a.tops and j in b.tops
        c["labels"] += a.labels[i] is not None and a.labels[i] == b.labels[j]
        c["properties"] += len(a.properties[i] & b.properties[j])
        c["anchors"] += a.anchors[i] is not None and a.anchors[i] == b.anchors[j]
    for s, t, lab in a.edges:
        if m[s] >= 0 and m[t] >= 0:
            c["edges"] += (m[s], m[t], lab) in b.edges
    for s, t, lab, k, v in a.attributes:
        if m[s] >= 0 and m[t] >= 0:
            c["attributes"] += (m[s], m[t], lab, k, v) in b.attributes
    return {k: Counts(ga[k], gb[k], int(c[k])) for k in TUPLE_TYPES}


def _spans(t: MRPTuples) -> list[frozenset[int]]:
    """Anchor positions of every node; an unanchored node gets the union of its children's
    (over non-remote edges), as the yield of a UCCA unit."""
    remote = {(s, o) for s, o, _lab, k, v in t.attributes if k == "remote" and v == "true"}
    children: list[list[int]] = [[] for _ in range(t.n)]
    for s, o, _lab in t.edges:
        if s != o and (s, o) not in remote:
            children[s].append(o)
    memo: list[frozenset[int] | None] = [None] * t.n
    for root in range(t.n):
        if memo[root] is not None:
            continue
        stack, on_path = [(root, False)], set()
        while stack:
            v, done = stack.pop()
            if done:
                acc = set(t.anchors[v] or ())
                if not acc:
                    for c in children[v]:
                        acc |= memo[c] or frozenset()
                memo[v] = frozenset(acc)
                on_path.discard(v)
                continue
            if memo[v] is not None or v in on_path:
                continue
            on_path.add(v)
            stack.append((v, True))
            if t.anchors[v] is None:
                stack.extend((c, False) for c in children[v] if memo[c] is None and c not in on_path)
    return [x or frozenset() for x in memo]


def candidate_pairs(a: MRPTuples, b: MRPTuples) -> np.ndarray | None:
    """Node pairs whose anchors (or yields) overlap, and unanchored pairs; ``None`` when
    neither graph is anchored."""
    if all(x is None for x in a.anchors) and all(x is None for x in b.anchors):
        return None
    sa, sb = _spans(a), _spans(b)
    # positions, or (from, to) spans of graphs without a text (never expanded per character)
    positions = sorted(set().union(*sa, *sb), key=lambda p: (isinstance(p, tuple), p))
    col = {p: k for k, p in enumerate(positions)}
    A = np.zeros((a.n, len(positions)), dtype=np.float32)
    B = np.zeros((b.n, len(positions)), dtype=np.float32)
    for i, s in enumerate(sa):
        A[i, [col[p] for p in s]] = 1
    for j, s in enumerate(sb):
        B[j, [col[p] for p in s]] = 1
    allowed = (A @ B.T) > 0
    allowed |= np.outer(A.sum(1) == 0, B.sum(1) == 0)
    return allowed


def score_graph(gold: Graph, system: Graph | None, config: AlignConfig = AlignConfig(),
                normalize: frozenset[str] | None = None) -> GraphScore:
    """MRP score of one pair (``system=None``: the system graph is missing).  ``normalize``:
    the normalizations that apply (:data:`mrkit.features.mrp_tuples.NORMALIZATIONS`;
    ``None``: all)."""
    import time

    t0 = time.perf_counter()
    missing = system is None
    if system is None:
        system = Graph(id=gold.id, framework=gold.framework, text=gold.text)
    ta, tb = mrp_tuples(gold, normalize), mrp_tuples(system, normalize)
    fa, fb = ta.features(), tb.features()
    problem = build_problem(fa, fb)
    search = replace(config, exact="never")
    budget = pair_budget(config)  # --time-limit bounds the three searches together
    res = align(problem, search, budget=budget)
    if not res.certified and config.exact != "never":
        start = res.mapping
        allowed = candidate_pairs(ta, tb)
        if allowed is not None:
            seed = align(build_problem(fa, fb, allowed), search, budget=budget).mapping
            if problem.score(seed) > res.score:
                start = seed
        res = align(problem, config, start, budget=budget)
    counts = match_counts(ta, tb, res.mapping)
    mapping = {ta.ids[i]: (tb.ids[j] if j >= 0 else None) for i, j in enumerate(res.mapping)}
    return GraphScore(gold.framework or "", str(gold.id), counts, res.certified, res.bound,
                      res.method, missing, time.perf_counter() - t0, mapping)


# ------------------------------------------------------------------ corpus

@dataclass
class MRPResult:
    """MRP scores of a corpus: per graph, per framework and overall."""

    graphs: list[GraphScore]
    unpaired_system: int = 0
    """System graphs with no gold graph (ignored, as in mtool)."""

    @property
    def frameworks(self) -> list[str]:
        return list(dict.fromkeys(g.framework for g in self.graphs))

    def select(self, framework: str | None = None) -> list[GraphScore]:
        return [g for g in self.graphs if framework is None or g.framework == framework]

    def totals(self, framework: str | None = None) -> dict[str, Counts]:
        """Counts per tuple type and "all" (over one framework, or over all)."""
        out = {k: Counts() for k in TUPLE_TYPES}
        for g in self.select(framework):
            for k, c in g.counts.items():
                out[k].add(c)
        out[ALL] = Counts.total(out[k] for k in TUPLE_TYPES)
        return out

    def summary(self, framework: str | None = None) -> dict:
        graphs = self.select(framework)
        totals = self.totals(framework)
        a = totals[ALL]
        bound = sum(g.bound for g in graphs)
        d = {
            "n": len(graphs),
            "missing": sum(g.missing for g in graphs),
            "certified": sum(g.certified for g in graphs),
            "perfect": sum(g.all.perfect for g in graphs),
        }
        d.update({k: v.to_dict() for k, v in totals.items()})
        d["f1_upper_bound"] = 2 * bound / (a.g + a.s) if a.g + a.s else 1.0
        return d

    @property
    def certified(self) -> int:
        return sum(g.certified for g in self.graphs)

    def cross_framework(self) -> dict:
        """The official cross-framework score of the MRP shared tasks (Oepen et al. 2019,
        section 7: systems are ranked by it): the unweighted mean over the frameworks of
        their "all" precision, recall and F1 (each framework's counts pooled over its
        graphs), beside the pooled "all" of :meth:`summary`."""
        names = self.frameworks
        per = {f: self.totals(f)[ALL] for f in names}
        n = len(per)
        mean = (lambda xs: sum(xs) / n) if n else (lambda xs: 0.0)
        return {"frameworks": n, "precision": mean([c.p for c in per.values()]),
                "recall": mean([c.r for c in per.values()]), "f1": mean([c.f for c in per.values()])}

    def to_dict(self, per_graph: bool = False) -> dict:
        d = {"overall": self.summary(), "frameworks": {f: self.summary(f) for f in self.frameworks},
             "cross_framework": self.cross_framework(), "unpaired_system": self.unpaired_system}
        if per_graph:
            d["graphs"] = [g.to_dict() for g in self.graphs]
        return d


def mrp_score(
    golds: Sequence[Graph],
    systems: Sequence[Graph],
    config: AlignConfig = AlignConfig(),
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    frameworks: Iterable[str] | None = None,
    normalize: frozenset[str] | None = None,
) -> MRPResult:
    """Score system graphs against gold graphs with the MRP metric, in this process.

    ``frameworks``: only score gold graphs of these frameworks.  ``progress``: called with
    the number of graphs finished.  ``normalize``: the normalizations that apply (``None``:
    all; :func:`mrkit.features.mrp_tuples.parse_normalize`).  ``workers`` is ignored and deprecated (a metric does
    not choose its parallelism): to run pairs in worker processes, use
    :func:`mrkit.pipeline.mrp.score_pairs` with an executor.
    """
    pairs, extra = pair_graphs(golds, systems)
    if frameworks is not None:
        pairs = select_frameworks(pairs, frameworks)
    results = []
    for g, s in pairs:
        results.append(score_graph(g, s, config, normalize))
        if progress:
            progress(1)
    return MRPResult(results, extra)


KNOWN_FRAMEWORKS = ("amr", "ccd", "dm", "drg", "eds", "pas", "psd", "ptg", "ucca")
"""The MRP frameworks (CoNLL 2019/2020 and the SDP ones); ``--framework`` also accepts any
framework that occurs in the gold file."""


def check_frameworks(names: Iterable[str], golds: Sequence[Graph], file: str | None = None) -> list[str]:
    """``--framework`` names lower-cased; an unknown one is an :class:`InputError` listing the known ones."""
    present = {(g.framework or "").lower() for g in golds}
    out = []
    for name in names:
        key = name.lower()
        if key not in KNOWN_FRAMEWORKS and key not in present:
            known = ", ".join(sorted(set(KNOWN_FRAMEWORKS) | (present - {""})))
            raise InputError(f"unknown framework {name!r} (known: {known})", file)
        out.append(key)
    return out


def select_frameworks(pairs: list, frameworks: Iterable[str]) -> list:
    """The pairs whose gold graph has one of these frameworks (compared case-insensitively)."""
    keep = {f.lower() for f in frameworks}
    return [(g, s) for g, s in pairs if (g.framework or "").lower() in keep]
