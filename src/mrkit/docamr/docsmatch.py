"""Moved to :mod:`mrkit.metrics.document.docsmatch`; kept for one release."""

from mrkit.metrics.document.docsmatch import *  # noqa: F401,F403
