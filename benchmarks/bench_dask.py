"""Benchmark: throughput (pairs/s) of ``mrkit matrix`` and ``mrkit smatch`` with 1 and 2
workers, serial, worker processes and a local Dask cluster; and the Dask scheduler's
overhead per task.  The inputs for the cluster estimate of ``benchmarks/README.md``.

Workloads (shared data):

- ``matrix``: all pairs of the first ``--graphs`` Little Prince v3.0 graphs (default 200:
  19,900 unordered pairs), Smatch, ``--top-k 10``, Parquet output;
- ``smatch``: BAMBOO SICK (4,929 pairs of parses of different sentences), gold vs system.

Every run is the whole command (start-up included; the Dask runs start their local
cluster, 3-6 s on a loaded 2-core machine), median of ``--repeat`` runs; a second table
times the same work in process on a cluster that is already running (the throughput of a
long job, the per-core figure of the estimate).  Every configuration must print the same
numbers (checked: the Parquet tables and the JSON summaries are compared).

    python benchmarks/bench_dask.py [--graphs 200] [--repeat 1] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

CONFIGS = {
    "serial (-j 1)": ("--executor", "serial"),
    "processes -j 2": ("--executor", "processes", "-j", "2"),
    "dask -j 1": ("--executor", "dask", "-j", "1"),
    "dask -j 2": ("--executor", "dask", "-j", "2"),
}


def first_graphs(src: Path, n: int, dst: Path) -> None:
    blocks = [b for b in src.read_text(encoding="utf-8").split("\n\n")
              if any(line.lstrip().startswith("(") for line in b.splitlines())]
    dst.write_text("\n\n".join(b.strip("\n") for b in blocks[:n]) + "\n", encoding="utf-8")


def scheduler_overhead(tasks: int = 2000) -> tuple[float, float]:
    """Seconds per task of a local cluster (2 workers): ``tasks`` trivial tasks through
    mrkit's DaskExecutor (a window of 4 in flight, as a run), and submitted all at once."""
    harness.use_checkout()
    import distributed

    from mrkit.runtime.dask_executor import DaskExecutor

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        ex = DaskExecutor(client=client)
        list(ex.map(abs, range(50)))  # warm-up
        t = time.perf_counter()
        assert list(ex.map(abs, range(tasks))) == list(range(tasks))
        windowed = (time.perf_counter() - t) / tasks
        t = time.perf_counter()
        futures = client.map(abs, range(tasks), pure=False)
        client.gather(futures)
        bulk = (time.perf_counter() - t) / tasks
    return windowed, bulk


def steady_state(src: Path, gold: Path, system: Path) -> list[tuple]:
    """Pairs/s once the cluster runs (no start-up): the throughput a long job sees, the
    per-core figure of the cluster estimate.  In this process: serial, then local Dask
    clusters of 1 and 2 workers."""
    harness.use_checkout()
    import distributed

    from mrkit.pipeline.amr import smatch_files
    from mrkit.pipeline.matrix import MatrixRun
    from mrkit.runtime.dask_executor import DaskExecutor
    from mrkit.runtime.executor import SerialExecutor

    def once(executor) -> list[tuple]:
        out = []
        t = time.perf_counter()
        run = MatrixRun(str(src), top_k=10).use(executor)
        for _ in run.batches():
            pass
        out.append(("matrix", run.result.pairs, time.perf_counter() - t))
        t = time.perf_counter()
        res = smatch_files(str(gold), str(system), executor=executor)
        out.append(("smatch", res.pairs, time.perf_counter() - t))
        return out

    rows = [(w, "serial (in process)", n, s) for w, n, s in once(SerialExecutor())]
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, silence_logs=50) as cluster, \
                distributed.Client(cluster) as client:
            client.wait_for_workers(workers)
            ex = DaskExecutor(client=client)
            list(ex.map(abs, range(20)))  # workers import mrkit before the clock starts
            rows += [(w, f"dask, {workers} worker{'s' * (workers > 1)} (running)", n, s) for w, n, s in once(ex)]
    return [(w, name, n, f"{s:.1f}", f"{n / s:.0f}") for w, name, n, s in sorted(rows, key=lambda r: r[0])]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", type=int, default=200, help="graphs of the matrix workload (default 200)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--skip", nargs="*", default=[], choices=["matrix", "smatch", "overhead", "steady"])
    args = ap.parse_args()
    env = harness.mrkit_env()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if "matrix" not in args.skip:
            src = tmp / "lpp.amr"
            first_graphs(harness.data("amr", "little-prince", "amr-bank-struct-v3.0.txt"), args.graphs, src)
            tables = {}
            for name, opts in CONFIGS.items():
                out = tmp / f"m{len(tables)}.parquet"
                r = harness.run(harness.mrkit("matrix", str(src), "--top-k", "10", "-o", str(out), "--json", *opts),
                                args.repeat, env=env, check=True)
                tables[name] = out.read_bytes()
                pairs = json.loads(r.stdout)["pairs"]
                rows.append(("matrix", name, pairs, f"{r.wall:.1f}", f"{pairs / r.wall:.0f}"))
            import pyarrow.parquet as pq

            first = pq.read_table(tmp / "m0.parquet")
            for k in range(1, len(tables)):
                assert pq.read_table(tmp / f"m{k}.parquet").equals(first), "matrix tables differ"
        if "smatch" not in args.skip:
            gold = harness.data("amr", "bamboo", "sick", "main_src.test.amr")
            system = harness.data("amr", "bamboo", "sick", "main_tgt.test.amr")
            summaries = []
            for name, opts in CONFIGS.items():
                r = harness.run(harness.mrkit("smatch", str(gold), str(system), "--json", *opts),
                                args.repeat, env=env, check=True)
                summary = json.loads(r.stdout)["summary"]
                summaries.append(summary)
                rows.append(("smatch", name, summary["pairs"], f"{r.wall:.1f}", f"{summary['pairs'] / r.wall:.0f}"))
            assert all(s == summaries[0] for s in summaries), "smatch summaries differ"
        if "steady" not in args.skip:
            src = tmp / "lpp.amr"
            if not src.exists():
                first_graphs(harness.data("amr", "little-prince", "amr-bank-struct-v3.0.txt"), args.graphs, src)
            steady = steady_state(src, harness.data("amr", "bamboo", "sick", "main_src.test.amr"),
                                  harness.data("amr", "bamboo", "sick", "main_tgt.test.amr"))
    harness.table(("workload", "executor", "pairs", "wall s", "pairs/s"), rows, markdown=args.markdown,
                  right=(2, 3, 4))
    if "steady" not in args.skip:
        print("\nSteady state (in process, cluster already running, no start-up):\n")
        harness.table(("workload", "executor", "pairs", "wall s", "pairs/s"), steady, markdown=args.markdown,
                      right=(2, 3, 4))
    if "overhead" not in args.skip:
        windowed, bulk = scheduler_overhead()
        print(f"\nDask scheduler overhead per task (local cluster, 2 workers, trivial tasks): "
              f"{windowed * 1e3:.2f} ms in mrkit's window of 4, {bulk * 1e3:.2f} ms submitted in bulk")
    return 0


if __name__ == "__main__":
    sys.exit(main())
