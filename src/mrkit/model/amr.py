"""AMR conventions as named objects: which roles are inversions (``:ARG0-of`` is
``:ARG0`` read backwards) and which merely end in ``-of`` (``:consist-of``,
``:prep-on-behalf-of``, ``:prep-out-of``), and how a relation is turned to its base
direction.  This module is the one place these rules live; every reader, writer and
metric passes or imports one of its conventions.

Two conventions, because two reference tools disagree and mrkit reproduces each:

* :data:`SMATCH` -- Smatch 1.0.4 (``amr.py``): a role ending in ``-of`` is inverted unless
  it is one of :data:`NON_INVERTED_OF`; ``mod`` and ``domain`` are distinct roles.  Used
  for the triples of Smatch, SEMA, S2match, document Smatch and the labelled view of the
  alignment-free metrics (:mod:`mrkit.features.triples`, :mod:`mrkit.features.labelled`),
  and by the PENMAN writer to invert an edge it has to write backwards.
* :data:`MRP` -- the MRP normalization (the ``normal`` edge label of the MRP 2019 AMR
  release, mtool): also ``subset-of`` is not inverted, and ``mod`` is the inverse of
  ``domain``.  Its two users differ on one point, kept as two named objects:
  :data:`MRP_NORMAL` (the ``normal`` the PENMAN -> MRP converter writes,
  :func:`mrkit.codecs.amr_mrp.normal_of`) never inverts a ``prep-...`` role, while
  :data:`MRP_SCORE` (the MRP metric on an AMR edge without ``normal``,
  :func:`mrkit.features.mrp_tuples.normal_edge`) inverts ``prep-with-of`` and the other
  ``prep-`` roles not in its list.

mtool itself (``graph.py``, ``Edge.normalize``; ``codec/amr.py``) inverts every ``-of-of``
role and every ``-of`` role except ``prep-...``; its exception set is written
``{"consist-of" "subset-of"}``, one concatenated string, so it inverts ``consist-of`` and
``subset-of`` too.  mrkit keeps its documented list for both instead.

Roles are tested lower-cased and without a leading colon; the special cases (``mod``,
prefixes) are compared as written (the scorers lower-case labels first).

The role lists and the two functions on them (:data:`NON_INVERTED_OF`, :func:`is_inverted`,
:func:`normalize_relation`) are written in :mod:`mrkit.model.inverted_roles` and exported
here too.
"""

from __future__ import annotations

from .frozen import Frozen, setfields
from .inverted_roles import MRP_NON_INVERTED_OF, NON_INVERTED_OF, is_inverted, normalize_relation  # noqa: F401


class Inversion(Frozen):
    """One convention for inverted roles (see the module docstring).  Immutable, compared
    and hashed by value, as ``@dataclass(frozen=True)`` would make it
    (:class:`mrkit.model.frozen.Frozen`: every command that reads AMR imports this module)."""

    __slots__ = ("name", "keep", "keep_prefixes", "mod_domain")
    __match_args__ = ("name", "keep", "keep_prefixes", "mod_domain")

    name: str
    keep: frozenset[str]
    """Roles ending in ``-of`` that are not inversions (lower-case, no colon)."""
    keep_prefixes: tuple[str, ...]
    """Roles starting with one of these are never inversions."""
    mod_domain: bool
    """``mod`` is ``domain`` read backwards."""

    def __init__(self, name: str, keep: frozenset[str] = NON_INVERTED_OF, keep_prefixes: tuple[str, ...] = (),
                 mod_domain: bool = False) -> None:
        setfields(self, name, keep, keep_prefixes, mod_domain)

    def is_inverted(self, role: str) -> bool:
        """Whether ``role`` ends in ``-of`` and is an inversion (not counting ``mod``)."""
        if self.keep_prefixes and role.startswith(self.keep_prefixes):
            return False
        return is_inverted(role, self.keep)

    def base(self, role: str) -> str | None:
        """The role in its base direction when ``role`` is inverted, else ``None``
        (``ARG0-of`` -> ``ARG0``, case kept; ``mod`` -> ``domain`` where it applies)."""
        if self.mod_domain and role == "mod":
            return "domain"
        return role[:-3] if self.is_inverted(role) else None

    def invert(self, role: str) -> str:
        """The role read the other way: ``ARG0-of`` -> ``ARG0``, ``ARG0`` -> ``ARG0-of``,
        ``consist-of`` -> ``consist-of-of`` (``-of`` roles that are not inversions)."""
        return role[:-3] if self.is_inverted(role) else role + "-of"


SMATCH = Inversion("smatch")
"""Smatch 1.0.4's convention (also the PENMAN writer's)."""
MRP_NORMAL = Inversion("mrp-normal", MRP_NON_INVERTED_OF, ("prep-",), mod_domain=True)
"""The ``normal`` label written when converting AMR to MRP."""
MRP_SCORE = Inversion("mrp-score", MRP_NON_INVERTED_OF, mod_domain=True)
"""The MRP metric's reading of an AMR edge without ``normal``."""
