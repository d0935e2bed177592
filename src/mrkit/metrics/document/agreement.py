"""Inter-annotator agreement of two MS-AMR annotations of the same documents
(O'Gorman et al. 2018, §3): Cohen's kappa for implicit roles, its conditional form, and
the CoNLL-F1 of the identity chains over variables.

The paper reports kappa without spelling out its items; mrkit's reading:

* **items**: every argument slot of every predicate (a concept ending in ``-NN``) of
  every annotated sentence, for the core roles (:data:`CORE_ROLES`) the sentence graph
  does not fill explicitly (``:ARGn`` or ``:ARGn-of``), plus any slot either annotator
  marked; an annotator *marks* a slot when one of its chains is that slot's implicit
  argument.  Cohen's kappa of the two binary labellings (marked / not marked);
* **conditional kappa** (the paper's "when both annotators agreed that a given implicit
  role was present"): over the slots both marked, the label is the entity chosen.  An
  entity is a group of chains of the two annotations linked when they share a mention
  (a ``(sentence, variable)``), so two chains naming the same node agree; a chain without
  mentions is an entity of its own.  Cohen's kappa of the two entity labellings.

``kappa = (p_o - p_e) / (1 - p_e)`` with ``p_e`` the chance agreement from each
annotator's label frequencies; when ``p_e = 1`` (both gave one and the same label to
every item) it is undefined and reported as ``None``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ...errors import InputError

CORE_ROLES = ("ARG0", "ARG1", "ARG2", "ARG3", "ARG4")
_PREDICATE = re.compile(r".+-\d+$")


def cohen_kappa(a: Sequence, b: Sequence) -> float | None:
    """Cohen's kappa of two labellings of the same items (``None`` when undefined)."""
    n = len(a)
    if n == 0 or n != len(b):
        return None
    po = sum(1 for x, y in zip(a, b) if x == y) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb.get(k, 0) for k in ca) / (n * n)
    if pe >= 1.0:
        return None
    return (po - pe) / (1 - pe)


@dataclass
class Agreement:
    """Implicit-role agreement between two annotations: counts and kappa."""

    documents: int = 0
    items: int = 0
    marked_a: int = 0
    marked_b: int = 0
    marked_both: int = 0
    same_entity: int = 0
    kappa: float | None = None
    conditional_kappa: float | None = None
    coref: dict = field(default_factory=dict)
    files: tuple[str, str] = ("", "")

    def to_dict(self) -> dict:
        return {"files": list(self.files), "documents": self.documents,
                "implicit_roles": {"items": self.items, "marked_a": self.marked_a, "marked_b": self.marked_b,
                                   "marked_both": self.marked_both, "same_entity": self.same_entity,
                                   "kappa": self.kappa, "conditional_kappa": self.conditional_kappa,
                                   "roles": list(CORE_ROLES)},
                "coreference": self.coref}


def slots(doc, roles: Sequence[str] = CORE_ROLES) -> list[tuple[int, str, str]]:
    """The implicit-role items of one document: (sentence, predicate variable, role)."""
    from ...model.amr import normalize_relation

    out = []
    for k, g in enumerate(doc.sentences):
        filled = set()
        for e in g.edges:
            s, r, _ = normalize_relation(e.source, e.label, e.target)
            filled.add((s, r))
        for v, n in g.nodes.items():
            if n.label and _PREDICATE.fullmatch(n.label):
                out.extend((k, v, role) for role in roles if (v, role.lower()) not in filled)
    return out


class _Entities:
    """Union-find over the chains of both annotations, linked by shared mentions."""

    def __init__(self, a, b) -> None:
        self.parent: dict[tuple, tuple] = {}
        owner: dict[tuple, tuple] = {}
        for side, doc in (("a", a), ("b", b)):
            for c in doc.chains:
                key = (side, c.id)
                self.parent.setdefault(key, key)
                for m in c.mentions:
                    if (m.sentence, m.variable) in owner:
                        self.union(owner[(m.sentence, m.variable)], key)
                    else:
                        owner[(m.sentence, m.variable)] = key

    def find(self, x: tuple) -> tuple:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, x: tuple, y: tuple) -> None:
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            self.parent[ry] = rx


def agreement(docs_a: Sequence, docs_b: Sequence, name_a: str = "a", name_b: str = "b",
              roles: Sequence[str] = CORE_ROLES) -> Agreement:
    """Agreement of two annotations (lists of :class:`~mrkit.model.document.Document`,
    paired by document id) of the same sentence graphs."""
    from ..coref.amr import coref_over_variables

    by_id = {str(d.id): d for d in docs_b}
    marks_a: list[bool] = []
    marks_b: list[bool] = []
    ent_a: list = []
    ent_b: list = []
    result = Agreement(files=(name_a, name_b))
    pairs = []
    for a in docs_a:
        b = by_id.get(str(a.id))
        if b is None:
            raise InputError(f"document {a.id} is not in the other annotation", name_b)
        if [g.id for g in a.sentences] != [g.id for g in b.sentences]:
            raise InputError(f"document {a.id}: the two annotations list different sentences", name_b)
        pairs.append((a, b))
        ents = _Entities(a, b)
        imp_a = {(r.sentence, r.variable, r.role): r.chain for r in a.implicit}
        imp_b = {(r.sentence, r.variable, r.role): r.chain for r in b.implicit}
        items = list(dict.fromkeys([*slots(a, roles), *imp_a, *imp_b]))
        for it in items:
            ma, mb = it in imp_a, it in imp_b
            marks_a.append(ma)
            marks_b.append(mb)
            if ma and mb:
                ent_a.append(ents.find(("a", imp_a[it])))
                ent_b.append(ents.find(("b", imp_b[it])))
    if len(pairs) != len(docs_b):
        raise InputError(f"holds {len(docs_b)} documents but the other annotation {len(docs_a)}", name_b)
    result.documents = len(pairs)
    result.items = len(marks_a)
    result.marked_a, result.marked_b = sum(marks_a), sum(marks_b)
    result.marked_both = len(ent_a)
    result.same_entity = sum(1 for x, y in zip(ent_a, ent_b) if x == y)
    result.kappa = cohen_kappa(marks_a, marks_b)
    result.conditional_kappa = cohen_kappa(ent_a, ent_b)
    total = None
    for a, b in pairs:
        r = coref_over_variables(a, b, align=False, implicit=False)
        total = r if total is None else type(r)(total.documents + r.documents, r.metrics, r.average, r.options)
    if total is not None:
        result.coref = {m: {"recall": rr, "precision": p, "f1": f} for m, rr, p, f in total.table_rows()
                        if m in ("muc", "bcub", "ceafe", "lea", "conll")}
    return result
