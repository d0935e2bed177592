"""mrkit: read, convert, build and score meaning-representation graphs.

The Python API mirrors the command line::

    import mrkit
    result = mrkit.smatch_files("gold.amr", "system.amr")
    print(result.f1, result.certified_share)

Importing ``mrkit`` is cheap: the names below are loaded on first use (PEP 562), so
``import mrkit`` loads neither numpy nor the solver nor the PENMAN library.
"""

from __future__ import annotations

__version__ = "0.1.0"

# public name -> module (relative to this package) that defines it
_LAZY = {
    "iter_penman": ".codecs.penman", "loads": ".codecs.penman", "read_penman": ".codecs.penman",
    "write_penman": ".codecs.penman",
    "Anchor": ".model.graph", "Edge": ".model.graph", "Graph": ".model.graph", "Node": ".model.graph", "Property": ".model.graph",
    "PairScore": ".metrics.amr.smatch", "SmatchResult": ".metrics.amr.smatch",
    "smatch_corpus": ".metrics.amr.smatch", "smatch_files": ".metrics.amr.smatch", "smatch_pair": ".metrics.amr.smatch",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mrkit' has no attribute {name!r}")
    # importlib.import_module(module, __name__) without importing importlib (start-up, issue 14)
    value = getattr(__import__(module[1:], globals(), None, ("__doc__",), 1), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
