"""The HTML report: what a page costs next to plain scoring, and how it behaves in a browser.

    python benchmarks/bench_report.py [--workloads lp,lp-10k,eds] [--repeat 1] [--no-browser]

For every workload: `mrkit report GOLD SYS_A SYS_B -o page.html` (scoring both systems with
their alignments, 1,000 bootstrap resamples, the page) timed as a whole command next to what
gives only the numbers today: `mrkit smatch` (or `mrkit mrp`) once per system, and smatch.py
1.0.4 once per system (BENCH_PYTHON, `-r 4`; no alignment, no page).  Then, where
/usr/bin/chromium exists, the page in headless Chromium (tests/report/chromium.py): time to
load and draw, to sort the pair table by a score, to filter it, and to open a pair view.
lp-10k is the Little Prince study repeated 50 times (10,000 pairs per system).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

LP = ("amr", "parseeval-little-prince")


def workload(name: str, tmp: Path) -> tuple[str, list[str], list[str], str]:
    """(gold, systems, extra report arguments, scorer command) of a workload."""
    if name in ("lp", "lp-10k"):
        d = harness.data(*LP)
        files = [d / "gold.amr", d / "bart.amr", d / "t5.amr"]
        if name == "lp-10k":
            big = []
            for f in files:
                out = tmp / f"big-{f.name}"
                text = f.read_text(encoding="utf-8").strip() + "\n\n"
                out.write_text(text * 50, encoding="utf-8")
                big.append(out)
            files = big
        return str(files[0]), [str(f) for f in files[1:]], [], "smatch"
    if name == "eds":
        d = harness.data("mrp", "score-fixtures")
        return str(d / "lpps.mrp"), [str(d / "eds" / "lpps.peking.mrp")], ["--framework", "eds"], "mrp"
    raise SystemExit(f"unknown workload {name}")


def browser(page: Path) -> dict[str, float] | None:
    sys.path.insert(0, str(harness.ROOT / "tests" / "report"))
    try:
        import chromium
    except ImportError:
        return None
    if not chromium.available():
        return None
    out = {}
    t0 = time.perf_counter()
    with chromium.Page(page) as p:
        p.settle()
        out["load"] = time.perf_counter() - t0
        steps = {"sort": "document.querySelector('#pairs th[data-sort=\"f0\"]').click()",
                 "filter": "(() => { const q = document.getElementById('pairs-q'); q.value = 'prince';"
                           " q.dispatchEvent(new Event('input')); })()",
                 "open pair": "window.mrkitReport.open(window.mrkitReport.pairs - 1)"}
        for key, js in steps.items():
            t = time.perf_counter()
            p.evaluate(js)
            p.settle()
            out[key] = time.perf_counter() - t
        out["errors"] = len(p.errors) + len(p.requests)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default="lp,lp-10k,eds")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    py = harness.reference_python()
    rows, brows = [], []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for name in args.workloads.split(","):
            gold, systems, extra, scorer = workload(name, tmp)
            page = tmp / f"{name}.html"
            rep = harness.run(harness.mrkit("report", gold, *systems, *extra, "-o", str(page)), args.repeat,
                              args.timeout, harness.mrkit_env())
            plain = sum(harness.run(harness.mrkit(scorer, gold, s, *extra, "--json"), args.repeat, args.timeout,
                                    harness.mrkit_env()).wall for s in systems)
            ref = None
            if scorer == "smatch":
                ref = sum(harness.run([py, "-m", "smatch", "--pr", "-r", "4", "-f", s, gold], args.repeat,
                                      args.timeout).wall for s in systems)
            size = page.stat().st_size / 1e6 if page.exists() else None
            rows.append([name, f"{len(systems)}", f"{rep.wall:.1f}" if rep.ok else "failed", f"{plain:.1f}",
                         harness.ratio(rep.wall, plain), "-" if ref is None else f"{ref:.1f}",
                         "-" if size is None else f"{size:.1f}"])
            if not args.no_browser and page.exists():
                b = browser(page)
                if b is not None:
                    brows.append([name] + [f"{b[k]:.2f}" for k in ("load", "sort", "filter", "open pair")]
                                 + [str(b["errors"])])
    harness.table(["workload", "systems", "mrkit report s", "mrkit scoring s", "report/scoring",
                   "smatch.py s", "page MB"], rows, args.markdown, right=range(1, 7))
    if brows:
        print()
        harness.table(["workload", "load+draw s", "sort s", "filter s", "open pair s", "errors+requests"],
                      brows, args.markdown, right=range(1, 6))


if __name__ == "__main__":
    main()
