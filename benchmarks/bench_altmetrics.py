"""Time every alternative AMR metric on BAMBOO SICK (4,929 graph pairs), next to Smatch.

    python benchmarks/bench_altmetrics.py [--limit N] [--repeat 3] [--vectors FILE]
    python benchmarks/bench_altmetrics.py --reference-dir DIR --glove glove.6B.50d.txt
        # whole commands side by side with each metric's reference implementation
    python benchmarks/bench_altmetrics.py --parallel --repeat 11 [--sizes 0.25,0.5,1,2,5]
        # -j 1 / -j 2 / the default of the coded metrics on SICK prefixes and copies

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
import json
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


# metric -> (mrkit score options, reference checkout under --reference-dir, its command
# (run in the checkout's directory given here); {py} the reference Python, {a}/{b} the
# two files, {glove} the GloVe text file, {wwlk} the WWLK launcher below)
REFERENCES = {
    "sema": ([], "sema", ".", "{py} sema.py -t {b} -g {a}"),
    "sembleu": ([], "sembleu", "src", "{py} eval.py {b} {a}"),
    "s2match": ([], "amr-metric-suite", "py3-Smatch-and-S2match/smatch",
                "{py} s2match.py -f {a} {b} -vectors {glove}"),
    "wlk": ([], "weisfeiler-leman-amr-metrics", "src", "{py} main_wlk.py -a {a} -b {b} -round_decimals 10"),
    "wwlk": ([], "weisfeiler-leman-amr-metrics", "src",
             "{wwlk} -a {a} -b {b} -k 2 -stability_level 15 -round_decimals 10"),
    "wwlk-k3e2n": ([], "weisfeiler-leman-amr-metrics", "src",
                   "{wwlk} -a {a} -b {b} -k 3 --edge_to_node_transform -random_init_relation ones "
                   "-stability_level 15 -round_decimals 10"),
}
# main_wlk_wasser.py loads its vectors with gensim's downloader (a model hub); this launcher
# gives it the same GloVe vectors from a local text file instead, then runs the script
WWLK_LAUNCHER = (
    "import runpy, sys; import gensim.downloader as api; from gensim.models import KeyedVectors; "
    "glove = sys.argv[1]; "
    "api.load = lambda uri: KeyedVectors.load_word2vec_format(glove, binary=False, no_header=True); "
    "sys.path.insert(0, '.'); sys.argv = ['main_wlk_wasser.py'] + sys.argv[2:]; "
    "runpy.run_path('main_wlk_wasser.py', run_name='__main__')")


def versus_reference(args, src: Path, tgt: Path) -> None:
    """Each metric as a whole command: ``mrkit score -m METRIC`` vs its reference
    implementation (start-up included; median of --repeat runs for mrkit, of
    --reference-repeat for the references, which take minutes)."""
    import shlex

    py = harness.reference_python(sys.executable)
    ref_dir = Path(args.reference_dir)
    load_start = os.getloadavg()  # the machine may be shared: the load is part of the result
    rows = []
    names = [m for m in REFERENCES if not args.metrics or m in args.metrics.split(",")]
    # metrics without a reference (SIMPLE): mrkit's time alone
    names += [m for m in (args.metrics or "").split(",") if m in METRICS and m not in REFERENCES]
    # start-up: `mrkit --help`, so that the time after start-up (whole command minus it)
    # can be combined with start-up work measured elsewhere
    helped = harness.run(harness.mrkit("--help"), args.repeat, env=harness.mrkit_env(), quiet=True)
    for metric in names:
        if metric not in REFERENCES:
            mine = harness.run(harness.mrkit("score", "-m", metric, str(src), str(tgt), "--json"),
                               args.repeat, env=harness.mrkit_env())
            score = harness.headline(json.loads(mine.stdout)) if mine.ok else None
            rows.append([metric, f"{mine.wall:.2f}", f"{mine.wall - helped.wall:.3f}", "-", "-",
                         harness.fmt(score), "(no reference)"])
            continue
        opts, checkout, sub, cmd = REFERENCES[metric]
        cwd = ref_dir / checkout / sub
        wwlk = shlex.join([py, "-c", WWLK_LAUNCHER, args.glove or ""])
        ref_cmd = shlex.split(cmd.format(py=shlex.quote(py), a=src, b=tgt, glove=args.glove or "", wwlk=wwlk))
        mine = harness.run(harness.mrkit("score", "-m", metric, str(src), str(tgt), "--json", *opts),
                           args.repeat, env=harness.mrkit_env())
        score = harness.headline(json.loads(mine.stdout)) if mine.ok else None
        after = f"{mine.wall - helped.wall:.3f}"
        if not cwd.exists():
            rows.append([metric, f"{mine.wall:.2f}", after, "-", "-", harness.fmt(score), f"(no {cwd})"])
            continue
        ref = harness.run(ref_cmd, args.reference_repeat, cwd=str(cwd), timeout=args.timeout)
        # its corpus line: the last line with a number (the per-pair tools print one per
        # pair: their mean is shown instead)
        out = "failed"
        if ref.ok:
            lines = [ln for ln in ref.stdout.strip().splitlines() if not ln.startswith("time:")]
            nums = []
            for ln in lines:
                try:
                    nums.append(float(ln.split()[-1].rstrip(",")))
                except (ValueError, IndexError):
                    pass
            out = lines[-1] if len(nums) <= 1 else f"mean of {len(nums)} pairs {sum(nums) / len(nums):.4f}"
        rows.append([metric, f"{mine.wall:.2f}", after, f"{ref.wall:.2f}", harness.ratio(ref.wall, mine.wall),
                     harness.fmt(score), out[-40:]])
    print(f"BAMBOO SICK ({src.name} vs {tgt.name}): whole commands, start-up included "
          f"(mrkit median of {args.repeat}, reference median of {args.reference_repeat}); "
          f"load average at start {load_start[0]:.2f}, at the end {os.getloadavg()[0]:.2f}; "
          f"`mrkit --help` {helped.wall:.3f} s (median of {args.repeat}): 'after start-up' is the "
          f"command minus it")
    harness.table(["metric", "mrkit s", "after start-up s", "reference s", "speed-up", "mrkit corpus",
                   "reference output (last line)"], rows, right=(1, 2, 3, 4))


PARALLEL_METRICS = ("sema", "sembleu", "wlk", "simple")
PARALLEL_SIZES = (0.25, 0.5, 1.0, 2.0, 5.0)
"""``--parallel``: gold sizes as multiples of SICK's 1.15 MB (below 1: the first pairs of
both files, whole blocks; above: SICK repeated, a blank line between copies)."""


def sick_sized(times: float, tmp: str) -> tuple[str, str]:
    """SICK's two files cut to the first pairs that fill ``times`` of its gold file, or
    repeated ``times`` times."""
    src, tgt = SICK / "main_src.test.amr", SICK / "main_tgt.test.amr"
    if times == 1:
        return str(src), str(tgt)
    blocks = [p.read_text(encoding="utf-8").strip("\n").split("\n\n") for p in (src, tgt)]
    if times < 1:
        goal, size, n = times * src.stat().st_size, 0, 0
        while size < goal:
            size += len(blocks[0][n].encode()) + 2
            n += 1
        texts = ["\n\n".join(b[:n]) + "\n" for b in blocks]
    else:
        texts = [("\n\n".join(b) + "\n\n") * int(times) for b in blocks]
    out = []
    for side, text in zip(("g", "s"), texts):
        path = Path(tmp) / f"sick-{times}-{side}.amr"
        path.write_text(text, encoding="utf-8")
        out.append(str(path))
    return out[0], out[1]


def parallel_table(args) -> None:
    """``mrkit score -m METRIC`` with ``-j 1``, ``-j 2`` (two processes) and the default
    (``-j 0``: two threads of one process when half a core is free, from
    pipeline/amr_metrics.py THREADS_MIN_BYTES on) on SICK prefixes and copies: whole
    commands, runs interleaved, median (min) of --repeat; the load average is part of the
    result."""
    import statistics

    names = [m for m in (args.metrics.split(",") if args.metrics else PARALLEL_METRICS) if m in PARALLEL_METRICS]
    sizes = [float(x) for x in args.sizes.split(",")] if args.sizes else PARALLEL_SIZES
    runs = (("-j 1", ["-j", "1"]), ("-j 2", ["-j", "2"]), ("default", []))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for times in sizes:
            gold, system = sick_sized(times, tmp)
            loads = [os.getloadavg()[0]]
            walls: dict = {}
            for _ in range(args.repeat):
                for metric in names:
                    for label, extra in runs:
                        r = harness.run(harness.mrkit("score", "-m", metric, gold, system, "--json", *extra), 1,
                                        env=harness.mrkit_env())
                        walls.setdefault((metric, label), []).extend(r.walls)
                loads.append(os.getloadavg()[0])
            pairs = sum(1 for line in Path(gold).read_text(encoding="utf-8").splitlines() if line.startswith("("))
            for metric in names:
                cells = []
                for label, _ in runs:
                    w = walls[metric, label]
                    cells.append(f"{1000 * statistics.median(w):.1f} ({1000 * min(w):.1f})")
                one, two = (statistics.median(walls[metric, k]) for k in ("-j 1", "-j 2"))
                rows.append([f"{Path(gold).stat().st_size / 1e6:.2f}", f"{pairs:,}", metric, *cells,
                             harness.ratio(one, two, 2), f"{min(loads):.1f}-{max(loads):.1f}"])
                print("\t".join(rows[-1]), file=sys.stderr, flush=True)
    print(f"SICK prefixes and copies: whole commands, runs interleaved, median (min) of {args.repeat}")
    harness.table(["gold MB", "pairs", "metric", "-j 1 ms", "-j 2 ms", "default ms", "-j 1 / -j 2", "load"],
                  rows, right=(0, 1, 3, 4, 5, 6))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N pairs")
    ap.add_argument("--repeat", type=int, default=3,
                    help="time each metric this many times and keep the fastest (default 3)")
    ap.add_argument("--metrics", help="comma-separated subset of the rows (default: all; smatch first)")
    ap.add_argument("--vectors", help="GloVe file for s2match/wwlk (default: packaged GloVe 6B 50d)")
    ap.add_argument("--reference-dir",
                    help="directory holding the reference checkouts sema/, sembleu/, amr-metric-suite/, "
                         "weisfeiler-leman-amr-metrics/: time whole commands side by side with them "
                         "(BENCH_PYTHON: a Python with numpy, scipy, networkx, gensim, pyemd, penman, "
                         "smatchpp 1.5.1)")
    ap.add_argument("--glove", help="GloVe text file for the references (the same vectors as mrkit's default: "
                                    "glove.6B.50d.txt)")
    ap.add_argument("--reference-repeat", type=int, default=1, help="runs of each reference (default 1)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per reference run (default 3600)")
    ap.add_argument("--parallel", action="store_true",
                    help="sema/sembleu/wlk/simple with -j 1, -j 2 and the default on SICK prefixes and "
                         "copies (--sizes), runs interleaved, median (min) of --repeat")
    ap.add_argument("--sizes", help="with --parallel: gold sizes as multiples of SICK's 1.15 MB, comma-separated "
                                    "(default 0.25,0.5,1,2,5)")
    args = ap.parse_args()
    if args.parallel:
        parallel_table(args)
        return
    src, tgt = SICK / "main_src.test.amr", SICK / "main_tgt.test.amr"
    if not src.exists():
        sys.exit(f"BAMBOO SICK not found under {SICK}")
    if args.reference_dir:
        versus_reference(args, src, tgt)
        return
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
