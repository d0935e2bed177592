"""Meta-evaluation on the Little Prince study (Opitz & Frank 2022): mrkit vs reference tools.

Prints one table: for each scorer, wall time, micro/macro Smatch of BART and T5, ℙ(BART
preferred), pairwise accuracy and AΔ; then the same statistics as the study's own
evaluation code defines them (its quirks included) from the same per-pair scores, and
mrkit's table for every registered metric.

    python benchmarks/bench_metaeval.py            # BENCH_PYTHON: python with smatch 1.0.4

Reference scores: smatch 1.0.4 is run live (``smatch.py --ms``; randomized, reseeds from
the OS); smatchpp 1.8.0 exact ILP per-pair results are read from the shared data's
``reference-scores/`` (its recorded wall time is shown).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

harness.use_checkout()
DATA = harness.DATA / "amr" / "parseeval-little-prince"
BENCH_PYTHON = harness.reference_python(str(harness.ROOT.parent / "benchenv" / "bin" / "python"))

from mrkit.codecs.penman import read_penman  # noqa: E402
from mrkit.metaeval import meta_evaluate, read_labels, run_metric  # noqa: E402
from mrkit.metaeval.render import format_table, render  # noqa: E402
from mrkit.metrics.registry import available  # noqa: E402


def smatch_script() -> str | None:
    env = os.environ.get("BENCH_SMATCH")
    if env:
        return env
    beside = Path(BENCH_PYTHON).parent / "smatch.py"
    return str(beside) if beside.exists() else shutil.which("smatch.py")


def run_smatch_104(system: str) -> tuple[list[float], float, float]:
    """Per-pair F1 and corpus F1 of smatch 1.0.4 (system = -f first file), and wall time."""
    def call(*flags: str) -> tuple[list[float], float]:
        r = harness.run([BENCH_PYTHON, smatch_script(), *flags, "--significant", "6", "-r", "4",
                         "-f", str(DATA / f"{system}.amr"), str(DATA / "gold.amr")], check=True)
        return [float(x) for x in re.findall(r"F-score: ([0-9.]+)", r.stdout)], r.wall

    per_pair, wall = call("--ms")  # one line per pair, no corpus line
    corpus, _ = call()             # a separate (independently random) run for the corpus score
    return per_pair, corpus[-1], wall


def smatchpp_ilp(system: str) -> tuple[list[float], float, float]:
    ref = json.loads((DATA / "reference-scores" / f"lp-parseeval-{system}-vs-gold.smatchpp-1.8.0-ilp.json")
                     .read_text())
    per = [2 * m / (t + g) if t + g else 1.0 for m, t, g, _ in ref["per_pair"]]
    m = sum(r[0] for r in ref["per_pair"])
    t = sum(r[1] for r in ref["per_pair"])
    g = sum(r[2] for r in ref["per_pair"])
    return per, 2 * m / (t + g), float(ref["wall_s"])


def study_code_stats(a: list[float], b: list[float], pref: list[float], acc_a: list[int],
                     acc_b: list[int]) -> dict:
    """The statistics as the study's evaluation code (evaluate4tasks.py) computes them.

    Quirks kept on purpose: a pair counts for B when a - b < 1e-4 (ties go to B, not split);
    pairwise accuracy drops metric ties; AΔ is computed with the *preference* column as
    BART's acceptability and BART's acceptability as T5's (its loader reads columns 0 and 1).
    """
    a, b = np.asarray(a), np.asarray(b)
    d = a - b
    h = np.array([1 if p == 1 else -1 if p == 0 else 0 for p in pref])
    prod = h * d
    prod = prod[prod != 0]

    def adelta(acc):
        r = rankdata(np.concatenate([a, b]))
        acc = np.asarray(acc, dtype=float)
        return float(np.median(r[acc == 1]) - np.median(r[acc == 0]))

    return {"prefer_a": int((d > 1e-4).sum()), "prefer_b": int((d < 1e-4).sum()),
            "pairwise": float((prod > 0).sum() / len(prod)),
            "a_delta_code": adelta(list(pref) + list(acc_a)),   # the loader's column mix-up
            "a_delta_fixed": adelta(list(acc_a) + list(acc_b))}


def main() -> None:
    if not DATA.exists():
        sys.exit(f"shared data not found: {DATA}")
    golds = read_penman(DATA / "gold.amr")
    systems = {s: read_penman(DATA / f"{s}.amr") for s in ("bart", "t5")}
    labels = read_labels(DATA / "original" / "qualitylp_LABEL.txt")
    pref = labels.preference
    acc_a = [r[0] for r in labels.acceptable]
    acc_b = [r[1] for r in labels.acceptable]

    t0 = time.perf_counter()
    for name in systems:
        run_metric("smatch", golds, systems[name])
    mrkit_wall = time.perf_counter() - t0  # scoring only, like the reference tools' runs
    t0 = time.perf_counter()
    ev = meta_evaluate(golds, systems, ["smatch"], labels, samples=1000, seed=0)
    print(f"mrkit smatch: scoring both systems {mrkit_wall:.2f} s; scoring + every statistic "
          f"(1000 bootstrap/randomization samples) {time.perf_counter() - t0:.2f} s")
    sources = {"mrkit smatch (certified)": (ev.scores("smatch", "bart").tolist(),
                                            ev.system_table["smatch"]["bart"]["micro"],
                                            ev.scores("smatch", "t5").tolist(),
                                            ev.system_table["smatch"]["t5"]["micro"], mrkit_wall)}
    try:
        ba, bm, bw = run_smatch_104("bart")
        ta, tm, tw = run_smatch_104("t5")
        sources["smatch 1.0.4 (-r 4)"] = (ba, bm, ta, tm, bw + tw)
    except (OSError, subprocess.CalledProcessError, TypeError) as exc:
        print(f"(smatch 1.0.4 not run: {exc})", file=sys.stderr)
    ba, bm, bw = smatchpp_ilp("bart")
    ta, tm, tw = smatchpp_ilp("t5")
    sources["smatchpp 1.8.0 ILP (stored)"] = (ba, bm, ta, tm, bw + tw)

    rows = []
    for name, (a, am, b, bmicro, wall) in sources.items():
        s = study_code_stats(a, b, pref, acc_a, acc_b)
        ties = sum(1 for x, y in zip(a, b) if abs(x - y) <= 1e-9)
        wins = sum(1 for x, y in zip(a, b) if x - y > 1e-9)
        rows.append([name, f"{wall:.2f}", f"{am:.4f}", f"{bmicro:.4f}", f"{np.mean(a):.4f}", f"{np.mean(b):.4f}",
                     f"{(wins + ties / 2) / len(a):.3f}", f"{s['prefer_a']}/{s['prefer_b']}",
                     f"{s['pairwise']:.3f}", f"{s['a_delta_fixed']:.1f}", f"{s['a_delta_code']:.1f}"])
    print(format_table(["scorer", "wall s", "BART micro", "T5 micro", "BART macro", "T5 macro",
                        "P(BART)", "code A/B", "pairwise acc", "A-delta", "A-delta (code cols)"], rows,
                       "Smatch on the Little Prince study (200 sentences); statistics per the study's code"))
    print()
    print(f"humans: {labels.counts()}")
    print()
    metrics = available()
    t0 = time.perf_counter()
    full = meta_evaluate(golds, systems, metrics, labels, samples=1000, seed=0)
    print(f"mrkit compare, all registered metrics ({', '.join(metrics)}): {time.perf_counter() - t0:.2f} s")
    print("per metric (both systems): " + ", ".join(
        f"{m} {full.seconds[m]:.2f} s" for m in metrics))
    print(render(full))


if __name__ == "__main__":
    main()
