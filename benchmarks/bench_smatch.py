"""Smatch: mrkit against smatch 1.0.4 and smatchpp on the same inputs.

    python benchmarks/bench_smatch.py [--workloads lp-t5,bio-self,...] [--timeout 900]
    python benchmarks/bench_smatch.py --targets      # issue 14's table vs smatch.py -r 4
    python benchmarks/bench_smatch.py --parallel     # -j 1 vs -j 2 on SICK x1-x50: wall, CPU per process
    python benchmarks/bench_smatch.py --parallel --times 5 --repeat 7   # SICK x5 (24,645 pairs) alone
    python benchmarks/bench_smatch.py --parallel --corpus lp --times 16  # LP v1.6 vs perturbed x16 (24,992 pairs)
    python benchmarks/bench_smatch.py --parallel --corpus bio --times 50 # Bio test vs perturbed x50 (25,000 pairs)
    python benchmarks/bench_smatch.py --parallel --corpus lp --times 16 --timeline  # + the phases of each run
    python benchmarks/bench_smatch.py --parallel --times 5 --against ../main/src   # + another checkout, interleaved
    python benchmarks/bench_smatch.py --parallel --times 5 --executor processes    # -j 2 as this process + a fork
    python benchmarks/bench_smatch.py --parallel --times 5 --phase   # + smatch_files alone, after start-up

``--targets`` runs the workloads of issue 14's target table (SICK, STS, Little Prince
1,562 pairs perturbed, Little Prince T5 200 pairs, Bio test vs itself) with mrkit and
smatch 1.0.4 (``-r 4``), median of 5 whole-command runs each, and prints the ratio next to
the target.  ``lp-1562`` scores the Little Prince v1.6 corpus against a perturbed copy
written by :func:`perturbed` (seeded: the same file every run).

Reference tools are run with the Python given in BENCH_PYTHON (a virtual environment
with `pip install smatch==1.0.4 smatchpp`), or the current one.  mrkit is run as
`mrkit smatch --json` with the current Python (the console script's lines,
`harness.mrkit`; install mrkit or build it in place first).  Every tool is timed as a whole command (start-up included), and the
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
    "sts": ("bamboo/sts/main_src.test.amr", "bamboo/sts/main_tgt.test.amr"),
    "lp-1562": ("little-prince/amr-bank-struct-v1.6.txt", "perturbed:little-prince/amr-bank-struct-v1.6.txt"),
    "bio-perturbed": ("bio/amr-release-test-bio.txt", "perturbed:bio/amr-release-test-bio.txt"),
}

TARGETS = {"sick": 10.0, "sts": 10.0, "lp-1562": 10.0, "lp-t5": 4.0, "bio-self": 60.0}
"""Issue 14: mrkit at least this many times faster than smatch.py -r 4 (whole commands)."""


def perturbed(path: Path, tmpdir: str, seed: int = 14) -> str:
    """A copy of a PENMAN file with about a fifth of the senses, ARG numbers and polarities
    changed (token by token, seeded), so that the pairs need a real search."""
    import random

    rng = random.Random(seed)
    out = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.lstrip().startswith("#"):
            out.append(line)
            continue
        words = line.split(" ")
        for k, w in enumerate(words):
            if w.startswith(":ARG") and len(w) > 4 and w[4].isdigit() and rng.random() < 0.2:
                words[k] = ":ARG" + str(rng.randrange(4)) + w[5:]
            elif re.fullmatch(r"[a-z]+-0[1-9]\)*\n?", w) and rng.random() < 0.2:
                words[k] = re.sub(r"-0([1-9])", lambda m: "-0" + str(int(m.group(1)) % 9 + 1), w, count=1)
            elif w.rstrip(")\n") == "-" and rng.random() < 0.5:
                words[k] = w.replace("-", "+", 1)
        out.append(" ".join(words))
    dest = Path(tmpdir) / ("perturbed-" + path.name)
    dest.write_text("".join(out), encoding="utf-8")
    return str(dest)


def repeated(gold: Path, system: Path, times: int, tmpdir: str, blank_lines: bool = True) -> tuple[str, str]:
    """The two files repeated ``times`` times (blank line between copies; ``blank_lines``
    False: no blank line anywhere).  Written copy by copy: this process stays small (a
    command it starts inherits its peak RSS in ``ru_maxrss`` on Linux)."""
    out = []
    for p in (gold, system):
        dest = Path(tmpdir) / f"x{times}{'' if blank_lines else '-squeezed'}-{p.name}"
        text = p.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
        if not blank_lines:
            text = re.sub(r"\n[ \t]*(?=\n)", "", text)
        with open(dest, "w", encoding="utf-8") as fh:
            for _ in range(times):
                fh.write(text)
        out.append(str(dest))
    return out[0], out[1]


CPU_WRAPPER = """\
import os, resource, sys
import mrkit.cli
try:
    rc = mrkit.cli.main(sys.argv[1:])
