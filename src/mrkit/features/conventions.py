"""The AMR conventions Smatch users argue about, as explicit options (classic default).

* ``top``: ``smatch`` -- one triple ``(TOP, v, top)`` on the root (smatch 1.0.4: it matches
  when the roots are aligned, whatever their concepts); ``concept`` -- the root triple
  carries the root's concept, ``(v, top, concept)``: it matches only when the aligned
  roots have the same concept (smatchpp's ``concept_as_root``; the Smatch bundled with
  amr-evaluation writes ``(TOP, v, concept)``, the same thing).  Same number of triples.
* ``mod_domain``: ``:domain`` is read as the inverse of ``:mod`` (``(a :domain b)`` counts
  as ``(b :mod a)``; AMR's guidelines define them so; smatchpp's ``domain2mod``).
  Default: distinct roles (smatch 1.0.4).
* ``roles``: ``reify`` -- every role penman's AMR model can reify becomes its ``-91``
  node (``:location`` -> ``be-located-at-91`` with ``:ARG1``/``:ARG2``;
  ``penman.transform.reify_edges``); ``dereify`` -- every such node that can collapse
  becomes its role again (``penman.transform.dereify_edges``).  Default: as written.
* ``standardize``: smatchpp's AMR standardisation in one switch: ``mod_domain``,
  ``top=concept`` and ``roles=dereify-smatchpp`` (penman's dereification restricted to the
  reifications smatchpp's own table undoes, :data:`NOT_DEREIFIED_BY_SMATCHPP`;
  lower-casing, quote removal, de-inversion and duplicate removal are what mrkit's triples
  always do).

:class:`Conventions` applies them: :meth:`Conventions.graph` rewrites a graph (roles),
:meth:`Conventions.triples` rewrites its Smatch triples (TOP style).  The default object
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.amr import NON_INVERTED_OF, is_inverted, normalize_relation
from ..model.graph import Edge, Graph, Node, Property

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)

if TYPE_CHECKING:  # the triples module is loaded where triples are made, not at start-up
    from .triples import Triples

TOP_STYLES = ("smatch", "concept")
ROLE_MODES = ("as-written", "reify", "dereify", "dereify-smatchpp")
NOT_DEREIFIED_BY_SMATCHPP = frozenset({"cause-01", "cost-01", "have-org-role-91", "mean-01", "include-91",
                                       "receive-01", "have-03", "have-degree-92"})
"""Concepts penman's AMR model dereifies and smatchpp's standardiser does not (its table has
no ``:cause``, ``:cost``, ``:employed-by``, ``:role``, ``:meaning``, ``:subset``/``:superset``,
only the first concept of ``:beneficiary`` and ``:poss``, and ``have-degree-91`` for
``:degree``, which penman writes ``have-degree-92``)."""
TOP_ROLE = "top"
"""The role of the concept-bearing top triple ``(v, top, concept)``."""


@dataclass(frozen=True)
class Conventions:
    """One choice of the conventions above (see the module docstring)."""

    top: str = "smatch"
    mod_domain: bool = False
    roles: str = "as-written"
    keep: frozenset[str] = NON_INVERTED_OF

    def __post_init__(self) -> None:
        if self.top not in TOP_STYLES:
            raise ValueError(f"top style {self.top!r}: one of {', '.join(TOP_STYLES)}")
        if self.roles not in ROLE_MODES:
            raise ValueError(f"roles {self.roles!r}: one of {', '.join(ROLE_MODES)}")

    @classmethod
    def standardized(cls, keep: frozenset[str] = NON_INVERTED_OF) -> "Conventions":
        """smatchpp's standardisation (``top=concept``, ``mod_domain``, ``dereify-smatchpp``)."""
        return cls("concept", True, "dereify-smatchpp", keep)

    @property
    def is_default(self) -> bool:
        return self == Conventions(keep=self.keep)

    def to_dict(self) -> dict:
        return {"top": self.top, "mod_domain": self.mod_domain, "roles": self.roles}

    # ------------------------------------------------------------------ graphs
    def graph(self, g: Graph) -> Graph:
        """``g`` with its roles rewritten (``mod_domain``, ``roles``); ``g`` itself when
        nothing changes."""
        if self.roles != "as-written":
            g = penman_roles(g, self.roles, self.keep)
        if self.mod_domain:
            g = domain_as_mod(g, self.keep)
        return g

    def triples(self, t: Triples) -> Triples:
        """``t`` with its top triple in this TOP style."""
        from .triples import Triples

        if self.top == "smatch" or not t.tops:
            return t
        concept = dict(t.instances)
        attrs = list(t.attributes) + [(i, TOP_ROLE, concept.get(i, "")) for i in t.tops]
        return Triples(t.variables, list(t.instances), attrs, list(t.relations), [])


