"""Moved to :mod:`mrkit.codecs.registry`; kept for one release."""

from .codecs.registry import *  # noqa: F401,F403