except SystemExit as exc:
    rc = exc.code
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"CPU {me.ru_utime + me.ru_stime:.4f} {kids.ru_utime + kids.ru_stime:.4f} {me.ru_maxrss} {kids.ru_maxrss}",
      file=sys.stderr)
if getattr(mrkit.cli, "_nothing_at_exit", lambda: False)():  # as the mrkit console script ends
    sys.stdout.flush(), sys.stderr.flush()
    os._exit(rc or 0)
sys.exit(rc or 0)
"""
"""Runs ``mrkit ARGS`` and reports the CPU seconds of the parent and of its workers (their
sum), and the peak RSS of the parent and of the largest worker, on its last stderr line;
then ends as the ``mrkit`` console script does (``mrkit.cli.console``: no interpreter
teardown when nothing is left for it to do), so that the wall time is a user's command's."""


def cpu_run(args: list[str], repeat: int, timeout: float, src: str | None = None) -> tuple[float, float, float, float, float]:
    """Median wall, parent CPU, workers' CPU (sum), parent and largest worker peak MB
    (``src``: another checkout's ``src`` directory instead of this one's)."""
    import statistics

    env = harness.mrkit_env() if src is None else {**harness.mrkit_env(), "PYTHONPATH": src}
    rows = []
    for _ in range(repeat):
        r = harness.run([sys.executable, "-c", CPU_WRAPPER, *args], 1, timeout, env)
        m = re.search(r"CPU ([\d.]+) ([\d.]+) (\d+) (\d+)\s*$", r.stderr)
        if not m:
            return (float("nan"),) * 5
        rows.append((r.wall, float(m.group(1)), float(m.group(2)), int(m.group(3)) / 1024, int(m.group(4)) / 1024))
    return tuple(statistics.median(c) for c in zip(*rows))  # type: ignore[return-value]


PARALLEL_CORPORA = {
    "sick": ("sick", (1, 2, 5, 10, 50)),
    "lp": ("lp-1562", (16, 160)),
    "bio": ("bio-perturbed", (50, 500)),
}
"""``--parallel --corpus NAME``: the workload repeated and its default ``--times``: BAMBOO
SICK (4,929 short pairs a copy), the Little Prince v1.6 against its perturbed copy (1,562
pairs a copy: x16 is 24,992 pairs, 12.4 MB a side) and Bio test against its perturbed copy
(500 long pairs a copy: x50 is 25,000 pairs, 31 MB a side)."""


PHASE_WRAPPER = """\
import sys, time
import mrkit.cli, mrkit.cli.smatch
from mrkit.pipeline.amr import smatch_files
from mrkit.runtime.executor import make_executor
gold, system, j, kind = sys.argv[1:5]
with make_executor(kind, int(j)) as ex:
    t = time.perf_counter()
    smatch_files(gold, system, executor=ex)
    print(f"PHASE {time.perf_counter() - t:.5f}", file=sys.stderr)
