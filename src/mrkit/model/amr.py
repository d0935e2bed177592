"""AMR conventions as named objects: which roles are inversions (``:ARG0-of`` is
``:ARG0`` read backwards) and which merely end in ``-of`` (``:consist-of``,
``:prep-on-behalf-of``, ``:prep-out-of``), and how a relation is turned to its base
direction.  The triples Smatch counts under these conventions are built in
:mod:`mrkit.features.triples`.
"""

from __future__ import annotations

NON_INVERTED_OF = frozenset({"consist-of", "prep-on-behalf-of", "prep-out-of"})
"""AMR roles that end in ``-of`` without being inversions."""


def is_inverted(role: str, keep: frozenset[str] = NON_INVERTED_OF) -> bool:
    r = role.lower().lstrip(":")
    return r.endswith("-of") and r not in keep and len(r) > 3


def normalize_relation(source: str, role: str, target: str,
                       keep: frozenset[str] = NON_INVERTED_OF) -> tuple[str, str, str]:
    """``(s, ARG0-of, t)`` -> ``(t, ARG0, s)``; other roles unchanged. Role lower-cased."""
    r = role.lower().lstrip(":")
    if is_inverted(r, keep):
        return target, r[:-3], source
    return source, r, target
