"""Document coreference data: a :class:`Document` is a list of sentence graphs plus
cross-sentence annotation over them: identity :class:`Chain` s of (sentence, variable)
:class:`Mention` s, implicit roles (a predicate of one sentence whose argument is a chain)
and bridging relations between chains (:class:`Bridge`: ``set-member`` or ``part-whole``).
Sentence indices are 0-based positions in ``Document.sentences``.  The readers of MS-AMR
XML and chain JSON are in :mod:`mrkit.codecs.msamr`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import InputError
from .graph import Graph

BRIDGE_KINDS = ("set-member", "part-whole")


@dataclass(frozen=True)
class Mention:
    """One mention of a chain: a node (``variable``) of sentence ``sentence`` (0-based)."""

    sentence: int
    variable: str


@dataclass
class Chain:
    """An identity chain.  ``singleton`` marks MS-AMR singletons (one mention on purpose,
    kept because a bridging relation names them)."""

    id: str
    mentions: list[Mention]
    singleton: bool = False


@dataclass
class Bridge:
    """A bridging relation between chains: ``kind`` is ``set-member`` (parent = superset,
    children = members) or ``part-whole`` (parent = whole, children = parts)."""

    kind: str
    parent: str
    children: list[str]


@dataclass(frozen=True)
class ImplicitRole:
    """Predicate ``variable`` of sentence ``sentence`` has the chain ``chain`` as its
    implicit argument ``role`` (e.g. ``ARG1``)."""

    chain: str
    sentence: int
    variable: str
    role: str


@dataclass
class Document:
    """A document: its sentence graphs, coreference chains, bridges and implicit roles."""

    id: str
    sentences: list[Graph]
    chains: list[Chain] = field(default_factory=list)
    bridges: list[Bridge] = field(default_factory=list)
    implicit: list[ImplicitRole] = field(default_factory=list)
    source_file: str | None = None
    diagnostics: dict = field(default_factory=dict)
    """Projection diagnostics of a pipeline document (:mod:`mrkit.docamr.pipeline`)."""

    def chain(self, chain_id: str) -> Chain:
        for c in self.chains:
            if c.id == chain_id:
                return c
        raise KeyError(chain_id)


# ------------------------------------------------------------------ validation

class Checker:
    """Validates mentions against the sentence graphs and reports where they came from."""

    def __init__(self, sentences: Sequence[Graph], file: str | None) -> None:
        self.sentences = sentences
        self.file = file

    def mention(self, sentence: int, variable: str, line: int | None, what: str = "mention") -> None:
        if not 0 <= sentence < len(self.sentences):
            raise InputError(f"{what} names sentence {sentence} but the document has "
                             f"{len(self.sentences)} sentences (0-based)", self.file, line)
        g = self.sentences[sentence]
        if variable not in g.nodes:
            raise InputError(f"{what} names variable {variable!r}, which sentence {g.id} "
                             f"(index {sentence}) does not have", self.file, line)


def check_document(doc: Document, lines: dict[str, int] | None = None) -> None:
    """Check chain ids, bridges and single-mention chains (warning) of a built document."""
    lines = lines or {}
    ids: set[str] = set()
    for c in doc.chains:
        if c.id in ids:
            raise InputError(f"chain id {c.id!r} is used twice", doc.source_file, lines.get(c.id))
        ids.add(c.id)
        n_implicit = sum(1 for r in doc.implicit if r.chain == c.id)
        if not c.singleton and len(c.mentions) + n_implicit < 2:
            warnings.warn(f"{doc.source_file or doc.id}: chain {c.id} has a single mention "
                          "(nothing to corefer; kept)", stacklevel=3)
    for b in doc.bridges:
        if b.kind not in BRIDGE_KINDS:
            raise InputError(f"unknown bridging kind {b.kind!r} (use {' or '.join(BRIDGE_KINDS)})",
                             doc.source_file)
        for cid in [b.parent, *b.children]:
            if cid not in ids:
                raise InputError(f"bridging relation names chain {cid!r}, which does not exist",
                                 doc.source_file, lines.get("bridge:" + cid))
