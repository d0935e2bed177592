"""Run a function when a module is first imported, by whoever imports it.

Start-up of the command line: the standard library's ``logging`` costs more to import
than most commands need before their work starts, but the log records of the libraries
mrkit uses (penman logs every problem it repairs) must be kept from Python's last-resort
handler from the moment one of them could log.  :func:`after_import` runs the
configuration right after ``logging`` is imported (at once if it already is); until then
there is no logger to configure.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Callable


def after_import(name: str, hook: Callable[[ModuleType], object],
                 before: Callable[[], object] | None = None) -> None:
    """Call ``hook(module)`` once module ``name`` has been executed: now if it already
    has been, else right after its first import (and then ``before()`` right before its
    code runs)."""
    module = sys.modules.get(name)
    if module is not None:
        hook(module)
    else:
        sys.meta_path.insert(0, _Finder(name, hook, before))


class _Finder:
    """A meta path entry that finds ``name`` with the finders after it (the import is the
    usual one) and wraps the loader's ``exec_module`` to call ``hook`` afterwards; it
    removes itself at the first look-up of ``name``."""

    def __init__(self, name: str, hook: Callable[[ModuleType], object],
                 before: Callable[[], object] | None = None) -> None:
        self.name, self.hook, self.before = name, hook, before

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        loader, hook, before = spec.loader, self.hook, self.before
        run = getattr(loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module):
            if before is not None:
                before()
            run(module)
            hook(module)

        if isinstance(loader, type):  # a built-in or frozen module: its loader is a class
            spec.loader = _Hooked(loader, exec_module)  # shared by every such module: not patched
            return spec
        try:
            loader.exec_module = exec_module  # this spec's own loader object
        except AttributeError:  # a loader without instance attributes: the import as usual
            pass
        return spec


class _Hooked:
    """The loader of one built-in or frozen module (``array`` is built in on Debian's
    Python) whose ``exec_module`` calls the hooks; everything else is its class loader's."""

    def __init__(self, loader: type, exec_module: Callable[[ModuleType], None]) -> None:
        self._loader, self.exec_module = loader, exec_module

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def __getattr__(self, name: str):
        return getattr(self._loader, name)
