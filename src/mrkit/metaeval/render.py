"""Moved to :mod:`mrkit.report.render`; kept for one release."""

from mrkit.report.render import *  # noqa: F401,F403
