"""Time the macro scores (the per-pair F1 and its mean) with the compiled reductions
(``mrkit.aggregate._reduce``) and with their Python twins (``MRKIT_PURE_REDUCE=1``).

* in process (default): ``res.macro`` of ``score -m sema`` on BAMBOO SICK and
  ``macro_f1`` of ``smatch`` on the Little Prince x16 (24,992 pairs), the per-pair values
  dropped before each call (what a command computes once); the fastest and the median of
  ``--repeat`` calls each way.
* ``--commands``: the whole commands ``mrkit score -m sema`` on SICK and ``mrkit smatch
  -j 1`` / ``-j 2`` on LP x16, this checkout with and without the extension and, with
  ``--main PATH``, another checkout's ``src`` (the lead's), interleaved round by round
  (``--rounds``); minimum, 10th percentile and median of each; ``--instructions`` counts
  the instructions of one run of each instead (valgrind: independent of the load).

LP x16 is built by :mod:`bench_smatch` (``workload_paths('lp-1562', tmp)`` repeated 16
times) in ``--tmp``.

    python benchmarks/bench_reduce.py --tmp SCRATCH
    python benchmarks/bench_reduce.py --tmp SCRATCH --commands --rounds 40 --main ../other-checkout/src
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

SICK = ("amr", "bamboo", "sick")


def lp16(tmp: str) -> tuple[str, str]:
    import bench_smatch

    Path(tmp).mkdir(parents=True, exist_ok=True)
    g, s = bench_smatch.workload_paths("lp-1562", tmp)
    return bench_smatch.repeated(Path(g), Path(s), 16, tmp)


def _timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def in_process(tmp: str, repeat: int) -> None:
    harness.use_checkout()
    from mrkit.aggregate import reducers as compiled
    from mrkit.pipeline.amr import smatch_files
    from mrkit.pipeline.amr_metrics import score_files

    sick = harness.data(*SICK)
    sema = score_files("sema", str(sick / "main_src.test.amr"), str(sick / "main_tgt.test.amr"))
    g, s = lp16(tmp)
    smatch = smatch_files(g, s)
    module = compiled.reduce_module()
    rows = []
    for label, res, read in (("SICK sema: res.macro", sema, lambda r: r.macro),
                             ("LP x16 smatch: macro_f1", smatch, lambda r: r.macro_f1)):
        table = res._raw("table")
        got = {}
        for way, mod in (("python", None), ("compiled", module)):
            compiled._COMPILED[:] = [mod]

            def call():
                table._values = None  # the per-pair values as a command first computes them
                return read(res)

            values = {call().hex() for _ in range(3)}
            walls = _timed(call, repeat)
            got[way] = (min(walls), statistics.median(walls), values)
        same = got["python"][2] == got["compiled"][2] and len(got["python"][2]) == 1
        rows.append([label, res.pairs, f"{got['python'][0] * 1e3:.3f}", f"{got['python'][1] * 1e3:.3f}",
                     f"{got['compiled'][0] * 1e3:.3f}", f"{got['compiled'][1] * 1e3:.3f}",
                     harness.ratio(got["python"][1], got["compiled"][1]), "yes" if same else "NO"])
    harness.table(["call", "pairs", "python min ms", "python median ms", "compiled min ms",
                   "compiled median ms", "speed-up (medians)", "same bits"], rows, markdown=True)


def commands(tmp: str, rounds: int, main: str | None, count: bool = False) -> None:
    sick = harness.data(*SICK)
    g, s = lp16(tmp)
    workloads = {
        "score -m sema SICK": ["score", "-m", "sema", str(sick / "main_src.test.amr"), str(sick / "main_tgt.test.amr")],
        "smatch -j 1 LP x16": ["smatch", "-j", "1", g, s],
        "smatch -j 2 LP x16": ["smatch", "-j", "2", g, s],
    }
    variants = {"compiled": harness.mrkit_env(), "MRKIT_PURE_REDUCE=1": harness.mrkit_env(MRKIT_PURE_REDUCE="1")}
    if main:
        env = dict(os.environ)
        env.pop("MRKIT_PURE_REDUCE", None)
        env["PYTHONPATH"] = main
        variants["main"] = env
    if count:
        from bench_startup import instructions

        rows = [[w, v, f"{instructions(harness.mrkit(*args), env):.1f}"]
                for w, args in workloads.items() for v, env in variants.items()]
        harness.table(["command", "mrkit", "M instructions"], rows, markdown=True)
        return
    walls = {(w, v): [] for w in workloads for v in variants}
    outputs: dict = {}
    for _ in range(rounds):
        for w, args in workloads.items():
            for v, env in variants.items():
                r = harness.run(harness.mrkit(*args), env=env)
                walls[(w, v)].extend(r.walls)
                outputs.setdefault((w, v), r.stdout)
    rows = []
    for w in workloads:
        for v in variants:
            t = sorted(walls[(w, v)])
            p10 = t[max(0, int(0.1 * (len(t) - 1)))]
            rows.append([w, v, len(t), f"{t[0] * 1e3:.1f}", f"{p10 * 1e3:.1f}", f"{statistics.median(t) * 1e3:.1f}",
                         "yes" if outputs[(w, v)] == outputs[(w, "compiled")] else "differs"])
    harness.table(["command", "mrkit", "runs", "min ms", "p10 ms", "median ms", "same output"], rows, markdown=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tmp", required=True, help="folder for LP x16")
    ap.add_argument("--repeat", type=int, default=200, help="in-process calls each way")
    ap.add_argument("--commands", action="store_true", help="time the whole commands instead")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--main", help="another checkout's src to compare with (PYTHONPATH)")
    ap.add_argument("--instructions", action="store_true", help="with --commands: instructions of one run each")
    args = ap.parse_args()
    if args.commands:
        commands(args.tmp, args.rounds, args.main, args.instructions)
    else:
        in_process(args.tmp, args.repeat)


if __name__ == "__main__":
    main()
