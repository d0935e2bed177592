"""Coreference benchmark: mrkit against scorch (and coval when its source is available).

A generated corpus (2,000 documents, 200,000 key mentions, fixed seed) is written as
CoNLL-2012 column files under benchmarks/out/ and scored

* by mrkit: reading the two files, then all metrics at once (and each metric alone);
* by scorch (PyPI, run with $BENCH_PYTHON, default: the ``python`` next to a ``scorch``
  found on PATH): each metric alone over the same in-memory clusters.  Its functions
  are called directly: its command line adds system-only mentions to the key as
  singletons, which departs from the reference scorer (B3, CEAF, BLANC differ on A3,
  A4, A12, A13 ...);
* by coval, when $COVAL_SRC names a checkout of ns-moosavi/coval (not on PyPI: the
  package called ``coval`` there is an unrelated project); otherwise skipped.

Every scoring run (mrkit's and scorch's alike) is timed --repeat times (default 3) and
the fastest kept.  Prints wall times, the ratio to mrkit's all-metrics time, and the
largest per-document difference of (R, P, F1) between each tool and mrkit.

Whole commands, start-up included (the issue-14 target: reading + every metric at least
30x faster than ``scorer.pl all``): ``mrkit coref KEY RESPONSE`` against the CoNLL-2012
reference scorer ``perl scorer.pl all KEY RESPONSE none`` ($BENCH_SCORER_PL or
--scorer-pl: its scorer.pl; perl on PATH) and coval's ``python scorer.py KEY RESPONSE``
($COVAL_SRC, run with $BENCH_PYTHON), each the median of --command-repeat runs (default
1: scorer.pl takes minutes), with the CPU time (user + system) of each beside the wall
time: on a loaded machine the CPU ratio is the steadier one.

    python benchmarks/bench_coref.py [--docs 2000] [--mentions 100] [--seed 0] [--repeat 3]
                                     [--scorer-pl PATH] [--command-repeat 1] [--no-in-process]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402
import numpy as np

harness.use_checkout()
OUT = harness.ROOT / "benchmarks" / "out"

from mrkit.coref import read_conll, score_documents  # noqa: E402
from mrkit.coref.metrics import METRICS  # noqa: E402


def generate(n_docs: int, per_doc: int, seed: int):
    """Key and response clusters of (start, end) spans on a grid of 4-token slots."""
    rng = np.random.default_rng(seed)
    docs = []
    for _ in range(n_docs):
        slots = rng.permutation(int(per_doc * 1.3))
        lengths = rng.integers(1, 4, size=len(slots))
        spans = [(4 * int(s), 4 * int(s) + int(lengths[i]) - 1) for i, s in enumerate(slots)]
        key_spans, spare = spans[:per_doc], spans[per_doc:]
        # entity sizes: many singletons, a long tail
        ent = []
        left = per_doc
        while left > 0:
            size = int(min(left, 1 + rng.geometric(0.3) - 1 if rng.random() < 0.35 else 1 + rng.geometric(0.15)))
            ent.append(size)
            left -= size
        key, i = [], 0
        for size in ent:
            key.append(key_spans[i:i + size])
            i += size
        # response: drop 5% of the mentions, move 10% to another entity, add 5% new ones,
        # shift the end of 3% (boundary errors), split a few entities
        resp = [list(c) for c in key]
        flat = [(ci, m) for ci, c in enumerate(resp) for m in c]
        for ci, m in flat:
            r = rng.random()
            if r < 0.05:
                resp[ci].remove(m)
            elif r < 0.15:
                resp[ci].remove(m)
                resp[int(rng.integers(len(resp)))].append(m)
            elif r < 0.18:
                j = resp[ci].index(m)
                resp[ci][j] = (m[0], m[0] + 3)
        for m in spare[: per_doc // 20]:
            if rng.random() < 0.5:
                resp.append([m])
            else:
                resp[int(rng.integers(len(resp)))].append(m)
        for ci in range(len(resp)):
            if len(resp[ci]) > 3 and rng.random() < 0.1:
                half = len(resp[ci]) // 2
                resp.append(resp[ci][half:])
                resp[ci] = resp[ci][:half]
        docs.append((key, [c for c in resp if c]))
    return docs


def write_conll(path: Path, docs, side: int) -> None:
    with open(path, "w") as fh:
        for d, pair in enumerate(docs):
            clusters = pair[side]
            n_tokens = 1 + max((e for c in pair[0] + pair[1] for _, e in c), default=0)
            marks: list[list[str]] = [[] for _ in range(n_tokens)]
            for ci, cluster in enumerate(clusters):
                for s, e in cluster:
                    if s == e:
                        marks[s].append(f"({ci})")
                    else:
                        marks[s].append(f"({ci}")
                        marks[e].append(f"{ci})")
            fh.write(f"#begin document (doc{d}); part 000\n")
            for t, m in enumerate(marks):
                fh.write(f"doc{d}\t0\t{t}\tw{t}\t{'|'.join(m) if m else '-'}\n")
                if t % 25 == 24:
                    fh.write("\n")
            fh.write("#end document\n")


SCORCH_DRIVER = r"""
import json, sys, time
from scorch import scores
docs = json.load(open(sys.argv[1]))
data = []
for key, resp in docs:
    key = [set(map(tuple, c)) for c in key]
    resp = [set(map(tuple, c)) for c in resp]
    data.append((key, resp))
