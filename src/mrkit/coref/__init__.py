"""Moved to :mod:`mrkit.metrics.coref` (readers in :mod:`mrkit.codecs`, reading and scoring
files in :mod:`mrkit.pipeline.coref`); kept for one release."""

from mrkit.metrics.coref import *  # noqa: F401,F403
from mrkit.metrics.coref import __all__ as _metrics_all
from mrkit.pipeline.coref import read_documents, score_files  # noqa: F401

__all__ = [*_metrics_all, "read_documents", "score_files"]
