"""codecs/_after_import.py: a hook runs once its module has been executed, whoever imports
it, and the import machinery is left as it was."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import sys
import importlib.machinery as machinery
from mrkit.codecs._after_import import after_import

# a built-in module not imported yet: its loader is the class BuiltinImporter itself
name = next(n for n in sorted(sys.builtin_module_names) if n not in sys.modules and n != "sys")
other = next(n for n in sorted(sys.builtin_module_names) if n not in sys.modules and n not in ("sys", name))
shared = machinery.BuiltinImporter.exec_module
seen = []
after_import(name, lambda module: seen.append(module.__name__), lambda: seen.append("before"))
__import__(name)
__import__(other)  # another built-in module: no hook, and the class loader is untouched
assert seen == ["before", name], seen
assert machinery.BuiltinImporter.exec_module is shared
assert sys.modules[name].__spec__.name == name
print("ok", name, other)
"""


def test_hook_on_a_builtin_module_patches_no_shared_loader():
    """Debian's Python builds ``array`` into the interpreter: its loader is the class
    ``BuiltinImporter``, shared by every built-in module.  The hook must run for that module
    alone, and the class must not be changed (it was, before: every later built-in import
    ran the hook)."""
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok ")


def test_hook_on_a_source_module_runs_after_its_code():
    script = ("import sys\nfrom mrkit.codecs._after_import import after_import\n"
              "assert 'colorsys' not in sys.modules\n"
              "after_import('colorsys', lambda m: print('hook', m.__name__, callable(m.rgb_to_hsv)))\n"
              "import colorsys\nprint('imported')\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    seen = proc.stdout.split("\n")
    assert seen[:2] == ["hook colorsys True", "imported"]
