"""The shared alignment engine used by every graph metric of mrkit.

>>> from mrkit.align import Features, build_problem, align
"""

try:
    from . import _kernel  # noqa: F401  (the compiled inner loops)
except ImportError as exc:  # a source checkout without the C extension built
    raise ImportError(
        "mrkit's compiled alignment kernel (mrkit.align._kernel) is missing: install mrkit "
        "with pip, or run `python setup.py build_ext --inplace` in a source checkout") from exc

from .engine import AlignConfig, Alignment, Budget, align, pair_budget
from .problem import Features, Problem, build_problem

__all__ = ["AlignConfig", "Alignment", "Budget", "Features", "Problem", "align", "build_problem", "pair_budget"]
