"""The shared alignment engine used by every graph metric of mrkit.

>>> from mrkit.align import Features, build_problem, align

The names load on first use (PEP 562): ``AlignConfig`` comes from the numpy-free
:mod:`mrkit.align.config`, the engine (and numpy) only when a name of it is asked for.
"""

try:
    from . import _kernel  # noqa: F401  (the compiled inner loops)
except ImportError as exc:  # a source checkout without the C extension built
    raise ImportError(
        "mrkit's compiled alignment kernel (mrkit.align._kernel) is missing: install mrkit "
        "with pip, or run `python setup.py build_ext --inplace` in a source checkout") from exc

from .config import AlignConfig

__all__ = ["AlignConfig", "Alignment", "Budget", "Features", "Problem", "align", "build_problem", "pair_budget"]

_LAZY = {"Alignment": "engine", "Budget": "engine", "align": "engine", "pair_budget": "engine",
         "Features": "problem", "Problem": "problem", "build_problem": "problem"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mrkit.align' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
