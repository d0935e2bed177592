"""Moved to :mod:`mrkit.model.document` and :mod:`mrkit.codecs.msamr`; kept for one release."""

from ..model.document import *  # noqa: F401,F403
from ..codecs.msamr import *  # noqa: F401,F403
