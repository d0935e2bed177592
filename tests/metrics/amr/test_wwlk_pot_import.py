"""WWLK imports POT's compiled network simplex (``ot.lp.emd_wrap``) without POT's package
``__init__`` files, and leaves POT whole for a later ``import ot``.

Each case runs in a fresh interpreter: which modules are loaded is the point, and this
test process may have imported POT already."""

import json
import os
import subprocess
import sys

import pytest

SRC = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir, "src")

# Three sources with masses (.5, .25, .25) to two sinks with masses (.5, .5), costs M.
# By hand: with x the mass sent from source 0 to sink 0, sources 1 and 2 send .5 - x to
# sink 0 and the rest of their .5 to sink 1, which costs 1 less from either; so the cost
# is 2(.5 - x) + (.5 - x) + (.25*1 + .25*2) = 2.25 - 3x, least at x = .5: 0.75.
CASE = "a = np.array([.5, .25, .25]); b = np.array([.5, .5]); M = np.array([[0., 2.], [2., 1.], [3., 2.]])"
EXPECTED = 0.75


def run(code: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(SRC))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_light_import_then_full_pot():
    got = run(f"""
import json, sys
import numpy as np
from mrkit.metrics.amr.wwlk import _emd
emd_c, check_result = _emd()
{CASE}
light = sorted(n for n in sys.modules if n == "ot" or n.startswith("ot."))
heavy = [n for n in ("scipy.stats", "scipy.optimize") if n in sys.modules]
d_light = float(emd_c(a, b, M, 100000, 1)[1])
import ot
import ot.lp
print(json.dumps(dict(light=light, heavy=heavy, d_light=d_light, emd2=float(ot.emd2(a, b, M)),
                      same=ot.lp.emd_wrap.emd_c is emd_c, solve=float(ot.solve(M, a, b).value),
                      stats="scipy.stats" in sys.modules)))
""")
    assert got["light"] == [] and got["heavy"] == []  # nothing of POT's left registered, no scipy.stats
    assert got["d_light"] == pytest.approx(EXPECTED, abs=1e-12)
    # the real package afterwards: its __init__ ran (scipy.stats), ot.emd2 and ot.solve work
    assert got["emd2"] == pytest.approx(EXPECTED, abs=1e-12)
    assert got["solve"] == pytest.approx(EXPECTED, abs=1e-12)
    assert got["same"] and got["stats"]


RANDOM = """
import json, sys
import numpy as np
rng = np.random.default_rng(7)
out = []
for n, m in ((1, 1), (3, 5), (17, 11), (40, 40)):
    A, B = rng.random((n, 4)), rng.random((m, 4))
    M = np.ascontiguousarray(np.sqrt(((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)))
    plan, d, u, v, code = emd_c(np.full(n, 1 / n), np.full(m, 1 / m), M, 100000, 1)
    out.append([repr(float(d)), int(code), plan.tolist()])
print(json.dumps(dict(out=out, pot="ot" in sys.modules)))
"""


def test_light_and_plain_paths_agree():
    light = run("from mrkit.metrics.amr.wwlk import _emd\nemd_c, _ = _emd()\n" + RANDOM)
    plain = run("import ot\nfrom mrkit.metrics.amr.wwlk import _emd\nemd_c, _ = _emd()\n" + RANDOM)
    assert not light["pot"] and plain["pot"]
    assert light["out"] == plain["out"]


def test_light_path_failing_falls_back_to_plain_import(tmp_path):
    # POT's layout changed: the stand-in packages point at an empty directory, the
    # extension is not found there; WWLK imports POT whole and nothing is left behind
    got = run(f"""
import importlib.util, json, sys
import numpy as np
real, moves = importlib.util.find_spec, []
def moved(name, package=None):
    spec = real(name, package)
    if name == "ot":
        spec.submodule_search_locations[:] = [{str(tmp_path)!r}]
        moves.append(name)
    return spec
importlib.util.find_spec = moved
from mrkit.metrics.amr.wwlk import _emd
emd_c, check_result = _emd()
importlib.util.find_spec = real
{CASE}
import ot
print(json.dumps(dict(d=float(emd_c(a, b, M, 100000, 1)[1]), check=check_result(1), moves=moves,
                      emd2=float(ot.emd2(a, b, M)), stats="scipy.stats" in sys.modules)))
""")
    assert got["moves"] == ["ot"]  # the light path was tried
    assert got["d"] == pytest.approx(EXPECTED, abs=1e-12) and got["check"] is None
    assert got["emd2"] == pytest.approx(EXPECTED, abs=1e-12) and got["stats"]
