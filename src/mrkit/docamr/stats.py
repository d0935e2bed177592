"""Corpus statistics of MS-AMR files and document graphs: the rows of the DocAMR paper's
tables (Naseem et al. 2022, Table 1) and of the MS-AMR corpus description.

Every count is taken on the No-Merge document graph of a document (chain nodes that the
mentions point to with ``:coref-of``) and on what normalising it into the DocAMR
representation does (:func:`mrkit.docamr.build.normalize`): the same numbers whether the
document comes as MS-AMR XML or as a No-Merge document graph.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

ROWS = (
    ("documents", "documents"),
    ("sentences", "sentences"),
    ("chains", "identity chains"),
    ("singletons", "singletons (MS-AMR)"),
    ("mentions", "nodes in chains"),
    ("pronouns", "pronouns in chains"),
    ("pronouns_to_pronoun", "  -> pronoun node"),
    ("pronouns_to_interlocutor", "  -> interlocutor-entity"),
    ("pronouns_to_other", "  -> other node"),
    ("pronouns_to_coref_entity", "  -> coref-entity"),
    ("pronouns_dropped", "pronouns dropped"),
    ("interlocutor_chains", "interlocutor chains"),
    ("pronoun_chains", "all-pronoun chains (one pronoun node)"),
    ("named_mentions", "NEs in chains"),
    ("names_merged", "NEs merged"),
    ("implicit_roles", "implicit roles"),
    ("bridging", "bridging relations (document graphs: one per whole and kind)"),
    ("bridging_members", "bridging members"),
)
"""(key, label) of every row, in the order of the table."""


def graph_statistics(g) -> Counter:
    """The counts of one No-Merge document graph (left unchanged)."""
    from .build import BRIDGE_ROLES, COREF_ENTITY, IMPLICIT_ROLE, PRONOUNS, _Doc, normalize

    c: Counter = Counter(documents=1)
    top = g.tops[0] if g.tops else None
    c["sentences"] = sum(1 for e in g.edges if e.source == top and e.label.lower().startswith("snt"))
    d = _Doc(g.copy())
    chains = d.chains()
    chain_nodes = {v for v, n in d.g.nodes.items() if n.label in (COREF_ENTITY, IMPLICIT_ROLE)}
    c["chains"] = sum(1 for ms in chains.values() if len(ms) >= 2)
    c["singletons"] = sum(1 for ms in chains.values() if len(ms) == 1)
    members = [m for ms in chains.values() if len(ms) >= 2 for m in ms]
    c["mentions"] = len(members)
    c["pronouns"] = sum(1 for m in members if d.label(m) in PRONOUNS)
    c["named_mentions"] = sum(1 for m in members if any(d.label(t) == "name" for t in d.children(m, "name")))
    for e in d.g.edges:
        lab = e.label.lower()
        if lab in BRIDGE_ROLES:
            continue
        if e.target in chain_nodes and lab != "coref-of" and e.source not in chain_nodes:
            c["implicit_roles"] += 1
    bridges: dict[tuple, int] = {}
    for e in d.g.edges:
        lab = e.label.lower()
        if lab in BRIDGE_ROLES or lab in ("subset", "part"):
            member, whole = (e.source, e.target) if lab.endswith("-of") else (e.target, e.source)
            if (e.target in chain_nodes or e.source in chain_nodes
                    or not (d.g.nodes[e.source].provenance & d.g.nodes[e.target].provenance)):
                key = (lab.removesuffix("-of"), whole)  # one relation per whole and kind
                bridges[key] = bridges.get(key, 0) + 1
    c["bridging"] = len(bridges)
    c["bridging_members"] = sum(bridges.values())
    n = normalize(g.copy(), "docamr")
    c.update(n.extra.get("docamr_counts", {}))
    return c


def corpus_statistics(amr: Sequence[str] = (), xml: Sequence[str] | None = None,
                      graphs: Sequence[str] | None = None) -> dict:
    """``{"documents": [{"id", counts...}], "total": {counts...}}`` of MS-AMR XML files
    (with their sentence AMR files) or of files of No-Merge document graphs."""
    from ..errors import MrkitError

    per_doc = []
    if xml:
        from ..codecs.msamr import read_msamr
        from .build import document_graph

        if not amr:
            raise MrkitError("--xml needs the sentence AMR file(s) it points to")
        for doc in read_msamr(list(xml), list(amr)):
            c = graph_statistics(document_graph(doc))
            # the XML names its bridging relations: count them, not the wholes they share
            c["bridging"] = len(doc.bridges)
            c["bridging_members"] = sum(len(b.children) for b in doc.bridges)
            per_doc.append((doc.id, c))
    else:
        from ..codecs.docgraphs import read_document_graphs

        from ..errors import InputError

        for path in graphs or ():
            n = len(per_doc)
            for g in read_document_graphs(path):
                if not g.tops:
                    raise InputError("graph has no top", g.source_file, g.source_line, g.id)
                per_doc.append((str(g.id), graph_statistics(g)))
            if len(per_doc) == n:
                raise InputError("holds no graphs", str(path))
    total: Counter = Counter()
    for _, c in per_doc:
        total.update(c)
    keys = [k for k, _ in ROWS]
    return {"documents": [{"id": i, **{k: c.get(k, 0) for k in keys}} for i, c in per_doc],
            "total": {k: total.get(k, 0) for k in keys}}
