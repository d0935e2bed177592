"""Time every alternative AMR metric on BAMBOO SICK (4,929 graph pairs), next to Smatch.

    python benchmarks/bench_altmetrics.py [--limit N] [--repeat 3] [--vectors FILE]

Every metric runs once on 50 pairs first (imports are not timed), then --repeat times on
the corpus in this one process; the fastest run is kept.  Prints one row per metric: wall
time, pairs per second, time relative to mrkit's Smatch, corpus score and mean of pair
scores.  The reference Smatch (smatch 1.0.4) is timed too
when a Python with it is found (environment variable BENCH_PYTHON, else ``python`` on
PATH if it imports smatch).  The reference implementations of the other metrics are not
installable from a package registry, so they are not timed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

harness.use_checkout()
SICK = harness.DATA / "amr" / "bamboo" / "sick"

from mrkit.align import AlignConfig  # noqa: E402
from mrkit.codecs.penman import read_penman  # noqa: E402
from mrkit.metrics.registry import score  # noqa: E402

METRICS = ["smatch", "sema", "sembleu", "s2match", "s2match --no-ilp", "wlk", "wwlk", "wwlk-k3e2n",
           "simple"]


def reference_smatch(a: Path, b: Path) -> tuple[float | None, float | None]:
    py = os.environ.get("BENCH_PYTHON") or shutil.which("python")
    if not py:
        return None, None
    code = "import smatch"
    if subprocess.run([py, "-c", code], capture_output=True).returncode != 0:
        return None, None
    out = harness.run([py, "-m", "smatch", "-f", str(a), str(b), "-r", "4"], quiet=True)
    secs = out.wall
    try:
        return secs, float(out.stdout.strip().split()[-1])
    except (ValueError, IndexError):
        return secs, None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N pairs")
    ap.add_argument("--repeat", type=int, default=3,
                    help="time each metric this many times and keep the fastest (default 3)")
    ap.add_argument("--metrics", help="comma-separated subset of the rows (default: all; smatch first)")
    ap.add_argument("--vectors", help="GloVe file for s2match/wwlk (default: packaged GloVe 6B 50d)")
    args = ap.parse_args()
    src, tgt = SICK / "main_src.test.amr", SICK / "main_tgt.test.amr"
    if not src.exists():
        sys.exit(f"BAMBOO SICK not found under {SICK}")
    golds, systems = read_penman(src), read_penman(tgt)
    if args.limit:
        golds, systems = golds[: args.limit], systems[: args.limit]
    n = len(golds)
    rows = []
    import ot  # noqa: F401  (import POT before timing: its import alone takes seconds)

    # the packaged vectors load once per process (the first embedding metric would pay
    # for all of them): load them before timing and report the load on its own row
    load = None
    if not args.vectors:
        from mrkit.embeddings import get_embeddings

        t = time.perf_counter()
        get_embeddings(None)
        load = time.perf_counter() - t

    names = METRICS if not args.metrics else [m for m in METRICS if m in args.metrics.split(",")]
    for name in names:
        metric = name.split()[0]
        opts = {"vectors": args.vectors} if metric in {"s2match", "wwlk", "wwlk-k3e2n"} and args.vectors else {}
        if name.endswith("--no-ilp"):
            opts["config"] = AlignConfig(exact="never")
        score(metric, golds[:50], systems[:50], **opts)  # imports are not timed
        best, res = harness.best_of(lambda: score(metric, golds, systems, **opts), args.repeat)
        rows.append((name, best, res.corpus, res.macro))
    base = rows[0][1]
    print(f"BAMBOO SICK: {n} pairs")
    print(f"{'metric':<24}{'seconds':>9}{'pairs/s':>10}{'x smatch':>10}{'corpus':>9}{'mean':>9}")
    for name, secs, corpus, mean in rows:
        print(f"{'mrkit ' + name:<24}{secs:>9.2f}{n / secs:>10.0f}{secs / base:>10.2f}{corpus:>9.4f}{mean:>9.4f}")
    if load is not None:
        print(f"{'(load packaged vectors)':<24}{load:>9.2f}   once per process, not in the rows above")
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a.amr", Path(tmp) / "b.amr"
        if args.limit:
            from mrkit.codecs.penman import write_penman
            write_penman(golds, a)
            write_penman(systems, b)
        else:
            a, b = src, tgt
        secs, f = reference_smatch(a, b)
    if secs is not None:
        fs = f"{f:>9.4f}" if f is not None else f"{'?':>9}"
        print(f"{'smatch 1.0.4':<24}{secs:>9.2f}{n / secs:>10.0f}{secs / base:>10.2f}{fs}{'':>9}")


if __name__ == "__main__":
    main()
