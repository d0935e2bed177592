"""WWLK (Opitz et al. 2021): Wasserstein Weisfeiler-Leman kernel similarity.

On the labelled view (:mod:`mrkit.features.labelled`):

1. every node starts with the word vector of its label (:func:`node_vector`: senses
   removed, hyphen/underscore parts averaged, ``-`` read as "false-not-untrue", as in the
   reference);
2. k rounds: a node's vector becomes itself plus the mean, over its neighbour entries
   (one per neighbour and direction, outgoing and incoming), of the neighbour's vector
   times the product of the weights of the edges between them in that direction; each
   edge label has its own weight;
3. each node is the concatenation of its vectors of rounds 0..k, scaled to length 1;
4. the score is 1 - the Wasserstein distance (earth mover's distance, POT's network
   simplex) between the two node sets, uniform node weights, ground distance the
   *expected* Euclidean distance (below), clipped at 0 so that scores lie in [0, 1]
   (unit vectors can be up to 2 apart).

How the reference (flipz357/weisfeiler-leman-amr-metrics@51624e2, ``main_wlk_wasser.py``
and ``amr_similarity.py``) uses edge labels, as read for mrkit: ``AmrWasserPreProcessor``
gives every distinct edge label of the corpus one scalar parameter, drawn uniformly from
[0.2, 0.35] (``-random_init_relation``: ``min_entropy``, the default, keeps the one of ten
such draws that makes the parameters least uniform, so a label's weight depends on the
labels seen before it in the corpus; ``random_uniform`` takes one draw; ``ones`` gives 1,
as ``wwlk-k3e2n`` does); ``NodeDistanceMatrixGenerator._communicate_node`` multiplies a
neighbour's vector by the parameters of all edges to it (step 2).  Labels without a word
vector get random vectors in [-0.05, 0.05].  Opitz & Frank (2022, "Better Smatch = better
parser?", section 3.2.2) make the metric reproducible by computing "the *expected*
distance matrix before Wasserstein metric calculation": the reference's
``-stability_level n`` averages the node distance matrices of n + 1 independent draws of
all random vectors and edge weights, then solves one transport problem on the mean.

mrkit computes that expected distance matrix deterministically: ``DRAWS`` = 16 draws (the
reference's ``-stability_level 15``) taken from generators seeded by a hash (BLAKE2b) of
each label: a label without a word vector has 16 vectors uniform in [-0.05, 0.05]
(:func:`oov_vectors`); an edge label has 16 weights, one in each sixteenth of [0.2, 0.35]
in a seeded order (:func:`edge_weights`, a Latin hypercube over the labels: the uniform
distribution of ``random_uniform``; ``min_entropy``'s dependence on the corpus order is
not reproduced, so a pair's score does not depend on the other pairs).  The same label
has the same draws in every graph, file and run.  A pair in which nothing is random (all
labels have word vectors and the weights are fixed, or no edges) is computed in one draw.  Two equal
graphs score exactly 1 (each node is at distance 0 from its copy in every draw) without
being embedded; two different graphs need an n x m distance matrix, refused with an
:class:`~mrkit.errors.InputError` beyond ``MAX_CELLS`` entries.

A corpus is embedded in batches of pairs: one sparse product per round and draw for a
whole batch, every distinct graph of a batch embedded once, and the distance matrices of
all its pairs computed in one call of a small compiled kernel per draw
(:mod:`mrkit.metrics.amr._distances`; ``cdist`` per pair costs more in calls than in
arithmetic on sentence graphs).  The pairs stream (:func:`wwlk_stream`; ``mrkit score``
reads them from the files a batch at a time, :func:`wwlk_triple_batches`): since every
draw is seeded by its label, a pair's score depends neither on its batch nor on the rest
of the corpus.

A score is never made of numbers that went wrong: node vectors that overflow float64
(huge edge weights; the vectors readers refuse non-finite and huge word vectors) and a
transport problem POT does not solve to optimality are errors naming the pair's graph.

``wwlk``: k = 2 on the graph itself.  ``wwlk-k3e2n``: every labelled edge first becomes a
node labelled ``:role`` (Levi graph, :func:`mrkit.metrics.amr.wlk.levi_graph`), k = 3, every
edge weight 1 (the reference's ``-k 3 --edge_to_node_transform -random_init_relation
ones``).
"""

from __future__ import annotations

import _thread
import functools
import hashlib
import importlib
import importlib.util
import os
import re
import sys
import types
from typing import Sequence

import numpy as np

from ...codecs.vectors import Embeddings, get_embeddings
from ...errors import InputError
from ...model.graph import Graph
from ...features.labelled import LabelledGraph, check_pairs, labelled_graph
from .wlk import levi_graph
from ...aggregate.reducers import mean_reduce
from ..registry import register
from ..result import MEAN_COLUMNS, MetricScores, mean_scores

