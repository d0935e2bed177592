"""AMR conventions: inverted roles (the triples Smatch counts are in :mod:`mrkit.features.triples`).

A graph is turned into

* instance triples ``(v, instance, concept)``,
* attribute triples ``(v, role, constant)`` (constants without quotes; ``:mod 1`` kept),
* relation triples ``(v, role, w)`` with inverted roles (``:ARG0-of``) turned to their base
  direction, but not roles that merely end in ``-of`` (``:consist-of``,
  ``:prep-on-behalf-of``, ``:prep-out-of``),
* one top triple ``(TOP, v, top)`` per top node (as in smatch 1.0.4, where the value of
  the TOP attribute is the constant ``top``).

Labels, roles and constants are compared lower-cased, as smatch and smatchpp do.
Duplicate triples are counted once.
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
