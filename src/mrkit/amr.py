"""Moved to :mod:`mrkit.model.amr` and :mod:`mrkit.features.triples`; kept for one release."""

from .model.amr import *  # noqa: F401,F403
from .features.triples import *  # noqa: F401,F403
