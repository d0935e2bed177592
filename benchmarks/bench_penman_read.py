"""Reading PENMAN: the compiled reader against mrkit's Python reader and the penman library.

    python benchmarks/bench_penman_read.py [--repeat 5] [--no-smatch]
    python benchmarks/bench_penman_read.py --cut [--repeat 25]

For each file: `read_penman` with the Python reader (MRKIT_PURE_PENMAN=1), with the
compiled reader (src/mrkit/codecs/_penman.c; build it with `python setup.py build_ext
--inplace`), and `penman.load` for scale; best of --repeat runs, in this process. Then
`mrkit smatch` on BAMBOO SICK as a whole command (start-up included, best of --repeat,
wall time and peak RSS from /usr/bin/time when present), with either reader. Data come from
../shared/data beside the project. Reports, asserts nothing.

With --cut: the compiled scanner that finds where each graph begins and ends
(src/mrkit/codecs/_cut.c), `scan` against `scan_reference` (the scanner as first written),
each file's bytes whole in one call, in this process, on one thread, with `graphs` (what
`mrkit smatch` runs) and without (the coded `score` path); the two interleaved, fastest of
--repeat each, MB/s and the ratio; outputs compared with ==. The Little Prince x16 gold file
(12.4 MB) is written to a temporary folder as bench_smatch.py writes it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

DATA = harness.DATA / "amr"

FILES = {
    "BAMBOO SICK (src + tgt)": ["bamboo/sick/main_src.test.amr", "bamboo/sick/main_tgt.test.amr"],
    "Little Prince v3.0": ["little-prince/amr-bank-struct-v3.0.txt"],
    "Bio test": ["bio/amr-release-test-bio.txt"],
}


def best(fn, repeat: int) -> float:
    return harness.best_of(fn, repeat)[0]


def read_times(paths: list[Path], repeat: int) -> tuple[int, float, float, float]:
    import penman

    from mrkit.codecs import penman as codec

    def mrkit_read():
        return sum(len(codec.read_penman(p)) for p in paths)

    os.environ["MRKIT_PURE_PENMAN"] = "1"
    n = mrkit_read()
    python = best(mrkit_read, repeat)
    os.environ.pop("MRKIT_PURE_PENMAN")
    assert mrkit_read() == n
    fast = best(mrkit_read, repeat)
    lib = best(lambda: [penman.load(str(p)) for p in paths], repeat)
    return n, python, fast, lib


def smatch_time(pure: bool, repeat: int) -> tuple[float, str]:
    gold, system = (str(DATA / f) for f in FILES["BAMBOO SICK (src + tgt)"])
    env = harness.mrkit_env()
    if pure:
        env["MRKIT_PURE_PENMAN"] = "1"
    else:
        env.pop("MRKIT_PURE_PENMAN", None)
    timer = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    rss = ""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "time.txt"
        cmd = harness.mrkit("smatch", gold, system)
        if timer:
            cmd = [timer, "-f", "%e %M", "-o", str(out)] + cmd
        r = harness.run(cmd, repeat, env=env, quiet=True)
        if not r.ok:
            raise SystemExit(f"mrkit smatch failed: {r.stderr[-300:]}")
        if timer:
            rss = f"{int(out.read_text().split()[-1]) // 1024} MB"
    return min(r.walls), rss  # best of --repeat, as the read timings


CUT_FILES = {
    "BAMBOO SICK src": "bamboo/sick/main_src.test.amr",
    "BAMBOO STS src": "bamboo/sts/main_src.test.amr",
    "Bio test": "bio/amr-release-test-bio.txt",
    "Little Prince v1.6": "little-prince/amr-bank-struct-v1.6.txt",
}


def cut_times(repeat: int) -> None:
    import bench_smatch

    from mrkit.codecs import _cut

    with tempfile.TemporaryDirectory() as tmp:
        lp = DATA / CUT_FILES["Little Prince v1.6"]
        x16, _ = bench_smatch.repeated(lp, lp, 16, tmp)
        files = {name: DATA / rel for name, rel in CUT_FILES.items()}
        files["Little Prince v1.6 x16"] = Path(x16)
        print(f"_cut.scan on whole files, one call, one thread; fastest of {repeat} interleaved runs")
        print("| file | MB | ASCII | graphs | scan_reference | scan | speed-up |")
        print("|---|---:|:---:|:---:|---:|---:|---:|")
        for name, path in files.items():
            raw = path.read_bytes()
            mb = len(raw) / 1e6
            for graphs in (True, False):
                assert _cut.scan(raw, 0, None, True, graphs) == _cut.scan_reference(raw, 0, None, True, graphs), name
                best = {"ref": float("inf"), "new": float("inf")}
                for _ in range(repeat):  # interleaved: both see the same load
                    for key, fn in (("ref", _cut.scan_reference), ("new", _cut.scan)):
                        t0 = time.perf_counter()
                        fn(raw, 0, None, True, graphs)
                        best[key] = min(best[key], time.perf_counter() - t0)
                ref, new = best["ref"], best["new"]
                print(f"| {name} | {mb:.2f} | {'yes' if raw.isascii() else 'no'} | {'yes' if graphs else 'no'} "
                      f"| {ref * 1e3:.2f} ms, {mb / ref:,.0f} MB/s | {new * 1e3:.2f} ms, {mb / new:,.0f} MB/s "
                      f"| {ref / new:.2f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=None, help="runs per timing (default 5; with --cut 25)")
    ap.add_argument("--no-smatch", action="store_true", help="skip the whole-command timing")
    ap.add_argument("--cut", action="store_true", help="only the graph scanner, scan against scan_reference")
    args = ap.parse_args()
    if not DATA.exists():
        raise SystemExit(f"shared data not found: {DATA}")
    harness.use_checkout()
    if args.cut:
        cut_times(args.repeat or 25)
        return
    args.repeat = args.repeat or 5
    from mrkit.codecs import penman as codec

    if codec._compiled is None:
        raise SystemExit("the compiled reader is not built: python setup.py build_ext --inplace")

    print(f"read_penman, best of {args.repeat} (seconds)")
    print(f"| file | graphs | MB | Python reader | compiled | speed-up | penman.load |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rel in FILES.items():
        paths = [DATA / r for r in rel]
        mb = sum(p.stat().st_size for p in paths) / 1e6
        n, python, fast, lib = read_times(paths, args.repeat)
        print(f"| {name} | {n:,} | {mb:.2f} | {python:.3f} | {fast:.3f} | {python / fast:.1f}x | {lib:.3f} |")
    if args.no_smatch:
        return
    print()
    print(f"`mrkit smatch` on BAMBOO SICK, 4,929 pairs, whole command, best of {args.repeat}")
    print("| reader | wall (s) | peak RSS |")
    print("|---|---:|---:|")
    for label, pure in (("Python (MRKIT_PURE_PENMAN=1)", True), ("compiled", False)):
        wall, rss = smatch_time(pure, args.repeat)
        print(f"| {label} | {wall:.2f} | {rss} |")


if __name__ == "__main__":
    main()
