"""Moved to :mod:`mrkit.metrics.coref.hierarchy`; kept for one release."""

from mrkit.metrics.coref.hierarchy import *  # noqa: F401,F403