out = {}
repeat = int(sys.argv[2])
for name, fn in [("muc", scores.muc), ("bcub", scores.b_cubed), ("ceafm", scores.ceaf_m),
                 ("ceafe", scores.ceaf_e), ("blanc", scores.blanc)]:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        res = [fn(k, r) for k, r in data]
        best = min(best, time.perf_counter() - t)
    out[name] = {"seconds": best, "per_doc": res}
print(json.dumps(out))
"""

COVAL_DRIVER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from coval.conll import reader
from coval.eval import evaluator
t = time.perf_counter()
docs = reader.get_coref_infos(sys.argv[3], sys.argv[4], False, False, True)
read = time.perf_counter() - t
out = {"read": read}
for name, fn in [("muc", evaluator.muc), ("bcub", evaluator.b_cubed), ("ceafe", evaluator.ceafe),
                 ("lea", evaluator.lea)]:
    t = time.perf_counter()
    res = evaluator.evaluate_documents(docs, fn, beta=1)
    out[name] = {"seconds": time.perf_counter() - t, "total": list(res)}
print(json.dumps(out))
"""


def bench_python() -> str | None:
    env = os.environ.get("BENCH_PYTHON")
    if env:
        return env
    scorch = shutil.which("scorch")
    if scorch:
        candidate = Path(scorch).parent / "python"
        if candidate.exists():
            return str(candidate)
    return None


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, repeat: int, env=None, cwd=None):
    """A whole command: harness.run's median wall time, and the mean CPU time of its runs."""
    before = _cpu_children()
    r = harness.run(cmd, repeat, env=env, cwd=cwd)
    return r, (_cpu_children() - before) / max(1, len(r.walls))


