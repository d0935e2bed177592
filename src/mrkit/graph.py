"""Moved to :mod:`mrkit.model.graph`; kept for one release."""

from .model.graph import *  # noqa: F401,F403
