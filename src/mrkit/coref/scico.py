"""Moved to :mod:`mrkit.codecs.scico`; kept for one release."""

from ..codecs.scico import *  # noqa: F401,F403
