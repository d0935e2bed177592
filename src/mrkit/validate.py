"""Moved to :mod:`mrkit.codecs.validate`; kept for one release."""

from mrkit.codecs.validate import *  # noqa: F401,F403
