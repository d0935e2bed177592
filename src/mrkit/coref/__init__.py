"""Moved to :mod:`mrkit.metrics.coref` (readers in :mod:`mrkit.codecs`); kept for one release."""

from mrkit.metrics.coref import *  # noqa: F401,F403
from mrkit.metrics.coref import __all__  # noqa: F401
