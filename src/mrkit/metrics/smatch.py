"""Moved to :mod:`mrkit.metrics.amr.smatch`; kept for one release."""

from mrkit.metrics.amr.smatch import *  # noqa: F401,F403
