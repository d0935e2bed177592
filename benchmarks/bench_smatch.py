"""Smatch: mrkit against smatch 1.0.4 and smatchpp on the same inputs.

    python benchmarks/bench_smatch.py [--workloads lp-t5,bio-self,...] [--timeout 900]

Reference tools are run with the Python given in BENCH_PYTHON (a virtual environment
with `pip install smatch==1.0.4 smatchpp`), or the current one.  mrkit is run as
`python -m mrkit smatch --json` with the current Python (install mrkit or build it in
place first).  Every tool is timed as a whole command (start-up included), and the
table prints wall time, F1, the share of pairs proven optimal, and the time ratio
tool / mrkit.  smatch 1.0.4 proves nothing (randomized hill-climbing); smatchpp's ILP
proves pairs optimal but is slow.  Data come from ../shared/data beside the project.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "amr"

WORKLOADS = {
    "lp-t5": ("parseeval-little-prince/gold.amr", "parseeval-little-prince/t5.amr"),
    "lp-bart": ("parseeval-little-prince/gold.amr", "parseeval-little-prince/bart.amr"),
    "bio-self": ("bio/amr-release-test-bio.txt", "bio/amr-release-test-bio.txt"),
    "sick": ("bamboo/sick/main_src.test.amr", "bamboo/sick/main_tgt.test.amr"),
}


def strip_header(path: Path, tmpdir: str) -> str:
    """smatchpp reads a leading '# AMR release' comment block as a graph: drop it."""
    text = path.read_text(encoding="utf-8")
    blocks = re.split(r"\n\s*\n", text.strip())
    keep = [b for b in blocks if any(ln.strip().startswith("(") for ln in b.splitlines())]
    out = Path(tmpdir) / (path.parent.name + "-" + path.name)
    out.write_text("\n\n".join(keep) + "\n", encoding="utf-8")
    return str(out)


def run(cmd: list[str], timeout: float, env: dict | None = None) -> tuple[float, str, bool]:
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return timeout, "", False
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.stderr.write(f"[{' '.join(cmd[:4])} ...] failed: {proc.stderr.strip()[-300:]}\n")
        return wall, "", False
    return wall, proc.stdout + proc.stderr, True


def mrkit_run(gold: str, system: str, timeout: float) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    wall, out, ok = run([sys.executable, "-m", "mrkit", "smatch", gold, system, "--json"], timeout, env)
    if not ok:
        return {"wall": wall, "f1": None, "cert": None}
    d = json.loads(out[out.index("{"):])
    return {"wall": wall, "f1": d["f1"], "cert": d["certified_share"]}


def smatch_run(py: str, gold: str, system: str, timeout: float) -> dict:
    wall, out, ok = run([py, "-m", "smatch", "--pr", "-r", "4", "--significant", "6",
                         "-f", system, gold], timeout)
    m = re.search(r"F-score:\s*([0-9.]+)", out)
    return {"wall": wall, "f1": float(m.group(1)) if ok and m else None, "cert": 0.0 if ok else None,
            "timeout": not ok}


def smatchpp_run(py: str, gold: str, system: str, timeout: float) -> dict:
    wall, out, ok = run([py, "-m", "smatchpp", "-a", system, "-b", gold, "-solver", "ilp",
                         "-graph_type", "generic", "-score_type", "micro", "-output_format", "json"],
                        timeout)
    f1 = cert = None
    if ok:
        m = re.search(r'"F1":\s*\{\s*"result":\s*([0-9.]+)', out)
        if m:
            f1 = float(m.group(1)) / 100  # smatchpp prints percentages with 2 decimals
        n = re.search(r"do not have ensured optimal solution:\s*(\d+)", out)
        total = sum(1 for _ in re.finditer(r"^\(", Path(gold).read_text(), re.M))
        if n and total:
            cert = 1 - int(n.group(1)) / total
    return {"wall": wall, "f1": f1, "cert": cert, "timeout": not ok}


def fmt(v, pat="{:.4f}") -> str:
    return "-" if v is None else pat.format(v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per tool run")
    ap.add_argument("--tools", default="mrkit,smatch,smatchpp")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"shared data not found at {DATA}; nothing to benchmark")
        return 0
    py = os.environ.get("BENCH_PYTHON", sys.executable)
    tools = args.tools.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.workloads.split(","):
            g, s = (DATA / p for p in WORKLOADS[name])
            res = {}
            if "mrkit" in tools:
                res["mrkit"] = mrkit_run(str(g), str(s), args.timeout)
            if "smatch" in tools:
                res["smatch -r 4"] = smatch_run(py, str(g), str(s), args.timeout)
            if "smatchpp" in tools:
                res["smatchpp ilp"] = smatchpp_run(py, strip_header(g, tmp), strip_header(s, tmp), args.timeout)
            base = res.get("mrkit", {}).get("wall")
            for tool, r in res.items():
                ratio = r["wall"] / base if base and tool != "mrkit" else None
                wall = (">" if r.get("timeout") else "") + f"{r['wall']:.2f}"
                rows.append((name, tool, wall, fmt(r["f1"]), fmt(r["cert"], "{:.0%}"),
                             "" if ratio is None else f"{ratio:.1f}x"))
                print("\t".join(rows[-1]), file=sys.stderr, flush=True)
    head = ("workload", "tool", "wall s", "F1", "certified", "time vs mrkit")
    widths = [max(len(str(r[k])) for r in rows + [head]) for k in range(len(head))]
    print(" | ".join(h.ljust(w) for h, w in zip(head, widths)))
    print("-|-".join("-" * w for w in widths))
    for r in rows:
        print(" | ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
