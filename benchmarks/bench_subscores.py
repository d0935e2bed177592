"""Fine-grained AMR evaluation: `mrkit smatch --subscores` against amr-evaluation.

    AMR_EVALUATION=/path/to/amr-evaluation python benchmarks/bench_subscores.py \
        [--workloads lp-t5,lp-bart,bio-self] [--repeat 1] [--timeout 1800] [--markdown]

amr-evaluation (github.com/mdtux89/amr-evaluation) is a folder of scripts, not a package:
give a copy of it in AMR_EVALUATION (it writes 1.tmp/2.tmp where it runs, so this script
runs it in a temporary copy).  Its `evaluation.sh` calls `python`: a `python` of the
reference environment (BENCH_PYTHON, Python 3 works unchanged) is put first on PATH.  It
prints two digits; a copy patched to print four (`--significant 4` and "{0:.4f}") gives
the tables of benchmarks/README.md, and its digits are read whatever they are.

Two tables: the nine scores side by side per workload (amr-evaluation, mrkit with its
default conventions, mrkit with amr-evaluation's TOP triple `--top concept`), and the
wall time of the whole run of each tool (start-up included; amr-evaluation's full run is
Smatch plus its eight subscores) with the ratio reference / mrkit.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402
from harness import fmt  # noqa: E402

DATA = harness.DATA / "amr"

WORKLOADS = {
    "lp-t5": ("parseeval-little-prince/gold.amr", "parseeval-little-prince/t5.amr"),
    "lp-bart": ("parseeval-little-prince/gold.amr", "parseeval-little-prince/bart.amr"),
    "bio-self": ("bio/amr-release-test-bio.txt", "bio/amr-release-test-bio.txt"),
}

NAMES = {"Smatch": "smatch", "Unlabeled": "unlabeled", "No WSD": "no_wsd", "Reentrancies": "reentrancies",
         "SRL": "srl", "Concepts": "concepts", "Named Ent.": "named_ent", "Negations": "negations",
         "Wikification": "wikification"}
_LINE = re.compile(r"^(Smatch|Unlabeled|No WSD|Concepts|Named Ent\.|Negations|Wikification|Reentrancies|SRL)\s*->"
                   r"[\s>-]*P:\s*([0-9.]+)\s*,\s*R:\s*([0-9.]+)\s*,\s*F:\s*([0-9.]+)", re.M)


def amr_evaluation_run(folder: str, py: str, gold: str, system: str, timeout: float, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "amr-evaluation"
        shutil.copytree(folder, work, ignore=shutil.ignore_patterns("*.pyc", "__pycache__", "*.tmp"))
        shim = Path(tmp) / "bin"
        shim.mkdir()
        (shim / "python").symlink_to(py)
        env = dict(os.environ, PATH=f"{shim}{os.pathsep}{os.environ.get('PATH', '')}")
        # evaluation.sh <parsed> <gold>
        r = harness.run(["bash", "evaluation.sh", system, gold], repeat, timeout, env, cwd=work)
    scores = {NAMES[m.group(1)]: tuple(float(x) for x in m.group(2, 3, 4)) for m in _LINE.finditer(r.stdout or "")}
    return {"run": r, "scores": scores}


def mrkit_run(gold: str, system: str, timeout: float, repeat: int, *extra: str) -> dict:
    r = harness.run(harness.mrkit("smatch", gold, system, "--subscores", "--json", *extra), repeat, timeout,
                    harness.mrkit_env())
    scores: dict = {}
    if r.ok:
        d = json.loads(r.stdout[r.stdout.index("{"):])
        s = d["summary"]
        scores["smatch"] = (s["precision"], s["recall"], s["f1"])
        for name, row in d["subscores"].items():
            scores[name] = (row["precision"], row["recall"], row["f1"], row["matched"], row["gold"], row["system"])
    return {"run": r, "scores": scores}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per tool run")
    ap.add_argument("--repeat", type=int, default=1, help="runs per tool; the median is shown (default 1)")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"shared data not found at {DATA}; nothing to benchmark")
        return 0
    folder = os.environ.get("AMR_EVALUATION")
    if not folder or not (Path(folder) / "evaluation.sh").exists():
        print("AMR_EVALUATION does not name a copy of amr-evaluation (with evaluation.sh): mrkit only",
              file=sys.stderr)
        folder = None
    py = harness.reference_python()
    score_rows, time_rows = [], []
    for name in args.workloads.split(","):
        g, s = (str(DATA / p) for p in WORKLOADS[name])
        got = {"mrkit": mrkit_run(g, s, args.timeout, args.repeat)}
        concept = mrkit_run(g, s, args.timeout, 1, "--top", "concept")
        if folder:
            got["amr-evaluation"] = amr_evaluation_run(folder, py, g, s, args.timeout, args.repeat)
        ref = got.get("amr-evaluation", {"scores": {}})["scores"]
        for key in NAMES.values():
            m, c, r = got["mrkit"]["scores"].get(key), concept["scores"].get(key), ref.get(key)
            counts = f"{m[3]:g}/{m[4]}/{m[5]}" if m and len(m) > 3 else ""
            score_rows.append((name, key,
                               "/".join(fmt(x) for x in r) if r else "-",
                               "/".join(fmt(x) for x in m[:3]) if m else "-", counts,
                               fmt(c[2]) if c else "-"))
        base = got["mrkit"]["run"].wall
        for tool, res in got.items():
            run = res["run"]
            wall = (">" if run.timed_out else "") + f"{run.wall:.2f}"
            time_rows.append((name, tool, wall, harness.ratio(run.wall, base)))
            print("\t".join(time_rows[-1]), file=sys.stderr, flush=True)
    harness.table(("workload", "score", "amr-evaluation P/R/F", "mrkit P/R/F", "mrkit matched/gold/system",
                   "mrkit F --top concept"), score_rows, args.markdown)
    print()
    harness.table(("workload", "tool", "wall s", "time vs mrkit"), time_rows, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
