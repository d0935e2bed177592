"""Which AMR roles are inversions: the role lists and the two functions every reader and
metric of triples uses (:mod:`mrkit.model.amr` builds its named conventions on them and
exports these names too; see its docstring for the rules).  Kept apart so that the coded
metrics of ``mrkit score`` load the rules without the conventions' classes (start-up,
issue 14)."""

from __future__ import annotations

NON_INVERTED_OF = frozenset({"consist-of", "prep-on-behalf-of", "prep-out-of"})
"""AMR roles that end in ``-of`` without being inversions (Smatch 1.0.4's exceptions)."""

MRP_NON_INVERTED_OF = NON_INVERTED_OF | {"subset-of"}
"""The ``-of`` roles the MRP conventions of mrkit do not invert."""


def is_inverted(role: str, keep: frozenset[str] = NON_INVERTED_OF) -> bool:
    """Whether ``role`` (any case, with or without colon) is an inversion: it ends in
    ``-of``, has a base before it and is not one of ``keep``."""
    r = role.lower().lstrip(":")
    return r.endswith("-of") and r not in keep and len(r) > 3


def normalize_relation(source: str, role: str, target: str,
                       keep: frozenset[str] = NON_INVERTED_OF) -> tuple[str, str, str]:
    """``(s, ARG0-of, t)`` -> ``(t, ARG0, s)``; other roles unchanged. Role lower-cased
    (Smatch's convention, with ``keep`` its exceptions)."""
    r = role.lower().lstrip(":")
    if is_inverted(r, keep):
        return target, r[:-3], source
    return source, r, target