WEIGHT_LOW, WEIGHT_HIGH = 0.2, 0.35
"""The reference draws every edge label's weight uniformly from this interval."""

EDGE_WEIGHT = (WEIGHT_LOW + WEIGHT_HIGH) / 2
"""The mean edge weight (0.275); kept for callers that pass one weight for all labels."""

DIRECTIONS = ("both", "fromout", "fromin")
"""Where a node receives messages from (the reference's ``-communication_direction``)."""

DRAWS = 16
"""Draws over which the expected distance matrix is taken (the reference's
``-stability_level 15``: its first matrix and 15 more)."""

MAX_CELLS = 4_000_000
"""The largest node-distance matrix of a pair of different graphs (n x m entries; the
distance matrix, the transport plan and the network simplex's arcs take about 60 bytes
per entry, so at most about 250 MB)."""

_SENSE = re.compile(r"-[0-9]+")

BATCH = 128
"""Graph pairs embedded together (one sparse product per round for all of them; small
enough that the stacked matrices stay in the CPU cache)."""


def _normal(label: str) -> str:
    s = label.strip()
    if s == "-":
        s = "false-not-untrue"
    return _SENSE.sub("", s.replace('"', "").replace("'", "").lower()).replace(":", "")


def _words(s: str) -> list[str]:
    """The words of a normalised label whose vectors are averaged: its parts at ``-``,
    then at ``_``."""
    return s.split("-") + s.split("_") if "_" in s else s.split("-")


def label_words(label: str) -> list[str]:
    """Every word :func:`node_vector` may look up for ``label`` (the words a vectors file
    is read for): :func:`_words`, and the digits of a number."""
    s = _normal(label)
    return _words(s) + list(s) if s.isnumeric() else _words(s)


def _lookup(label: str, emb: Embeddings) -> np.ndarray | None:
    s = _normal(label)
    vecs = [v for v in map(emb.get, _words(s)) if v is not None]
    if not vecs and s.isnumeric():
        vecs = [v / (1 + i) for i, v in enumerate(emb.get(ch) for ch in s) if v is not None]
    return np.mean(vecs, axis=0) if vecs else None


def _rng(kind: str, label: str) -> np.random.Generator:
    seed = int.from_bytes(hashlib.blake2b(f"{kind}\0{label}".encode("utf-8", "surrogatepass"),
                                          digest_size=8).digest(), "little")
    return np.random.default_rng(seed)


def oov_vectors(label: str, dim: int, draws: int | None = None) -> np.ndarray:
    """The vectors of a label without a word vector in every draw (``draws`` x ``dim``,
    uniform in [-0.05, 0.05] like the reference's; seeded by the label: same label, same
    vectors)."""
    return _rng("oov", label).uniform(-0.05, 0.05, size=(draws or DRAWS, dim))


def oov_vector(label: str, dim: int) -> np.ndarray:
    """The vector of a label without a word vector in draw 0."""
    return oov_vectors(label, dim)[0]


def edge_weights(role: str, draws: int | None = None) -> np.ndarray:
    """The weight of an edge label in every draw: uniform in [0.2, 0.35] as in the
    reference, stratified (Latin hypercube: one draw in each of ``draws`` equal parts of
    the interval, in an order and at offsets seeded by the label)."""
    draws = draws or DRAWS
    rng = _rng("edge", role)
    strata = rng.permutation(draws)
    return WEIGHT_LOW + (WEIGHT_HIGH - WEIGHT_LOW) * (strata + rng.random(draws)) / draws


def node_vector(label: str, emb: Embeddings, dim: int, draw: int = 0) -> np.ndarray:
    v = _lookup(label, emb)
    return oov_vectors(label, dim)[draw] if v is None else np.asarray(v, dtype=np.float64)


def _dim(emb: Embeddings) -> int:
    for probe in ("dog", "the", "a"):
        v = emb.get(probe)
        if v is not None:
            return len(v)
    if getattr(emb, "dim", None):  # a vectors file read for a corpus's words only
        return emb.dim
    vectors = getattr(emb, "vectors", None)
    if vectors:
        return len(next(iter(vectors.values())))
    return 100


class _Overflow(ArithmeticError):
    """A node's vectors overflow float64 (``row``: its row in the stack)."""

    def __init__(self, row: int) -> None:
        super().__init__(row)
        self.row = row


