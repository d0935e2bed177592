"""Moved to :mod:`mrkit.codecs.vectors`; kept for one release."""

from .codecs.vectors import *  # noqa: F401,F403
