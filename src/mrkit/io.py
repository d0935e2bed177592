"""Moved to :mod:`mrkit.codecs._files`; kept for one release."""

from .codecs._files import *  # noqa: F401,F403
