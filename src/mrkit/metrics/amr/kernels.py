"""The compiled kernels of the label metrics, loaded on first use.

:func:`compiled` gives one function of a C extension of this package, or None when it is
not built or a switch of the environment asks for the Python reference (each metric's own
``MRKIT_PURE_<METRIC>``, or ``MRKIT_PURE_CODES`` for every corpus kernel).
"""

from __future__ import annotations


_COMPILED: dict = {}


def compiled(module: str, name: str, pure: str):
    """Function ``name`` of the compiled module ``module``, or None when it is not built
    or the environment variable ``pure`` (or ``MRKIT_PURE_CODES``) is set."""
    key = (module, name, pure)
    if key not in _COMPILED:
        import os

        fn = None
        if not (os.environ.get(pure) or os.environ.get("MRKIT_PURE_CODES")):
            try:
                fn = getattr(__import__(module, fromlist=("__doc__",)), name)  # importlib.import_module
            except (ImportError, AttributeError):
                fn = None
        _COMPILED[key] = fn
    return _COMPILED[key]