class UnscoredPair(Exception):
    """A pair WWLK cannot score: ``index`` (the pair's position), ``side`` (0 the gold
    graph, 1 the system graph: the one at fault) and why (``detail``)."""

    def __init__(self, index: int, side: int, detail: str) -> None:
        super().__init__(index, side, detail)
        self.index, self.side, self.detail = index, side, detail

    def located(self, golds: Sequence[Graph], systems: Sequence[Graph]) -> InputError:
        """The error naming the graph's file, line and id."""
        g = (golds, systems)[self.side][self.index]
        return InputError(self.detail, getattr(g, "source_file", None), getattr(g, "source_line", None),
                          getattr(g, "id", None))


OVERFLOW = "WWLK's node vectors overflow float64 (the edge weights or word vectors are too large)"


class _Stack:
    """The draw-independent part of embedding many graphs together: their nodes
    stacked (graph i in rows ``bounds[i]:bounds[i + 1]``), one row per distinct label,
    and the neighbour entries of all nodes (see :func:`wl_embed_stack`)."""

    def __init__(self, graphs: Sequence[LabelledGraph], emb: Embeddings, dim: int,
                 edge_weight: float | None, cache: dict[str, np.ndarray],
                 direction: str = "both", role_weights: dict[str, float] | None = None) -> None:
        index: dict[str, int] = {}
        self.ids = np.asarray([index.setdefault(label, len(index)) for lg in graphs for label in lg.labels],
                              dtype=np.intp)
        self.total = total = len(self.ids)
        self.dim = dim
        self.table = np.zeros((len(index), dim), dtype=np.float64)
        oov_rows: list[int] = []
        oov_vecs: list[np.ndarray] = []
        self.cached = 0  # bytes added to the cache
        for label, i in index.items():
            v = cache.get(label)
            if v is None:
                v = _lookup(label, emb)
                v = cache[label] = oov_vectors(label, dim) if v is None else np.asarray(v, dtype=np.float64)
                self.cached += v.nbytes
            if v.ndim == 2:
                oov_rows.append(i)
                oov_vecs.append(v)
            else:
                self.table[i] = v
        # the rows of labels without a word vector, and their vectors: draw x row x dim
        self.oov_rows = np.asarray(oov_rows, dtype=np.intp)
        self.oov = np.stack(oov_vecs, axis=1) if oov_vecs else np.zeros((DRAWS, 0, dim))
        # neighbour entries: one per (node, neighbour, direction), the product of the
        # weights of the edges between them in that direction
        heads: list[int] = []
        tails: list[int] = []
        roles: list[str] = []
        offset = 0
        for lg in graphs:
            for s, r, t in lg.edges:
                heads.append(offset + s)
                tails.append(offset + t)
                roles.append(r)
            offset += len(lg.labels)
        S, T = np.asarray(heads, dtype=np.int64), np.asarray(tails, dtype=np.int64)
        # entries: a node receives from its out-neighbours ("fromout", first half) and
        # from its in-neighbours ("fromin", second half); "both" keeps both
        halves = {"both": (0, 1), "fromout": (0,), "fromin": (1,)}[direction]
        code = np.concatenate([((S * total + T) * 2, (T * total + S) * 2 + 1)[h] for h in halves])
        entry, inv = np.unique(code, return_inverse=True)
        self.order = np.argsort(inv, kind="stable")
        self.starts = np.searchsorted(inv[self.order], np.arange(len(entry)))
        pair = entry // 2
        self.src, self.dst = pair // total, pair % total
        count = np.bincount(self.src, minlength=total).astype(np.float64)
        count[count == 0] = 1.0
        self.scale = 1.0 / count[self.src]
        # the sparse matrix's structure: entries (v, u) of both directions summed into
        # one cell; ``pair`` is sorted, so the cells are in CSR order
        cell, self.cell_of = np.unique(pair, return_inverse=True)
        self.indices = (cell % total).astype(np.int32) if total < 2**31 else cell % total
        self.indptr = np.searchsorted(cell // total, np.arange(total + 1))
        self.n_cells = len(cell)
        self._fixed = None  # the matrix when the weights do not depend on the draw
        self._buffers: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        if edge_weight is not None:
            self.weights = None if not roles else np.full((len(halves) * len(roles), 1), float(edge_weight))
        else:
            role_ids: dict[str, int] = {}
            rid = np.asarray([role_ids.setdefault(r, len(role_ids)) for r in roles], dtype=np.intp)
            given = role_weights or {}
            if role_ids and all(r in given for r in role_ids):  # every weight given: no draws
                W = np.array([[float(given[r])] for r in role_ids])
            else:
                W = np.stack([np.full(DRAWS, float(given[r])) if r in given else edge_weights(r)
                              for r in role_ids]) if role_ids else np.zeros((0, DRAWS))
            self.weights = W[np.concatenate([rid] * len(halves))] if roles else None
        self.bounds = np.cumsum([0] + [len(lg.labels) for lg in graphs], dtype=np.int64)
        # graphs whose embedding differs between draws: with a label without a word
        # vector, or with an edge when the weights are drawn
        node_random = np.zeros(len(index), dtype=bool)
        node_random[self.oov_rows] = True
        node_random = node_random[self.ids]
        if self.weights is not None and self.weights.shape[1] > 1:
            node_random[S] = True
        counts = np.concatenate([[0], np.cumsum(node_random)])
        self.random = counts[self.bounds[1:]] > counts[self.bounds[:-1]]

    def embed(self, k: int, draw: int = 0) -> np.ndarray:
        """Rows: the unit-length concatenated vectors of rounds 0..k of every node, in
        draw ``draw`` of the out-of-vocabulary vectors and edge weights.  The matrix is
        this stack's buffer: the next call overwrites it."""
        from scipy.sparse import csr_matrix

        total, dim = self.total, self.dim
        table = self.table
        if len(self.oov_rows):
            table = table.copy()
            table[self.oov_rows] = self.oov[draw]
        W = None
        if self.weights is not None and len(self.starts):
            fixed = self.weights.shape[1] == 1
            W = self._fixed if fixed else None
            if W is None:
                w = self.weights[:, draw % self.weights.shape[1]]
                val = np.multiply.reduceat(w[self.order], self.starts) * self.scale
                data = np.bincount(self.cell_of, weights=val, minlength=self.n_cells)
                W = csr_matrix((data, self.indices, self.indptr), shape=(total, total))
                if fixed:
                    self._fixed = W
        # rounds 0..k and the result in buffers reused by every draw (fresh arrays of
        # this size cost more in page faults than in arithmetic)
        bufs = self._buffers.get(k)
        if bufs is None:
            bufs = self._buffers[k] = (np.empty((k + 1, total, dim)), np.empty((total, dim * (k + 1))))
        R, E = bufs
        np.take(table, self.ids, axis=0, out=R[0])
        for r in range(k):
            if W is not None:
                np.add(R[r], W @ R[r], out=R[r + 1])
            else:
                R[r + 1] = R[r]
        # each node: its rounds 0..k side by side, scaled to length 1
        norms = np.sqrt(np.einsum("rij,rij->i", R, R))
        if not np.isfinite(norms).all():  # huge edge weights: no unit vector to compare
            raise _Overflow(int(np.flatnonzero(~np.isfinite(norms))[0]))
        norms[norms == 0] = 1.0
        for r in range(k + 1):
            np.divide(R[r], norms[:, None], out=E[:, r * dim:(r + 1) * dim])
        return E


def wl_embed(lg: LabelledGraph, emb: Embeddings, dim: int, k: int, edge_weight: float | None,
             cache: dict[str, np.ndarray] | None = None, draw: int = 0) -> np.ndarray:
    """Rows: the unit-length concatenated vectors of rounds 0..k of every node (draw
    ``draw``; ``edge_weight`` None: the drawn per-label weights)."""
    return wl_embed_many([lg], emb, dim, k, edge_weight, cache, draw)[0]


def wl_embed_many(graphs: Sequence[LabelledGraph], emb: Embeddings, dim: int, k: int,
                  edge_weight: float | None, cache: dict[str, np.ndarray] | None = None,
                  draw: int = 0) -> list[np.ndarray]:
    """:func:`wl_embed` of many graphs at once (see :func:`wl_embed_stack`)."""
    E, bounds = wl_embed_stack(graphs, emb, dim, k, edge_weight, cache, draw)
    return [E[bounds[i]:bounds[i + 1]] for i in range(len(graphs))]


def wl_embed_stack(graphs: Sequence[LabelledGraph], emb: Embeddings, dim: int, k: int,
                   edge_weight: float | None, cache: dict[str, np.ndarray] | None = None,
                   draw: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The embeddings of many graphs stacked: (matrix, row offsets), graph i in rows
    ``bounds[i]:bounds[i + 1]``.  Their nodes are stacked into one matrix and their
    neighbourhoods into one block-diagonal sparse matrix, so each round is a single
    sparse product for all of them."""
    stack = _Stack(graphs, emb, dim, edge_weight, {} if cache is None else cache)
    return stack.embed(k, draw), stack.bounds


_EMD_LOCK = _thread.allocate_lock()


def _emd():
    """POT's network simplex ``(emd_c, check_result)``, imported on first use: alone
    (:func:`_import_emd_wrap_alone`) unless POT is already imported or that fails.  The
    lock makes threads scoring WWLK at once import it once."""
    with _EMD_LOCK:
        return _load_emd()


@functools.cache
def _load_emd():
    if "ot" not in sys.modules:
        try:
            wrap = _import_emd_wrap_alone()
            return wrap.emd_c, wrap.check_result
        except Exception:  # POT's layout changed (ImportError, AttributeError, ...): import it all
            pass
    from ot.lp.emd_wrap import check_result, emd_c

    return emd_c, check_result


def _import_emd_wrap_alone():
    """POT's compiled ``ot.lp.emd_wrap`` without running ``ot/__init__.py`` and
    ``ot/lp/__init__.py``: they import all of POT (scipy.stats, scipy.optimize, ...),
    about 50 MB of peak memory and 0.1 s of start-up that WWLK never uses.

    Relies on POT's layout (pinned in pyproject.toml): the extension is ``ot/lp/emd_wrap``
    and imports only ``ot.utils`` (and through it ``ot.backend``).  Empty stand-ins for
    the packages ``ot`` and ``ot.lp`` are in ``sys.modules`` only during this import; then
    they and every ``ot.*`` module it added are removed, so a later ``import ot`` runs
    POT's own ``__init__`` files as usual (the extension, built by Cython, gives back the
    same module object when imported again, and is then bound as ``ot.lp.emd_wrap``).
    Another thread importing POT during those milliseconds would see the stand-ins.
    """
    root = importlib.util.find_spec("ot").submodule_search_locations  # None: not a package
    before = set(sys.modules)
    for name, path in (("ot", list(root)), ("ot.lp", [os.path.join(p, "lp") for p in root])):
        stub = types.ModuleType(name)
        stub.__path__ = path
        sys.modules[name] = stub
    try:
        return importlib.import_module("ot.lp.emd_wrap")
    finally:
        for name in set(sys.modules) - before:
            if name == "ot" or name.startswith("ot."):
                del sys.modules[name]


class _Unsolved(ArithmeticError):
    """POT's network simplex did not end optimal (the message says why)."""


def _transport_similarity(M: np.ndarray) -> float:
    """1 - the earth mover's distance between two uniform node sets with ground
    distances ``M`` (C-contiguous, finite), clipped to [0, 1].  :class:`_Unsolved` when
    the network simplex does not find the optimum (never a score from a failed solve)."""
    n, m = M.shape
    if n == 0 or m == 0:
        return 1.0 if n == m else 0.0
    if not np.isfinite(M).all():
        raise ValueError("the ground distances must be finite numbers")
    emd_c, check_result = _emd()
    a = np.full(n, 1.0 / n)
    b = np.full(m, 1.0 / m)
    # uniform marginals by construction and no use of the duals: call POT's network
    # simplex directly (ot.emd2's backend and marginal checks cost more than the solve
    # on graphs this small); if it stops at its iteration limit, once more with a limit
    # that grows with the problem (bounded by MAX_CELLS)
    _plan, d, _u, _v, code = emd_c(a, b, M, 100000, 1)
    if code == 3:  # MAX_ITER_REACHED
        _plan, d, _u, _v, code = emd_c(a, b, M, max(100000, 100 * n * m), 1)
    message = check_result(code)
    if message is not None:
        raise _Unsolved(f"the transport problem of WWLK was not solved: {message}")
    return min(1.0, max(0.0, 1.0 - float(d)))


def _distances_flat(A: np.ndarray, B: np.ndarray, a_rows: np.ndarray, b_rows: np.ndarray) -> np.ndarray:
    from ._distances import pairwise

    A = np.ascontiguousarray(A, dtype=np.float64)
    B = np.ascontiguousarray(B, dtype=np.float64)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[1]:
        raise ValueError(f"A and B must be matrices with as many columns, got {A.shape} and {B.shape}")
    a_rows = np.asarray(a_rows, dtype=np.int64).reshape(-1, 2)
    b_rows = np.asarray(b_rows, dtype=np.int64).reshape(-1, 2)
    sizes = (a_rows[:, 1] - a_rows[:, 0]) * (b_rows[:, 1] - b_rows[:, 0])
    flat = np.empty(int(sizes.sum()))
    pairwise(A, B, A.shape[1], np.ascontiguousarray(a_rows[:, 0]), np.ascontiguousarray(a_rows[:, 1]),
             np.ascontiguousarray(b_rows[:, 0]), np.ascontiguousarray(b_rows[:, 1]), len(sizes), flat)
    return flat


def _split(flat: np.ndarray, a_rows: np.ndarray, b_rows: np.ndarray) -> list[np.ndarray]:
    a_rows = np.asarray(a_rows, dtype=np.int64).reshape(-1, 2)
    b_rows = np.asarray(b_rows, dtype=np.int64).reshape(-1, 2)
    na, nb = a_rows[:, 1] - a_rows[:, 0], b_rows[:, 1] - b_rows[:, 0]
    sizes = na * nb
    starts = (np.cumsum(sizes) - sizes).tolist()
    return [flat[o:o + s].reshape(n, m) for o, s, n, m in
            zip(starts, sizes.tolist(), na.tolist(), nb.tolist())]


def distance_matrices(A: np.ndarray, B: np.ndarray, a_rows: np.ndarray,
                      b_rows: np.ndarray) -> list[np.ndarray]:
    """Euclidean distance matrices of many pairs of node sets in one compiled call.

    Pair p is rows ``a_rows[p, 0]:a_rows[p, 1]`` of ``A`` against rows
    ``b_rows[p, 0]:b_rows[p, 1]`` of ``B`` (``scipy.spatial.distance.cdist`` of each,
    up to the order of summation)."""
    return _split(_distances_flat(A, B, a_rows, b_rows), a_rows, b_rows)


def wasserstein_similarity(A: np.ndarray, B: np.ndarray) -> float:
    """1 - the Wasserstein distance of two node sets (rows), clipped to [0, 1]
    (``ValueError`` when a distance is not a finite number)."""
    M = distance_matrices(A, B, [[0, len(A)]], [[0, len(B)]])[0]
    try:
        return _transport_similarity(M)
    except _Unsolved as exc:
        raise ValueError(str(exc)) from None


def wwlk_pair(gold: Graph, system: Graph, emb: Embeddings, k: int = 2, edge_to_node: bool = False,
              edge_weight: float | None = None, dim: int | None = None,
              cache: dict[str, np.ndarray] | None = None) -> float:
    return wwlk_scores([gold], [system], emb, k, edge_to_node, edge_weight, dim, cache)[0]


def _too_large(n: int, m: int) -> str:
    return (f"WWLK would need a {n} x {m} node distance matrix (at most {MAX_CELLS:,} "
            "entries for two different graphs)")


def _key(lg: LabelledGraph) -> tuple:
    """Two views with the same key have the same embedding (same labels and edges, in
    the same order)."""
    return tuple(lg.labels), tuple(lg.edges)


def _nodes(lg: LabelledGraph, edge_to_node: bool) -> int:
    """The nodes WWLK embeds of ``lg`` (the Levi graph has a node more per edge)."""
    return len(lg.labels) + (len(lg.edges) if edge_to_node else 0)


CACHE_BYTES = 4 << 20
"""The label cache (word vectors and drawn vectors of the labels met) is emptied when it
has grown by this much: memory does not grow with a corpus's vocabulary (its values do
not depend on when they are computed)."""


def wwlk_stream(pairs, emb: Embeddings, k: int = 2, edge_to_node: bool = False,
                edge_weight: float | None = None, dim: int | None = None,
                cache: dict[str, np.ndarray] | None = None, direction: str = "both",
                role_weights: dict[str, float] | None = None):
    """WWLK of pairs of labelled views ``(gold, system)`` (an iterable, read as it goes),
    yielded in order: the pairs of two different graphs are embedded ``BATCH`` at a time
    (a batch is the next ``BATCH`` such pairs, whatever comes between, and a pair's score
    does not depend on its batch: the draws are seeded by the labels); a pair of two equal
    graphs scores 1 without being embedded (every node is at expected distance 0 from its
    copy).  Memory: one batch, and the scores of the pairs since the last one.  A pair
    that cannot be scored (too large, overflowing node vectors, an unsolved transport
    problem) raises :class:`UnscoredPair` when its batch is reached."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}, not {direction!r}")
    w = edge_weight if edge_weight is not None else (1.0 if edge_to_node else None)
    d = dim or _dim(emb)
    cache = {} if cache is None else cache
    grown = 0
    pending: list[float | None] = []  # the scores since the last batch (None: in the batch)
    batch: list[tuple] = []
    for index, (a, b) in enumerate(pairs):
        ka, kb = _key(a), _key(b)
        if ka == kb:
            pending.append(1.0)
            continue
        n, m = _nodes(a, edge_to_node), _nodes(b, edge_to_node)
        if n * m > MAX_CELLS:
            raise UnscoredPair(index, 0, _too_large(n, m))
        pending.append(None)
        batch.append((index, ka, kb, a, b))
        if len(batch) == BATCH:
            if grown > CACHE_BYTES:
                cache.clear()
                grown = 0
            scores, added = _batch_scores(batch, emb, d, k, edge_to_node, w, cache, direction, role_weights)
            grown += added
            it = iter(scores)
            yield from (next(it) if x is None else x for x in pending)
            pending, batch = [], []
    if batch:
        scores, _ = _batch_scores(batch, emb, d, k, edge_to_node, w, cache, direction, role_weights)
        it = iter(scores)
        pending = [next(it) if x is None else x for x in pending]
    yield from pending


def _batch_scores(batch: list[tuple], emb: Embeddings, d: int, k: int, edge_to_node: bool,
                  w: float | None, cache: dict, direction: str,
                  role_weights: dict[str, float] | None) -> tuple[list[float], int]:
    """The scores of a batch of pairs ``(index, gold key, system key, gold view, system
    view)`` of different graphs, and the bytes added to ``cache``.  Every distinct graph
    of the batch is embedded once: one sparse product per round and draw for all of
    them, the distance matrices of all pairs in one compiled call per draw."""
    size = len(batch)
    keys = [p[1] for p in batch] + [p[2] for p in batch]
    slot: dict[tuple, int] = {}
    distinct: list[LabelledGraph] = []
    for key, g in zip(keys, [p[3] for p in batch] + [p[4] for p in batch]):
        if key not in slot:
            slot[key] = len(distinct)
            distinct.append(levi_graph(g) if edge_to_node else g)
    stack = _Stack(distinct, emb, d, w, cache, direction, role_weights)
    pos = np.array([slot[key] for key in keys], dtype=np.int64)

    def at_fault(row: int) -> UnscoredPair:
        j = int(np.searchsorted(stack.bounds, row, side="right")) - 1
        first = int(np.flatnonzero(pos == j)[0])
        return UnscoredPair(batch[first % size][0], first // size, OVERFLOW)

    rows = np.stack([stack.bounds[pos], stack.bounds[pos + 1]], axis=1)
    a_rows, b_rows = rows[:size], rows[size:]
    # pairs whose embeddings are the same in every draw need draw 0 only
    rand = np.flatnonzero(stack.random[pos[:size]] | stack.random[pos[size:]])
    try:
        E = stack.embed(k, 0)
        flat = _distances_flat(E, E, a_rows, b_rows)
        mats = _split(flat, a_rows, b_rows)
        if len(rand):
            acc = None
            for r in range(1, DRAWS):  # the expected distance matrix: mean over the draws
                E = stack.embed(k, r)
                f = _distances_flat(E, E, a_rows[rand], b_rows[rand])
                acc = f if acc is None else np.add(acc, f, out=acc)
            for j, M in zip(rand.tolist(), _split(acc, a_rows[rand], b_rows[rand])):
                mats[j] = (mats[j] + M) / DRAWS
    except _Overflow as exc:
        raise at_fault(exc.row) from None
    scores = []
    for (index, *_), M in zip(batch, mats):
        try:
            scores.append(_transport_similarity(M))
        except _Unsolved as exc:
            raise UnscoredPair(index, 0, str(exc)) from None
    return scores, stack.cached


def wwlk_scores(golds: Sequence[Graph], systems: Sequence[Graph], emb: Embeddings, k: int = 2,
                edge_to_node: bool = False, edge_weight: float | None = None, dim: int | None = None,
                cache: dict[str, np.ndarray] | None = None, direction: str = "both",
                role_weights: dict[str, float] | None = None) -> list[float]:
    """WWLK of aligned graph lists (:func:`wwlk_stream` of their labelled views).

    ``edge_weight`` None: every edge label has its drawn weights (e2n: 1).
    ``direction``: where a node receives from (``both`` neighbours, ``fromout``: the
    targets of its edges, ``fromin``: their sources; the reference's
    ``-communication_direction``); ``role_weights``: fixed weights of edge labels (the
    others keep their draws).  A pair too large for WWLK is reported before any is
    scored; errors name the graph (:class:`~mrkit.errors.InputError`)."""
    views = [(labelled_graph(g), labelled_graph(s)) for g, s in zip(golds, systems)]
    for i, (a, b) in enumerate(views):
        n, m = _nodes(a, edge_to_node), _nodes(b, edge_to_node)
        if n * m > MAX_CELLS and _key(a) != _key(b):
            raise UnscoredPair(i, 0, _too_large(n, m)).located(golds, systems)
    try:
        return list(wwlk_stream(views, emb, k, edge_to_node, edge_weight, dim, cache, direction, role_weights))
    except UnscoredPair as exc:
        raise exc.located(golds, systems) from None


def wwlk_vocabulary(graphs, edge_to_node: bool = False) -> set[str]:
    """The words a vectors file is read for, for WWLK of graphs given by their Smatch
    triples (:class:`~mrkit.features.triples.Triples`): the words of every label of their
    labelled views (:func:`label_words`; with ``edge_to_node``, of the role nodes too).
    A superset does no harm: a word's vector does not depend on the others read."""
    labels = {""}  # a variable without a concept
    for t in graphs:
        labels.update(c for _, c in t.instances)
        labels.update(v for _, _, v in t.attributes)
        if edge_to_node:
            labels.update(":" + r for _, r, _ in t.relations)
            labels.update(":" + r for _, r, _ in t.attributes)
    return {w for label in labels for w in label_words(label)}


def _details(k: int, edge_to_node: bool, emb: Embeddings, direction: str, role_weights) -> dict:
    details = {"k": k, "edge_to_node": edge_to_node, "vectors": emb.name, "corpus": "mean of pairs"}
    if direction != "both":
        details["direction"] = direction
    if role_weights is not None:
        details["edge_weights"] = len(role_weights)
    return details


def _run(name: str, golds, systems, vectors, k: int, edge_to_node: bool, edge_weight,
         direction: str = "both", edge_weights=None) -> MetricScores:
    from ...codecs.vectors import read_edge_weights

    check_pairs(golds, systems)
    role_weights = read_edge_weights(edge_weights) if edge_weights is not None else None
    emb = get_embeddings(vectors)
    per = wwlk_scores(golds, systems, emb, k, edge_to_node, edge_weight, direction=direction,
                      role_weights=role_weights)
    return mean_scores(name, per, [g.id for g in golds], _details(k, edge_to_node, emb, direction, role_weights))


def wwlk_triple_batches(batches, name: str = "wwlk", vectors=None, k: int | None = None,
                        edge_weight: float | None = None, direction: str = "both", edge_weights=None,
                        vocabulary: set[str] | None = None) -> MetricScores:
    """Metric ``name`` (``wwlk`` or ``wwlk-k3e2n``) of pairs streamed as batches ``(ids,
    gold triples, system triples)``: the result of the registered metric on the same
    pairs, holding one batch and the pairs' scores and ids.  ``vocabulary``: the corpus's
    words (:func:`wwlk_vocabulary`) when ``vectors`` is a file.  A pair that cannot be
    scored raises :class:`UnscoredPair` (the caller reads the graphs to name it)."""
    from array import array

    from ...codecs.vectors import read_edge_weights
    from ...features.labelled import labelled_from_triples
    from ..result import metric_scores

    edge_to_node = name == "wwlk-k3e2n"
    k = k if k is not None else (3 if edge_to_node else 2)
    role_weights = read_edge_weights(edge_weights) if edge_weights is not None else None
    emb = get_embeddings(vectors, vocab=vocabulary) if vocabulary is not None else get_embeddings(vectors)
    ids: list[str | None] = []

    def pairs():
        for batch_ids, golds, systems in batches:
            check_pairs(golds, systems)
            ids.extend(batch_ids)
            for a, b in zip(golds, systems):
                yield labelled_from_triples(a), labelled_from_triples(b)

    per = array("d", wwlk_stream(pairs(), emb, k, edge_to_node, edge_weight, direction=direction,
                                 role_weights=role_weights))
    rows = np.column_stack([np.frombuffer(per, dtype=np.float64), np.ones(len(per))]) if len(per) else []
    return metric_scores(name, rows, ids, mean_reduce, MEAN_COLUMNS, None,
                         _details(k, edge_to_node, emb, direction, role_weights))


# WWLK embeds batches of distinct graphs together with the word vectors (one corpus-level
# computation, not a pair function): it runs in this process and takes no executor.

@register("wwlk", columns=MEAN_COLUMNS, reduce=mean_reduce, corpus="mean of pairs")
def wwlk_metric(golds: Sequence[Graph], systems: Sequence[Graph], vectors=None, k: int = 2,
                edge_weight: float | None = None, direction: str = "both",
                edge_weights=None) -> MetricScores:
    """Per pair: 1 - Wasserstein distance (k = 2); corpus: mean of pairs.  ``vectors``: a
    GloVe text file of any dimension (the paper: 100d), ``direction``: ``both``,
    ``fromout`` or ``fromin`` (the reference's ``-communication_direction``),
    ``edge_weights``: learned edge-label weights (a file ``ROLE WEIGHT`` per line, or JSON
    ``{"role": weight}``, or a mapping; :func:`mrkit.codecs.vectors.read_edge_weights`)."""
    return _run("wwlk", golds, systems, vectors, k, False, edge_weight, direction, edge_weights)


@register("wwlk-k3e2n", columns=MEAN_COLUMNS, reduce=mean_reduce, corpus="mean of pairs")
def wwlk_k3e2n_metric(golds: Sequence[Graph], systems: Sequence[Graph], vectors=None, k: int = 3,
                      edge_weight: float | None = None, direction: str = "both") -> MetricScores:
    """WWLK on the Levi graph (edges as nodes), k = 3, edge weights 1."""
    return _run("wwlk-k3e2n", golds, systems, vectors, k, True, edge_weight, direction)
