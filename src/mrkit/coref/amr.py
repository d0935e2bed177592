"""Moved to :mod:`mrkit.metrics.coref.amr`; kept for one release."""

from mrkit.metrics.coref.amr import *  # noqa: F401,F403
