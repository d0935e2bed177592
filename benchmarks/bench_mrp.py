"""Benchmark: ``mrkit mrp`` against the MRP organizers' scorer (mtool) on the same inputs.

Pairs: the two real EDS system outputs of the shared data, and noisy copies of the EDS
and UCCA samples generated here with a fixed seed (about 10% of node labels, anchors,
edge targets and edge labels changed; tops moved in about 20% of the graphs).

mtool is not installable from the package registries: give a checkout and a Python with
numpy < 1.24 to run it side by side,

    MTOOL_DIR=path/to/mtool MTOOL_PYTHON=path/to/python python benchmarks/bench_mrp.py

otherwise the table shows the figures measured with mtool on a 2-core machine (issue 4).
mrkit runs as the command line, in one process (``-j 1``), start-up included.

``--suite analyze``: ``mrkit analyze`` against ``mtool --analyze`` on each framework of the
WSJ sample and of the Little Prince ``lpps.mrp`` (whole commands, and whether all 22
printed values agree); needs MTOOL_DIR/MTOOL_PYTHON.  ``--suite read``: reading the
biggest shared MRP files (and a 20,000-graph concatenation of ``lpps.mrp``) with msgspec
and with the standard library alone (``MRKIT_JSON=stdlib``), in a fresh process each, in
CPU seconds.
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


# ------------------------------------------------------------------ analyze

ANALYZE_CASES = [(f"wsj-{fw}", ("wsj-sample", fw, "wsj.mrp"), None) for fw in ("dm", "psd", "eds", "ucca", "amr")] + \
                [(f"lpps-{fw}", ("score-fixtures", "lpps.mrp"), fw) for fw in ("dm", "psd", "eds", "ucca", "amr")]


def mtool_values(stdout: str) -> list[str]:
    """The 22 values ``mtool --analyze`` prints (spaces inside a cell removed)."""
    return [line.split("\t")[2].strip().replace(" ", "") for line in stdout.splitlines() if line.startswith("(")]


def analyze_suite(repeat: int) -> None:
    sys.path.insert(0, str(harness.ROOT / "src"))
    from mrkit.report.analyze import ROWS, cell

    mtool, python = os.environ.get("MTOOL_DIR"), os.environ.get("MTOOL_PYTHON")
    print(f"{'input':<10} {'mrkit s':>8} {'mtool s':>8} {'speed-up':>9}  values equal")
    for name, parts, fw in ANALYZE_CASES:
        path = DATA.joinpath(*parts)
        cmd = harness.mrkit("analyze", str(path), "--json", "--no-inverted", *(["--framework", fw] if fw else []))
        r = harness.run(cmd, repeat, env=harness.mrkit_env(), check=True)
        stats = json.loads(r.stdout)["frameworks"][fw or parts[1]]
        ours = [cell(stats, key, kind).replace(" ", "") for _, key, kind in ROWS]
        if mtool and python:
            ref = harness.run([python, "main.py", "--read", "mrp", *(["--framework", fw] if fw else []),
                               "--analyze", str(path)], repeat, cwd=mtool, check=True)
            same = "yes" if mtool_values(ref.stdout) == ours else "NO"
            print(f"{name:<10} {r.wall:>8.2f} {ref.wall:>8.2f} {ref.wall / r.wall:>8.1f}x  {same}")
        else:
            print(f"{name:<10} {r.wall:>8.2f} {'-':>8} {'-':>9}  (no mtool)")


# ------------------------------------------------------------------ reading

def read_suite(repeat: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench_mrp_read."))
    big = tmp / "lpps-x40.mrp"
    lines = (DATA / "score-fixtures" / "lpps.mrp").read_text(encoding="utf-8").splitlines()
    with open(big, "w", encoding="utf-8") as fh:
        for k in range(40):
            for line in lines:
                g = json.loads(line)
                g["id"] = f"{g['id']}-{k}"
                fh.write(json.dumps(g, ensure_ascii=False) + "\n")
    files = [DATA / "score-fixtures" / "lpps.mrp", DATA / "wsj-sample" / "eds" / "wsj.mrp", big]
    # CPU seconds of the reading process (robust on a loaded machine); msgspec for every size
    code = ("import sys, time, warnings; warnings.simplefilter('ignore'); "
            "import mrkit.codecs.mrp as m; m.FAST_MIN_BYTES = 0; clock = time.process_time; a = clock(); "
            "n = sum(1 for _ in m.iter_mrp_json(sys.argv[1])); b = clock(); "
            "gs = m.read_mrp(sys.argv[1]); c = clock(); print(len(gs), b - a, c - b)")
    print("CPU seconds (msgspec: its import included, ~0.025 s)")
    print(f"{'file':<16} {'MB':>6} {'graphs':>7}  {'JSON msgspec':>11} {'JSON stdlib':>11}  "
          f"{'read msgspec':>11} {'read stdlib':>11}")
    for path in files:
        res = {}
        for mode in ("msgspec", "stdlib"):
            env = harness.mrkit_env(MRKIT_JSON=mode)
            runs = [harness.run([sys.executable, "-c", code, str(path)], 1, env=env, check=True).stdout.split()
                    for _ in range(max(1, repeat))]
            n = int(runs[0][0])
            res[mode] = (sorted(float(r[1]) for r in runs)[len(runs) // 2], sorted(float(r[2]) for r in runs)[len(runs) // 2])
        mb = path.stat().st_size / 1e6
        print(f"{path.name:<16} {mb:>6.1f} {n:>7}  {res['msgspec'][0]:>11.3f} {res['stdlib'][0]:>11.3f}  "
              f"{res['msgspec'][1]:>11.3f} {res['stdlib'][1]:>11.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0, help="seed of the noisy copies (default 0)")
    ap.add_argument("-j", "--workers", type=int, default=1, help="mrkit worker processes (default 1)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per tool; the median is shown (default 1)")
    ap.add_argument("--cases", help="comma-separated subset of: " + ", ".join(MTOOL_MEASURED))
    ap.add_argument("--suite", choices=("score", "analyze", "read"), default="score",
                    help="score: mrkit mrp vs mtool --score mrp (default); analyze: mrkit analyze vs "
                         "mtool --analyze; read: MRP reading with msgspec vs the standard library")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"shared data not found: {DATA}", file=sys.stderr)
        return 1
    if args.suite == "analyze":
        analyze_suite(args.repeat)
        return 0
    if args.suite == "read":
        read_suite(args.repeat)
        return 0
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
