"""Connected components of linked items: a union-find with path compression (coreference
links between mentions, SciCo's relations between clusters)."""

from __future__ import annotations

from typing import Hashable


class UnionFind:
    """Items join the set of the first item they are found or united with."""

    def __init__(self) -> None:
        self.parent: dict = {}

    def find(self, x: Hashable) -> Hashable:
        """The representative of ``x``'s component (``x`` is added when new)."""
        parent = self.parent
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: Hashable, b: Hashable) -> None:
        """Join the components of ``a`` and ``b`` (``a``'s representative stays)."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
