"""Moved to :mod:`mrkit.features.provenance` and :mod:`mrkit.codecs.docgraphs`; kept for one release."""

from ..features.provenance import *  # noqa: F401,F403
from ..codecs.docgraphs import *  # noqa: F401,F403
