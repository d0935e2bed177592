"""The shared alignment engine used by every graph metric of mrkit.

>>> from mrkit.align import Features, build_problem, align
"""

from .engine import AlignConfig, Alignment, align
from .problem import Features, Problem, build_problem

__all__ = ["AlignConfig", "Alignment", "Features", "Problem", "align", "build_problem"]