"""
"""``--phase``: one ``smatch_files`` call in a fresh process whose modules are imported (the
scoring itself: reading, coding, aligning, collecting; no interpreter start-up, imports or
report)."""


def phase_run(gold: str, system: str, j: str, kind: str, timeout: float) -> float:
    r = harness.run([sys.executable, "-c", PHASE_WRAPPER, gold, system, j, kind], 1, timeout, harness.mrkit_env())
    m = re.search(r"PHASE ([\d.]+)", r.stderr)
    return float(m.group(1)) if m else float("nan")


def timeline_run(args: list[str], timeout: float) -> dict[str, float]:
    """The phases of one whole ``mrkit ARGS`` run (``timeline_smatch.summary``, ms)."""
    import timeline_smatch

    script = str(Path(__file__).resolve().parent / "timeline_smatch.py")
    r = harness.run([sys.executable, script, *args], 1, timeout, harness.mrkit_env())
    return timeline_smatch.summary(r.stderr.splitlines(), 1000 * r.wall)


TIMELINE = ("before", "to smatch_files", "to first task", "tail", "after map", "cpu to fork", "cpu after map",
            "worker start", "worker idle")


def parallel_table(repeat: int, timeout: float, times: tuple[int, ...] | None = None, corpus: str = "sick",
                   timeline: bool = False, against: str | None = None, executor: str = "auto",
                   phase: bool = False) -> int:
    """Wall clock and CPU per process of -j 1 and -j 2 (runs interleaved) on a corpus
    repeated ``times`` times (:data:`PARALLEL_CORPORA`; SICK x5 also without blank lines
    between graphs): where do two workers pay (pipeline/amr.py THREADS_MIN_BYTES,
    SHARED_MIN_BYTES)?  ``executor``: the ``--executor`` of the -j 2 runs (auto: two threads
    on the compiled path; processes: this process and a forked one).  ``phase``: also
    ``smatch_files`` alone, after start-up (:data:`PHASE_WRAPPER`), -j 1 and -j 2.  On a
    shared machine the wall clock depends on the others' load (printed); the CPU seconds
    show what each process did (threads count in this process's)."""
    import os

    rows, trows, prows = [], [], []
    workload, default_times = PARALLEL_CORPORA[corpus]
    times = times or default_times
    label = {"sick": "SICK", "lp": "LP v1.6 vs perturbed", "bio": "Bio test vs perturbed"}[corpus]
    with tempfile.TemporaryDirectory() as tmp:
        g, s = (Path(p) for p in workload_paths(workload, tmp))
        per_copy = sum(1 for line in g.read_text(encoding="utf-8").splitlines() if line.startswith("("))
        cases = [(f"{label} x{t}", t, False) for t in times]
        cases += [(f"{label} x5, no blank lines", 5, True)] * (corpus == "sick" and 5 in times)
        for name, times, squeeze in cases:
            gold, system = repeated(g, s, times, tmp, blank_lines=not squeeze)
            got: dict[str, list] = {"1": [], "2": []} | ({"1 against": [], "2 against": []} if against else {})
            for _ in range(repeat):
                for j in got:
                    extra = ["--executor", executor] if j.startswith("2") and executor != "auto" else []
                    got[j].append(cpu_run(["smatch", gold, system, "-j", j.split()[0], *extra], 1, timeout,
                                          against if j.endswith("against") else None))
            med = {j: [sorted(c)[len(c) // 2] for c in zip(*v)] for j, v in got.items()}
            if against:  # the other checkout's -j 1 and -j 2, run interleaved with this one's
                a1, a2 = med["1 against"], med["2 against"]
                rows.append((f"{name} (against)", f"{per_copy * times:,}", f"{Path(gold).stat().st_size / 1e6:.1f}",
                             f"{a1[0]:.2f}", f"{a2[0]:.2f}", harness.ratio(a1[0], a2[0], 2),
                             f"{a1[1]:.2f}", f"{a2[1]:.2f} + {a2[2]:.2f}", f"{a1[3]:.0f} / {a2[3]:.0f}, {a2[4]:.0f}",
                             f"{os.getloadavg()[0]:.1f}"))
                print("\t".join(rows[-1]), file=sys.stderr, flush=True)
            one, two = med["1"], med["2"]
            if phase:  # the scoring alone, interleaved, median of the repeats
                ph: dict[str, list] = {"1": [], "2": []}
                for _ in range(repeat):
                    for j in ph:
                        ph[j].append(phase_run(gold, system, j, executor if j == "2" else "auto", timeout))
                p1, p2 = (sorted(v)[len(v) // 2] for v in ph.values())
                prows.append((name, f"{1000 * p1:.1f}", f"{1000 * p2:.1f}", harness.ratio(p1, p2, 2)))
                print("\t".join(prows[-1]), file=sys.stderr, flush=True)
            if timeline:  # where the part of -j 2 that is not split goes (ms, medians)
                phases = {j: [timeline_run(["smatch", gold, system, "-j", j], timeout) for _ in range(repeat)]
                          for j in ("1", "2")}
                for j, runs in phases.items():
                    cells = [f"{sorted(r[k] for r in runs)[len(runs) // 2]:.1f}" for k in TIMELINE]
                    trows.append((name, f"-j {j}", *cells))
                    print("\t".join(trows[-1]), file=sys.stderr, flush=True)
            rows.append((name, f"{per_copy * times:,}", f"{Path(gold).stat().st_size / 1e6:.1f}",
                         f"{one[0]:.2f}", f"{two[0]:.2f}", harness.ratio(one[0], two[0], 2),
                         f"{one[1]:.2f}", f"{two[1]:.2f} + {two[2]:.2f}", f"{one[3]:.0f} / {two[3]:.0f}, {two[4]:.0f}",
                         f"{os.getloadavg()[0]:.1f}"))
            print("\t".join(rows[-1]), file=sys.stderr, flush=True)
    harness.table(("corpus", "pairs", "gold MB", "-j 1 s", "-j 2 s", "speed-up of -j 2", "-j 1 CPU s",
                   "-j 2 CPU s (this process + forked)", "peak MB -j 1 / -j 2 this process, forked", "load"), rows)
    if prows:
        print()
        harness.table(("corpus", "smatch_files -j 1 ms", "-j 2 ms", "speed-up of -j 2 (scoring alone)"), prows)
    if trows:
        print()
        harness.table(("corpus", "run", *(f"{k} ms" for k in TIMELINE)), trows)
    return 0


def workload_paths(name: str, tmpdir: str) -> tuple[str, str]:
    paths = []
    for p in WORKLOADS[name]:
        if p.startswith("perturbed:"):
            paths.append(perturbed(DATA / p.split(":", 1)[1], tmpdir))
        else:
            paths.append(str(DATA / p))
    return paths[0], paths[1]


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
    ap.add_argument("--workloads", default=",".join(w for w in WORKLOADS if w != "bio-perturbed"))
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per tool run")
    ap.add_argument("--tools", default="mrkit,smatch,smatchpp")
    ap.add_argument("--repeat", type=int, default=1, help="runs per tool; the median is shown (default 1)")
    ap.add_argument("--targets", action="store_true",
                    help="issue 14's target table: its workloads, mrkit vs smatch -r 4, median of 5")
    ap.add_argument("--parallel", action="store_true",
                    help="-j 1 against -j 2 on SICK repeated 1-50 times and without blank lines: wall, "
                         "CPU of parent and workers, peak memory (median of --repeat runs)")
    ap.add_argument("--times", default=None,
                    help="with --parallel: how many copies of the corpus, comma-separated (default: SICK "
                         "1,2,5,10,50; lp 16,160; bio 50,500)")
    ap.add_argument("--corpus", choices=sorted(PARALLEL_CORPORA), default="sick",
                    help="with --parallel: the corpus repeated (sick: BAMBOO SICK; lp: Little Prince v1.6 "
                         "vs its perturbed copy; bio: Bio test vs its perturbed copy)")
    ap.add_argument("--against", metavar="SRC",
                    help="with --parallel: also run another checkout's mrkit (its src directory), interleaved "
                         "with this one's, as rows marked (against)")
    ap.add_argument("--executor", default="auto", choices=("auto", "threads", "processes"),
                    help="with --parallel: the --executor of the -j 2 runs (default auto: two threads "
                         "where the compiled path applies)")
    ap.add_argument("--phase", action="store_true",
                    help="with --parallel: also smatch_files alone in a fresh process after its imports "
                         "(the scoring without start-up and report), -j 1 and -j 2")
    ap.add_argument("--timeline", action="store_true",
                    help="with --parallel: also the phases of -j 1 and -j 2 (benchmarks/timeline_smatch.py): "
                         "start-up and exit, to the first task, the idle tail, after the map (ms, medians)")
    args = ap.parse_args()
    if args.parallel:
        times = tuple(int(t) for t in args.times.split(",")) if args.times else None
        return parallel_table(max(args.repeat, 3), args.timeout, times, args.corpus, args.timeline, args.against,
                              args.executor, args.phase)
    if args.targets:
        args.workloads, args.tools, args.repeat = ",".join(TARGETS), "mrkit,smatch", max(args.repeat, 5)
    if not DATA.exists():
        print(f"shared data not found at {DATA}; nothing to benchmark")
        return 0
    py = harness.reference_python()
    tools = args.tools.split(",")
    rows, targets = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.workloads.split(","):
            g, s = (Path(p) for p in workload_paths(name, tmp))
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
                if args.targets and tool != "mrkit":
                    targets.append((name, f"{got['mrkit']['run'].wall:.2f}", wall,
                                    "" if ratio is None else f"{ratio:.1f}x", f">= {TARGETS[name]:g}x"))
    harness.table(("workload", "tool", "wall s", "F1", "certified", "time vs mrkit"), rows)
    if args.targets:
        print()
        harness.table(("workload", "mrkit s", "smatch.py -r 4 s", "ratio", "target"), targets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