def _copy(g: Graph, nodes: dict[str, Node], edges: list[Edge]) -> Graph:
    return Graph(id=g.id, nodes=nodes, edges=edges, tops=list(g.tops), text=g.text, metadata=dict(g.metadata),
                 framework=g.framework)


def domain_as_mod(g: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> Graph:
    """``(a :domain b)`` -> ``(b :mod a)`` (also written ``:domain-of`` / ``:mod-of``)."""
    edges = []
    for e in g.edges:
        s, r, t = normalize_relation(e.source, e.label, e.target, keep)
        if r == "domain":
            edges.append(Edge(t, s, "mod"))
        elif r == "mod":
            edges.append(Edge(s, t, "mod"))
        else:
            edges.append(e)
    return _copy(g, g.nodes, edges)


def _quoted(p: Property) -> str:
    return '"' + p.value.replace('"', '\\"') + '"' if p.quoted else p.value


_SMATCHPP_MODEL = None


def _smatchpp_model():
    """penman's AMR model without the reifications smatchpp does not undo."""
    global _SMATCHPP_MODEL
    if _SMATCHPP_MODEL is None:
        from penman.models import amr

        _SMATCHPP_MODEL = amr.Model(roles=amr.roles, normalizations=amr.normalizations,
                                    reifications=[r for r in amr.reifications if r[1] not in NOT_DEREIFIED_BY_SMATCHPP])
    return _SMATCHPP_MODEL


def penman_roles(g: Graph, mode: str, keep: frozenset[str] = NON_INVERTED_OF) -> Graph:
    """Reify (``mode="reify"``) or dereify (``"dereify"``) the roles of ``g`` with
    penman's AMR model (``penman.transform``; a node is dereified when it has no incoming
    edge, is not the top and has exactly its two role edges); ``"dereify-smatchpp"``
    dereifies only what smatchpp's standardiser does (:data:`NOT_DEREIFIED_BY_SMATCHPP`
    left alone); new nodes get fresh variables."""
    import penman
    from penman.models.amr import model
    from penman.transform import dereify_edges, reify_edges

    if mode == "dereify-smatchpp":
        model = _smatchpp_model()

    trs = []
    for v, n in g.nodes.items():
        trs.append((v, ":instance", n.label))
        for p in n.properties:
            trs.append((v, ":" + p.key, _quoted(p)))
    for e in g.edges:  # de-inverted, case kept (penman's model writes :ARG1)
        r = e.label.lstrip(":")
        trs.append((e.target, ":" + r[:-3], e.source) if is_inverted(r, keep) else (e.source, ":" + r, e.target))
    top = g.tops[0] if g.tops else (next(iter(g.nodes)) if g.nodes else None)
    pg = penman.Graph(trs, top=top, epidata={t: [] for t in trs})
    pg = reify_edges(pg, model) if mode == "reify" else dereify_edges(pg, model)
    nodes: dict[str, Node] = {}
    for v, _, c in pg.instances():
        nodes.setdefault(v, Node(v, c))
    edges: list[Edge] = []
    for s, r, t in pg.triples:
        if r == ":instance":
            continue
        role = r[1:]
        if t in nodes:
            edges.append(Edge(s, t, role))
        elif s in nodes:
            quoted = isinstance(t, str) and len(t) >= 2 and t.startswith('"') and t.endswith('"')
            nodes[s].properties.append(Property(role, t[1:-1] if quoted else str(t), quoted))
    return _copy(g, nodes, edges)
