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
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402
from harness import fmt

DATA = harness.DATA / "amr"

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


def mrkit_run(gold: str, system: str, timeout: float, repeat: int) -> dict:
    r = harness.run(harness.mrkit("smatch", gold, system, "--json"), repeat, timeout, harness.mrkit_env())
    if not r.ok:
        return {"run": r, "f1": None, "cert": None}
    d = json.loads(r.stdout[r.stdout.index("{"):])
    return {"run": r, "f1": harness.headline(d), "cert": harness.field_of(d, "certified_share")}


def smatch_run(py: str, gold: str, system: str, timeout: float, repeat: int) -> dict:
    r = harness.run([py, "-m", "smatch", "--pr", "-r", "4", "--significant", "6", "-f", system, gold],
                    repeat, timeout)
    m = re.search(r"F-score:\s*([0-9.]+)", r.output)
    return {"run": r, "f1": float(m.group(1)) if r.ok and m else None, "cert": 0.0 if r.ok else None}


def smatchpp_run(py: str, gold: str, system: str, timeout: float, repeat: int) -> dict:
    r = harness.run([py, "-m", "smatchpp", "-a", system, "-b", gold, "-solver", "ilp",
                     "-graph_type", "generic", "-score_type", "micro", "-output_format", "json"],
                    repeat, timeout)
    f1 = cert = None
    if r.ok:
        m = re.search(r'"F1":\s*\{\s*"result":\s*([0-9.]+)', r.output)
        if m:
            f1 = float(m.group(1)) / 100  # smatchpp prints percentages with 2 decimals
        n = re.search(r"do not have ensured optimal solution:\s*(\d+)", r.output)
        total = sum(1 for _ in re.finditer(r"^\(", Path(gold).read_text(), re.M))
        if n and total:
            cert = 1 - int(n.group(1)) / total
    return {"run": r, "f1": f1, "cert": cert}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per tool run")
    ap.add_argument("--tools", default="mrkit,smatch,smatchpp")
    ap.add_argument("--repeat", type=int, default=1, help="runs per tool; the median is shown (default 1)")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"shared data not found at {DATA}; nothing to benchmark")
        return 0
    py = harness.reference_python()
    tools = args.tools.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.workloads.split(","):
            g, s = (DATA / p for p in WORKLOADS[name])
            res = {}
            if "mrkit" in tools:
                res["mrkit"] = lambda: mrkit_run(str(g), str(s), args.timeout, args.repeat)
            if "smatch" in tools:
                res["smatch -r 4"] = lambda: smatch_run(py, str(g), str(s), args.timeout, args.repeat)
            if "smatchpp" in tools:
                res["smatchpp ilp"] = lambda: smatchpp_run(py, strip_header(g, tmp), strip_header(s, tmp),
                                                           args.timeout, args.repeat)
            got = {tool: fn() for tool, fn in res.items()}
            timed = harness.side_by_side({tool: (lambda r=r: r["run"]) for tool, r in got.items()},
                                         base="mrkit" if "mrkit" in got else None)
            for tool, r in got.items():
                wall = (">" if r["run"].timed_out else "") + f"{r['run'].wall:.2f}"
                ratio = timed[tool]["ratio"] if "mrkit" in got else None
                rows.append((name, tool, wall, fmt(r["f1"]), fmt(r["cert"], "{:.0%}"),
                             "" if ratio is None else f"{ratio:.1f}x"))
                print("\t".join(rows[-1]), file=sys.stderr, flush=True)
    harness.table(("workload", "tool", "wall s", "F1", "certified", "time vs mrkit"), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
