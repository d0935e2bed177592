"""The documents ``mrkit docamr build`` builds graphs from: sentence AMRs with their
coreference given as MS-AMR XML, mrkit chain JSON, or a pipeline's jsonlines clusters over
node-aligned sentence AMRs (or no coreference at all)."""

from __future__ import annotations

from typing import Sequence

from ..errors import MrkitError


def load_documents(amr: Sequence[str], *, xml: Sequence[str] | None = None, chains: str | None = None,
                   clusters: str | None = None, no_coref: bool = False) -> list:
    """The :class:`~mrkit.model.document.Document` s of sentence AMR files ``amr`` and one
    source of coreference (``xml``, ``chains`` or ``clusters``); ``no_coref``: every
    sentence of every file in one document, without coreference."""
    from ..codecs.msamr import read_chain_json, read_msamr
    from ..codecs.penman import read_penman
    from ..model.document import Document
    from .pipeline import read_pipeline

    if xml:
        return read_msamr(list(xml), list(amr))
    if clusters:
        if len(amr) != 1:
            raise MrkitError("--clusters takes one sentence AMR file")
        return read_pipeline(amr[0], clusters)
    graphs = [g for path in amr for g in read_penman(path)]
    if chains:
        return [read_chain_json(chains, graphs)]
    if not no_coref:
        raise MrkitError("give the coreference: --xml, --chains or --clusters (or --no-coref)")
    return [Document(str(graphs[0].id) if graphs else "document", graphs)]


def normalize_graphs(path: str, representation: str = "docamr", flipped: bool = False,
                     pairwise: str | None = None) -> list:
    """The document graphs of a PENMAN file re-normalised into ``representation``: No-Merge
    graphs (IBM's ``--in-doc-amr-unmerged``), or with ``pairwise`` (a role such as
    ``same-as``) graphs whose coreference is pairwise edges (``--in-doc-amr-pairwise``)."""
    from ..codecs.docgraphs import read_document_graphs
    from ..errors import InputError
    from .build import chains_from_pairs, normalize

    out = []
    for g in read_document_graphs(path):
        if not g.tops:
            raise InputError("graph has no top", g.source_file, g.source_line, g.id)
        if pairwise:
            chains_from_pairs(g, pairwise)
        out.append(normalize(g, representation, flipped))
    if not out:
        raise InputError("holds no graphs: nothing to normalise", path)
    return out
