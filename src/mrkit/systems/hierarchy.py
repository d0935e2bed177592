"""Greedy cycle-free insertion of parent -> child relations between clusters.

SciCo's baselines and unified model (§4.1, §4.2 of the paper) build the hierarchy from
scores of candidate relations: starting from the highest score, a relation is added
unless its child already has a parent (the code's rule: a tree) or it would close a
cycle; candidates scoring below the stop threshold are never added.  Ties are taken in
the order the candidates are given.  (SciCo's ``get_greedy_relations`` sorts the scores
in ascending order, although the paper says "starting from the highest": mrkit follows
the paper.)
"""

from __future__ import annotations

from typing import Hashable, Iterable, Sequence


def greedy_relations(candidates: Iterable[tuple[Hashable, Hashable, float]],
                     threshold: float = 0.0) -> list[tuple[Hashable, Hashable]]:
    """``(parent, child)`` relations chosen from ``(parent, child, score)`` candidates,
    in the order they were added."""
    ranked = sorted(((s, k, p, c) for k, (p, c, s) in enumerate(candidates) if s >= threshold and p != c),
                    key=lambda t: (-t[0], t[1]))
    parent_of: dict = {}
    out = []
    for _, _, p, c in ranked:
        if c in parent_of:
            continue
        node = p  # would p -> c close a cycle?  only if c is p or an ancestor of p
        while node is not None and node != c:
            node = parent_of.get(node)
        if node == c:
            continue
        parent_of[c] = p
        out.append((p, c))
    return out


def cluster_scores(labels: Sequence[Hashable], child_score, pairs: Iterable[tuple[int, int]]) -> dict:
    """``(child cluster, parent cluster) -> mean of child_score(i, j)`` over the scored
    mention pairs ``(i, j)`` with i in the child cluster and j in the parent one (the
    paper's s(C1, C2)); cluster pairs with no scored mention pair get none."""
    sums: dict = {}
    for i, j in pairs:
        a, b = labels[i], labels[j]
        if a == b:
            continue
        s = sums.setdefault((a, b), [0.0, 0])
        s[0] += child_score(i, j)
        s[1] += 1
    return {k: total / n for k, (total, n) in sums.items()}
