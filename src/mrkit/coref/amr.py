"""Moved to :mod:`mrkit.metrics.coref.amr` (reading files: :mod:`mrkit.pipeline.coref`); kept for one release."""

from mrkit.metrics.coref.amr import *  # noqa: F401,F403
from mrkit.pipeline.coref import read_chain_documents, score_chain_files  # noqa: F401
