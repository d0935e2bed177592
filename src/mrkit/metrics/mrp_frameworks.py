"""Moved to :mod:`mrkit.metrics.mrp.frameworks`; kept for one release."""

from mrkit.metrics.mrp.frameworks import *  # noqa: F401,F403
