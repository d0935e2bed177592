"""Average-linkage agglomerative clustering with a distance threshold.

The clustering SciCo's baselines run (scikit-learn's ``AgglomerativeClustering(
n_clusters=None, affinity="precomputed", linkage="average", distance_threshold=t)``):
the full average-linkage tree of the distance matrix (scipy's ``linkage``, which
scikit-learn calls), then every merge at a distance below ``t`` is kept; a merge at
``t`` or above is not.  Clusters are numbered in the order of their first item.
"""

from __future__ import annotations


def agglomerative(distances, threshold: float) -> list[int]:
    """Cluster number of each item of a square, symmetric ``distances`` matrix (no item:
    no cluster; one item: cluster 0)."""
    import numpy as np

    d = np.asarray(distances, dtype=np.float64)
    n = len(d)
    if n == 0 and d.size == 0:  # [] is read as shape (0,), not (0, 0)
        return []
    if d.shape != (n, n):
        raise ValueError(f"distances must be a square matrix, not of shape {d.shape}")
    if n <= 1:
        return [0] * n
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    d = (d + d.T) / 2  # symmetric (as given, up to rounding)
    np.fill_diagonal(d, 0.0)
    tree = linkage(squareform(d, checks=False), method="average")
    keep = n - 1 - int(np.count_nonzero(tree[:, 2] >= threshold))  # the first merges, in tree order
    parent = list(range(2 * n - 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for k in range(keep):
        a, b = int(tree[k, 0]), int(tree[k, 1])
        parent[find(a)] = n + k
        parent[find(b)] = n + k
    number: dict = {}
    return [number.setdefault(find(i), len(number)) for i in range(n)]
