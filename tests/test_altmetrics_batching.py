"""Batched and cached computations of S2match and WWLK agree with their one-at-a-time
definitions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from altmetrics_helpers import amr_graphs, graph
from mrkit.embeddings import get_embeddings
from mrkit.metrics.labelled import labelled_graph, to_levi
from mrkit.metrics.s2match import _SimCache, concept_similarity
from mrkit.metrics.wwlk import node_vector, wl_embed_many

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


def dense_reference(lg, emb, dim, k, weight):
    """WL embedding of one graph, written from the definition with a dense matrix: a
    node's update is itself plus the mean, over its neighbour entries (one per
    neighbour and direction, the product of the weights of the edges between them),
    of weight times the neighbour's vector; rounds concatenated, rows scaled to 1."""
    n = len(lg.labels)
    X = np.array([node_vector(label, emb, dim) for label in lg.labels]).reshape(n, dim)
    entries = [{} for _ in range(n)]
    for direction in (0, 1):
        acc = {}
        for s, _r, t in lg.edges:
            key = (s, t) if direction == 0 else (t, s)
            acc[key] = acc.get(key, 1.0) * weight
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
@given(st.lists(amr_graphs(), min_size=1, max_size=4), st.booleans())
def test_wwlk_embeds_a_corpus_as_it_embeds_each_graph(texts, levi):
    emb = get_embeddings(VECTORS)
    views = [labelled_graph(graph(t[0])) for t in texts]
    if levi:
        views = [to_levi(v) for v in views]
    k, weight = (3, 1.0) if levi else (2, 0.275)
    together = wl_embed_many(views, emb, 3, k, weight)
    for view, E in zip(views, together):
        alone = dense_reference(view, emb, 3, k, weight)
        assert E.shape == alone.shape
        np.testing.assert_allclose(E, alone, rtol=0, atol=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(amr_graphs(), amr_graphs()), min_size=1, max_size=5))
def test_wwlk_corpus_in_batches_equals_pair_by_pair(pairs):
    import mrkit.metrics.wwlk as wwlk

    golds = [graph(a[0]) for a, _ in pairs]
    systems = [graph(b[0]) for _, b in pairs]
    emb = get_embeddings(VECTORS)
    saved = wwlk.BATCH
    try:
        wwlk.BATCH = 2  # several batches, the last one possibly short
        for name, levi in (("wwlk", False), ("wwlk-k3e2n", True)):
            res = wwlk._run(name, golds, systems, VECTORS, 3 if levi else 2, levi, None)
            for got, g, s in zip(res.per_pair, golds, systems):
                alone = wwlk.wwlk_pair(g, s, emb, 3 if levi else 2, levi)
                assert abs(got - alone) < 1e-12
    finally:
        wwlk.BATCH = saved
