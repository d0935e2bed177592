"""Document-level AMR: coreference inputs, document graphs, document Smatch.

* :mod:`.chains`: Mention / Chain / Bridge / Document and the MS-AMR XML and chain JSON readers;
* :mod:`.pipeline`: aligned sentence AMRs + text clusters (jsonlines, CoNLL-2012, CoreNLP
  JSON) projected onto nodes, with diagnostics;
* :mod:`.inputs`: the documents (sentence AMRs + coreference) a build starts from, and
  document graphs to re-normalise;
* :mod:`.build`: the four document-graph representations (flipped too), normalisation of
  No-Merge and pairwise-edge graphs;
* :mod:`.stats`: corpus statistics;
* :mod:`.provenance`: writing, reading and inferring node provenance;
* :mod:`.docsmatch`: document Smatch with coreference and reentrancy subscores.
"""

from ..model.document import Bridge, Chain, Document, ImplicitRole, Mention
from ..codecs.msamr import read_chain_json, read_msamr, write_chain_json

__all__ = ["Bridge", "Chain", "Document", "ImplicitRole", "Mention", "read_chain_json", "read_msamr",
           "write_chain_json"]
