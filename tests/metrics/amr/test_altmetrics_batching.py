"""Batched and cached computations of S2match and WWLK agree with their one-at-a-time
definitions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from altmetrics_helpers import amr_graphs, graph
from mrkit.codecs.vectors import get_embeddings
from mrkit.features.labelled import labelled_graph
from mrkit.metrics.amr.wlk import levi_graph
from mrkit.metrics.amr.s2match import _SimCache, concept_similarity
from mrkit.metrics.amr.wwlk import node_vector, wl_embed_many

VECTORS = {"want": [1.0, 0.2, 0.0], "wants": [0.9, 0.3, 0.1], "boy": [0.1, 1.0, 0.3],
           "girl": [0.2, 0.9, 0.4], "believe": [0.5, 0.1, 0.9], "cat": [0.0, 0.3, 1.0],
           "city": [0.9, 0.9, 0.1], "go": [0.3, 0.3, 0.3], "big": [0.2, 0.8, 0.5],
           "apple": [0.25, 0.95, 0.3]}

CONCEPTS = [None, "want-01", "want-02", "want", "boy", "girl", "believe-01", "cat", "city",
            "big-apple", "go-02", "unknown-thing", "zebra"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(CONCEPTS), max_size=6), min_size=2, max_size=8))
def test_s2match_similarity_matrix_equals_the_pairwise_definition(graphs):
    emb = get_embeddings(VECTORS)
    sim = _SimCache(emb, 0.5, 0.5)
    # several graph pairs through one cache: later pairs are served from cached rows
    for a, b in zip(graphs, graphs[1:]):
        S = sim.matrix(a, b)
        assert S.shape == (len(a), len(b))
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                expected = 0.0 if x is None or y is None else concept_similarity(x, y, emb)
                # the batch sums each cosine in its own order: equal up to rounding, and
                # zero exactly where the definition gives zero (the cutoff decision)
                assert S[i, j] == pytest.approx(expected, abs=1e-12)
                assert (S[i, j] == 0.0) == (expected == 0.0)


def weight_of(weight, draw):
    """Edge label -> weight in draw ``draw``: a fixed number, or (None) the label's drawn
    weight."""
    from mrkit.metrics.amr.wwlk import edge_weights

    return (lambda role: weight) if weight is not None else (lambda role: edge_weights(role)[draw])


def dense_reference(lg, emb, dim, k, weight, draw=0):
    """WL embedding of one graph, written from the definition with a dense matrix: a
    node's update is itself plus the mean, over its neighbour entries (one per
    neighbour and direction, the product of the weights of the edges between them),
    of that product times the neighbour's vector; rounds concatenated, rows scaled to 1.
    ``weight``: one number for every edge label, or None for the labels' drawn weights."""
    w_of = weight_of(weight, draw)
    n = len(lg.labels)
    X = np.array([node_vector(label, emb, dim, draw) for label in lg.labels]).reshape(n, dim)
    entries = [{} for _ in range(n)]
    for direction in (0, 1):
        acc = {}
        for s, r, t in lg.edges:
            key = (s, t) if direction == 0 else (t, s)
            acc[key] = acc.get(key, 1.0) * w_of(r)
        for (v, u), w in acc.items():
            entries[v][(u, direction)] = w
    rounds = [X]
    for _ in range(k):
        Y = X.copy()
        for v in range(n):
            if entries[v]:
                Y[v] += sum(w * X[u] for (u, _d), w in entries[v].items()) / len(entries[v])
        X = Y
        rounds.append(X)
    E = np.concatenate(rounds, axis=1)
    norms = np.linalg.norm(E, axis=1)
    norms[norms == 0] = 1.0
    return E / norms[:, None]


@settings(max_examples=30, deadline=None)
@given(st.lists(amr_graphs(), min_size=1, max_size=4), st.booleans(), st.integers(0, 15))
def test_wwlk_embeds_a_corpus_as_it_embeds_each_graph(texts, levi, draw):
    emb = get_embeddings(VECTORS)
    views = [labelled_graph(graph(t[0])) for t in texts]
    if levi:
        views = [levi_graph(v) for v in views]
    k, weight = (3, 1.0) if levi else (2, None)
    together = wl_embed_many(views, emb, 3, k, weight, draw=draw)
    for view, E in zip(views, together):
        alone = dense_reference(view, emb, 3, k, weight, draw)
        assert E.shape == alone.shape
        np.testing.assert_allclose(E, alone, rtol=0, atol=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(amr_graphs(), amr_graphs()), min_size=1, max_size=5))
def test_wwlk_corpus_in_batches_equals_pair_by_pair(pairs):
    import mrkit.metrics.amr.wwlk as wwlk

    golds = [graph(a[0]) for a, _ in pairs]
    systems = [graph(b[0]) for _, b in pairs]
    # every pair once more, reversed: repeated graphs, which are embedded once per batch
    golds, systems = golds + systems, systems + golds
    emb = get_embeddings(VECTORS)
    saved = wwlk.BATCH
    try:
        for batch in (2, 3, 100):  # several batches, the last one possibly short; one batch
            wwlk.BATCH = batch
            for name, levi in (("wwlk", False), ("wwlk-k3e2n", True)):
                k, weight = (3, 1.0) if levi else (2, None)
                res = wwlk._run(name, golds, systems, VECTORS, k, levi, None)
                for got, g, s in zip(res.pair_scores, golds, systems):
                    assert abs(got - wwlk_by_definition(g, s, emb, k, weight, levi)) < 1e-12
    finally:
        wwlk.BATCH = saved


