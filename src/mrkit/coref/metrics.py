"""Moved to :mod:`mrkit.metrics.coref.metrics`; kept for one release."""

from mrkit.metrics.coref.metrics import *  # noqa: F401,F403
