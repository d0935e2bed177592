"""Moved to :mod:`mrkit.codecs.validate`; kept for one release."""

from .codecs.validate import *  # noqa: F401,F403
