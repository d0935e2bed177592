"""`mrkit score` with the counting metrics on a small corpus loads no numpy (SEMA and
SemBLEU: integer rows summarised in plain Python; WLK and SIMPLE: their scores as a
ColumnTable, summed in row order), and its output is the numpy path's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_mrkit, shared_path

CODE = """
import sys
from mrkit.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("NUMPY" if "numpy" in sys.modules else "NO-NUMPY")
"""


@pytest.mark.parametrize("metric", ["sema", "sembleu", "wlk", "simple"])
def test_counting_metrics_load_no_numpy_on_small_corpora(metric):
    import mrkit

    base = shared_path("amr") / "parseeval-little-prince"
    env = {"PYTHONPATH": str(Path(mrkit.__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", CODE, "score", "-m", metric, str(base / "gold.amr"),
                          str(base / "t5.amr"), "--json"], capture_output=True, text=True,
                         env={**__import__("os").environ, **env})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("NO-NUMPY")
    plain = json.loads(out.stdout[:out.stdout.rindex("}") + 1])
    # the same result with numpy loaded (--bootstrap needs it) and through the graph path
    with_np = json.loads(run_mrkit("score", "-m", metric, str(base / "gold.amr"), str(base / "t5.amr"),
                                   "--json", "--bootstrap", "10").stdout)
    assert plain["summary"] == {k: v for k, v in with_np["summary"].items() if k in plain["summary"]}
    assert plain["corpus"] == with_np["corpus"] and plain["macro"] == with_np["macro"]
