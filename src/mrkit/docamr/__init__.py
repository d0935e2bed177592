"""Document-level AMR: coreference inputs, document graphs, document Smatch.

* :mod:`.chains`: Mention / Chain / Bridge / Document and the MS-AMR XML and chain JSON readers;
* :mod:`.pipeline`: aligned sentence AMRs + jsonlines clusters projected onto nodes;
* :mod:`.inputs`: the documents (sentence AMRs + coreference) a build starts from;
* :mod:`.build`: the four document-graph representations;
* :mod:`.provenance`: writing, reading and inferring node provenance;
* :mod:`.docsmatch`: document Smatch with coreference and reentrancy subscores.
"""

from ..model.document import Bridge, Chain, Document, ImplicitRole, Mention
from ..codecs.msamr import read_chain_json, read_msamr, write_chain_json

__all__ = ["Bridge", "Chain", "Document", "ImplicitRole", "Mention", "read_chain_json", "read_msamr",
           "write_chain_json"]