def commands(key_file: Path, resp_file: Path, args) -> None:
    """Whole commands, start-up included: mrkit coref vs scorer.pl all vs coval."""
    rows = []
    mr, mr_cpu = timed(harness.mrkit("coref", str(key_file), str(resp_file), "--json"), args.command_repeat,
                       env=harness.mrkit_env())
    if not mr.ok:
        print("mrkit coref failed:", mr.stderr.strip()[-300:])
        return
    report = json.loads(mr.stdout)
    conll = report["summary"]["f1"]
    rows.append(["mrkit coref (all 7 metrics + CoNLL)", f"{mr.wall:.2f}", f"{mr_cpu:.2f}", "", "",
                 f"{100 * conll:.2f}"])
    scorer = args.scorer_pl or os.environ.get("BENCH_SCORER_PL")
    if scorer and Path(scorer).is_file() and shutil.which("perl"):
        pl, pl_cpu = timed(["perl", scorer, "all", str(key_file), str(resp_file), "none"], args.command_repeat,
                           cwd=str(Path(scorer).parent))
        f1s = {}
        metric = None
        for line in pl.stdout.splitlines():
            if line.startswith("METRIC "):
                metric = line.split()[1].rstrip(":")
            elif line.startswith("Coreference:") and metric in ("muc", "bcub", "ceafe"):
                f1s[metric] = float(line.rsplit("F1:", 1)[1].strip().rstrip("%"))
        pl_conll = sum(f1s.values()) / 3 if len(f1s) == 3 else float("nan")
        rows.append(["scorer.pl all (v8.01)", f"{pl.wall:.2f}", f"{pl_cpu:.2f}", harness.ratio(pl.wall, mr.wall),
                     harness.ratio(pl_cpu, mr_cpu), f"{pl_conll:.2f} (F1s truncated to 2 digits)"])
    else:
        print("scorer.pl: skipped (set BENCH_SCORER_PL or --scorer-pl to conll/reference-coreference-scorers' "
              "scorer.pl)")
    coval = os.environ.get("COVAL_SRC")
    py = harness.reference_python()
    if coval and Path(coval, "scorer.py").is_file():
        cv, cv_cpu = timed([py, str(Path(coval, "scorer.py")), str(key_file), str(resp_file)], args.command_repeat,
                           cwd=coval)
        m = [l for l in cv.stdout.splitlines() if l.startswith("CoNLL score")]
        rows.append(["coval scorer.py (mentions, MUC, B3, CEAFe, LEA)", f"{cv.wall:.2f}", f"{cv_cpu:.2f}",
                     harness.ratio(cv.wall, mr.wall), harness.ratio(cv_cpu, mr_cpu),
                     m[0].split()[-1] if m else ("failed" if not cv.ok else "?")])
    else:
        print("coval: skipped (set COVAL_SRC to a checkout of ns-moosavi/coval; run with BENCH_PYTHON)")
    print(f"\nwhole commands, start-up included (median of {args.command_repeat}; CPU = user + system):")
    harness.table(["command", "wall s", "CPU s", "wall x mrkit", "CPU x mrkit", "CoNLL-F1"], rows,
                  right=(1, 2, 3, 4))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--mentions", type=int, default=100, help="key mentions per document")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3,
                    help="time every scoring run (mrkit and scorch alike) this many times, keep the fastest")
    ap.add_argument("--scorer-pl", help="the reference scorer's scorer.pl (default: $BENCH_SCORER_PL)")
    ap.add_argument("--command-repeat", type=int, default=1, help="runs of each whole command (median)")
    ap.add_argument("--no-in-process", action="store_true", help="only the whole commands")
    args = ap.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    docs = generate(args.docs, args.mentions, args.seed)
    key_file, resp_file = OUT / "coref_key.conll", OUT / "coref_response.conll"
    write_conll(key_file, docs, 0)
    write_conll(resp_file, docs, 1)
    n_key = sum(len(c) for k, _ in docs for c in k)
    n_resp = sum(len(c) for _, r in docs for c in r)
    print(f"corpus: {len(docs)} documents, {n_key} key mentions, {n_resp} response mentions (seed {args.seed})")
    commands(key_file, resp_file, args)
    if args.no_in_process:
        return

    t = time.perf_counter()
    keys, resps = read_conll(key_file), read_conll(resp_file)
    t_read = time.perf_counter() - t
    score_documents(keys[:2], resps[:2])  # import scipy.optimize before timing (as the drivers do)

    def best_of(fn):
        return harness.best_of(fn, args.repeat)

    t_all, result = best_of(lambda: score_documents(keys, resps))
    per_metric = {m: best_of(lambda: score_documents(keys, resps, metrics=[m]))[0] for m in METRICS}

    rows = [("mrkit", "read both files", t_read, None), ("mrkit", "all 7 metrics", t_all, None),
            ("mrkit", "read + all metrics", t_read + t_all, None)]
    rows += [("mrkit", m, s, None) for m, s in per_metric.items()]

    # per-document mrkit values in the generated order (documents keep their order)
    mr = {m: [(c.recall, c.precision, c.f1) for c in (d.counts[m] for d in result.documents)] for m in METRICS}

    py = bench_python()
    if py is None:
        print("scorch: skipped (set BENCH_PYTHON to a Python with scorch installed)")
    else:
        clusters = OUT / "coref_clusters.json"
        clusters.write_text(json.dumps([[[list(map(list, c)) for c in k.clusters],
                                         [list(map(list, c)) for c in r.clusters]] for k, r in zip(keys, resps)]))
        proc = harness.run([py, "-c", SCORCH_DRIVER, str(clusters), str(args.repeat)], quiet=True)
        if proc.returncode:
            print("scorch: failed:", proc.stderr.strip().splitlines()[-1:])
        else:
            res = json.loads(proc.stdout.strip().splitlines()[-1])  # the drivers may print before
            for m, v in res.items():
                diff = max(max(abs(a - b) for a, b in zip(x, y)) for x, y in zip(v["per_doc"], mr[m]))
                rows.append(("scorch 0.2.0", m, v["seconds"], diff))

    coval = os.environ.get("COVAL_SRC")
    if not coval or not Path(coval, "coval").is_dir():
        print("coval: skipped (not on PyPI, GitHub unreachable here; set COVAL_SRC to a checkout of ns-moosavi/coval)")
    elif py:
        proc = harness.run([py, "-c", COVAL_DRIVER, str(OUT), coval, str(key_file), str(resp_file)], quiet=True)
        if proc.returncode == 0:
            res = json.loads(proc.stdout.strip().splitlines()[-1])  # the drivers may print before
            rows.append(("coval", "read both files", res.pop("read"), None))
            for m, v in res.items():
                c = result.prf(m)
                diff = max(abs(a - b) for a, b in zip(v["total"], c))
                rows.append(("coval", m, v["seconds"], diff))

    fastest_ref = min((r[2] for r in rows if r[0] != "mrkit" and r[1] != "read both files"), default=None)
    print(f"\n{'tool':<14}{'metric':<22}{'seconds':>9}{'x mrkit all':>13}{'max |diff|':>12}")
    for tool, metric, sec, diff in rows:
        ratio = f"{sec / t_all:.1f}" if tool != "mrkit" else ""
        d = "" if diff is None else f"{diff:.1e}"
        print(f"{tool:<14}{metric:<22}{sec:>9.3f}{ratio:>13}{d:>12}")
    print("\nmrkit (micro): " + ", ".join(f"{m} F1 {100 * result.prf(m)[2]:.2f}" for m in METRICS)
          + f", CoNLL {100 * result.conll_f1:.2f}")
    if fastest_ref is not None:
        verdict = "faster" if t_all < fastest_ref else "SLOWER"
        print(f"all mrkit metrics together: {t_all:.3f}s, {verdict} than the fastest single-metric "
              f"reference run ({fastest_ref:.3f}s)")


if __name__ == "__main__":
    main()