def wwlk_by_definition(g, s, emb, k, weight, levi):
    """1 - the earth mover's distance (POT's ot.emd2) between the two graphs' node sets,
    ground distance the mean over the 16 draws of scipy's cdist of the dense-reference
    embeddings, clipped to [0, 1]."""
    import ot
    from scipy.spatial.distance import cdist

    from mrkit.metrics.amr.wwlk import DRAWS

    views = [labelled_graph(g), labelled_graph(s)]
    if levi:
        views = [levi_graph(v) for v in views]
    if len(views[0]) == 0 or len(views[1]) == 0:
        return 1.0 if len(views[0]) == len(views[1]) else 0.0
    M = sum(cdist(*(dense_reference(v, emb, 3, k, weight, r) for v in views)) for r in range(DRAWS)) / DRAWS
    A, B = views
    d = ot.emd2(np.full(len(A), 1 / len(A)), np.full(len(B), 1 / len(B)), M)
    return min(1.0, max(0.0, 1.0 - float(d)))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=6),
       st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_distance_matrices_equal_cdist(shapes, dim, seed):
    from scipy.spatial.distance import cdist

    from mrkit.metrics.amr.wwlk import distance_matrices

    rng = np.random.default_rng(seed)
    As = [rng.normal(size=(n, dim)) for n, _ in shapes]
    Bs = [rng.normal(size=(m, dim)) for _, m in shapes]
    Bs[0][: min(len(As[0]), len(Bs[0]))] = As[0][: len(Bs[0])]  # some equal rows: distance 0
    A, B = np.concatenate(As), np.concatenate(Bs)
    a_end, b_end = np.cumsum([len(x) for x in As]), np.cumsum([len(x) for x in Bs])
    a_rows = np.stack([a_end - [len(x) for x in As], a_end], axis=1)
    b_rows = np.stack([b_end - [len(x) for x in Bs], b_end], axis=1)
    # pairs in another order than the rows: ranges, not consecutive offsets
    order = rng.permutation(len(shapes))
    Ms = distance_matrices(A, B, a_rows[order], b_rows[order])
    for M, p in zip(Ms, order):
        expected = cdist(As[p], Bs[p])
        assert M.shape == expected.shape
        np.testing.assert_allclose(M, expected, rtol=0, atol=1e-12)


def test_distance_kernel_rejects_rows_outside_the_matrices():
    from mrkit.metrics.amr.wwlk import distance_matrices

    A = np.zeros((3, 2))
    with pytest.raises(ValueError, match="row range"):
        distance_matrices(A, A, [[0, 4]], [[0, 1]])
    with pytest.raises(ValueError, match="row range"):  # both reversed: a positive cell count
        distance_matrices(A, A, [[2, 1]], [[1, 0]])
    with pytest.raises(ValueError, match="columns"):
        distance_matrices(A, np.zeros((3, 3)), [[0, 1]], [[0, 1]])


def test_wasserstein_similarity_of_empty_and_equal_node_sets():
    from mrkit.metrics.amr.wwlk import wasserstein_similarity

    assert wasserstein_similarity(np.zeros((0, 3)), np.zeros((0, 3))) == 1.0
    assert wasserstein_similarity(np.zeros((0, 3)), np.eye(3)) == 0.0
    assert wasserstein_similarity(np.eye(3), np.eye(3)) == pytest.approx(1.0, abs=1e-12)
    # (1, 0) and (0, 1) against (1, 0) alone: half of the mass moves sqrt(2)
    assert wasserstein_similarity(np.eye(2), np.eye(2)[:1]) == pytest.approx(1 - np.sqrt(2) / 2)


def test_wwlk_graphs_with_the_same_labels_but_other_edges_are_not_merged():
    import mrkit.metrics.amr.wwlk as wwlk

    texts = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))",
             "(w / want-01 :ARG0 (b / boy :ARG0-of (g / go-02)))",
             "(w / want-01 :ARG1 (b / boy) :ARG0 (g / go-02))"]
    golds = [graph(t) for t in texts]
    systems = [graph(texts[0])] * 3
    emb = get_embeddings(VECTORS)
    for name, levi in (("wwlk", False), ("wwlk-k3e2n", True)):
        k, weight = (3, 1.0) if levi else (2, None)
        res = wwlk._run(name, golds, systems, VECTORS, k, levi, None)
        expected = [wwlk_by_definition(g, s, emb, k, weight, levi) for g, s in zip(golds, systems)]
        assert res.pair_scores == pytest.approx(expected, abs=1e-12)
        assert res.pair_scores[0] == pytest.approx(1.0) and res.pair_scores[1] < 1.0
