"""Benchmark: ``mrkit mrp`` against the MRP organizers' scorer (mtool) on the same inputs.

Pairs: the two real EDS system outputs of the shared data, and noisy copies of the EDS
and UCCA samples generated here with a fixed seed (about 10% of node labels, anchors,
edge targets and edge labels changed; tops moved in about 20% of the graphs).

mtool is not installable from the package registries: give a checkout and a Python with
numpy < 1.24 to run it side by side,

    MTOOL_DIR=path/to/mtool MTOOL_PYTHON=path/to/python python benchmarks/bench_mrp.py

otherwise the table shows the figures measured with mtool on a 2-core machine (issue 4).
mrkit runs as the command line, in one process (``-j 1``), start-up included.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

DATA = harness.DATA / "mrp"

# measured with mtool (cfmrp/mtool@4cee3a2, numpy 1.23.5) on a 2-core machine: seconds, all F, exact
MTOOL_MEASURED = {
    "eds-pet-vs-gold": (194.0, 0.9528, "85/89"),
    "eds-peking-vs-lpps": (27.0, 0.9282, "100/100"),
    "ucca-noisy": (357.0, None, "59/87"),
    "eds-noisy": (439.0, None, "56/89"),
}


# ------------------------------------------------------------------ noisy copies

def noisy_copy(src: Path, dst: Path, seed: int = 0, rate: float = 0.1, top_rate: float = 0.2) -> None:
    """Write a copy of an MRP file with labels, anchors, edges and tops perturbed."""
    rnd = random.Random(seed)
    graphs = [json.loads(line) for line in src.read_text(encoding="utf-8").splitlines() if line.strip()]
    labels = sorted({n["label"] for g in graphs for n in g.get("nodes") or [] if isinstance(n.get("label"), str)})
    edge_labels = sorted({e["label"] for g in graphs for e in g.get("edges") or [] if isinstance(e.get("label"), str)})
    out = []
    for g in graphs:
        nodes = g.get("nodes") or []
        ids = [n["id"] for n in nodes]
        spans = [a for n in nodes for a in n.get("anchors") or []]
        for n in nodes:
            if "label" in n and labels and rnd.random() < rate:
                n["label"] = rnd.choice(labels)
            if n.get("anchors") and spans and rnd.random() < rate:
                n["anchors"] = [dict(rnd.choice(spans))]
        for e in g.get("edges") or []:
            if ids and rnd.random() < rate:
                e["target"] = rnd.choice(ids)
            if edge_labels and rnd.random() < rate:
                e["label"] = rnd.choice(edge_labels)
        if ids and rnd.random() < top_rate:
            g["tops"] = [rnd.choice(ids)]
        out.append(json.dumps(g, ensure_ascii=False))
    dst.write_text("\n".join(out) + "\n", encoding="utf-8")


# ------------------------------------------------------------------ runners

def run_mrkit(gold: Path, system: Path, framework: str, workers: int, repeat: int = 1) -> tuple[float, float, str]:
    cmd = harness.mrkit("mrp", str(gold), str(system), "--json", "--mrp-only", "--framework", framework,
                        "-j", str(workers))
    r = harness.run(cmd, repeat, env=harness.mrkit_env(), check=True)
    d = json.loads(r.stdout)
    overall = d["overall"]
    return r.wall, harness.field_of(d, "f1", "overall.all.f"), f"{overall['certified']}/{overall['n']}"


def run_mtool(gold: Path, system: Path, framework: str, repeat: int = 1) -> tuple[float, float, str] | None:
    mtool, python = os.environ.get("MTOOL_DIR"), os.environ.get("MTOOL_PYTHON")
    if not mtool or not python:
        return None
    cmd = [python, "main.py", "--read", "mrp", "--score", "mrp", "--framework", framework,
           "--gold", str(gold), str(system)]
    r = harness.run(cmd, repeat, cwd=mtool, check=True)
    d = json.loads(r.stdout)
    return r.wall, d["all"]["f"], f"{d['exact']}/{d['n']}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0, help="seed of the noisy copies (default 0)")
    ap.add_argument("-j", "--workers", type=int, default=1, help="mrkit worker processes (default 1)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per tool; the median is shown (default 1)")
    ap.add_argument("--cases", help="comma-separated subset of: " + ", ".join(MTOOL_MEASURED))
    args = ap.parse_args()
    if not DATA.exists():
        print(f"shared data not found: {DATA}", file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="bench_mrp."))
    noisy_copy(DATA / "wsj-sample" / "eds" / "wsj.mrp", tmp / "eds.noisy.mrp", args.seed)
    noisy_copy(DATA / "wsj-sample" / "ucca" / "wsj.mrp", tmp / "ucca.noisy.mrp", args.seed)
    cases = [
        ("eds-pet-vs-gold", DATA / "wsj-sample" / "eds" / "wsj.mrp", DATA / "score-fixtures" / "eds" / "wsj.pet.mrp", "eds"),
        ("eds-peking-vs-lpps", DATA / "score-fixtures" / "lpps.mrp", DATA / "score-fixtures" / "eds" / "lpps.peking.mrp", "eds"),
        ("ucca-noisy", DATA / "wsj-sample" / "ucca" / "wsj.mrp", tmp / "ucca.noisy.mrp", "ucca"),
        ("eds-noisy", DATA / "wsj-sample" / "eds" / "wsj.mrp", tmp / "eds.noisy.mrp", "eds"),
    ]
    if args.cases:
        cases = [c for c in cases if c[0] in args.cases.split(",")]
    live = bool(os.environ.get("MTOOL_DIR") and os.environ.get("MTOOL_PYTHON"))
    ref_name = "mtool (run now)" if live else "mtool (measured, issue 4)"
    print(f"{'pair':<20} {'mrkit s':>8} {'mrkit F':>8} {'certified':>10}   "
          f"{'mtool s':>8} {'mtool F':>8} {'exact':>8} {'speed-up':>9}   [{ref_name}]")
    for name, gold, system, fw in cases:
        s, f, cert = run_mrkit(gold, system, fw, args.workers, args.repeat)
        ref = run_mtool(gold, system, fw, args.repeat) if live else MTOOL_MEASURED[name]
        rs, rf, rexact = ref
        rf_text = f"{rf:.4f}" if rf is not None else "-"
        print(f"{name:<20} {s:>8.2f} {f:>8.4f} {cert:>10}   {rs:>8.1f} {rf_text:>8} {rexact:>8} {rs / s:>8.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
