"""mrkit: read, convert, build and score meaning-representation graphs.

The Python API mirrors the command line::

    import mrkit
    result = mrkit.smatch_files("gold.amr", "system.amr")
    print(result.f1, result.certified_share)
"""

from .codecs.penman import iter_penman, loads, read_penman, write_penman
from .graph import Anchor, Edge, Graph, Node, Property
from .metrics.smatch import PairScore, SmatchResult, smatch_corpus, smatch_files, smatch_pair

__version__ = "0.1.0"

__all__ = [
    "Anchor", "Edge", "Graph", "Node", "PairScore", "Property", "SmatchResult",
    "iter_penman", "loads", "read_penman", "smatch_corpus", "smatch_files", "smatch_pair",
    "write_penman",
]
