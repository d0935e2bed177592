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


# ----------------------------------------------------------------------------------------
# The paper's Tables 1 and 2 (Little Prince columns), side by side with mrkit

# Opitz & Frank 2022, Table 1 (Little Prince): P(BART), P(T5) (counts, ties split evenly),
# S macro BART, T5, S micro BART, T5 (None: not in the paper); Table 2: PA, A-delta, and
# the dagger (random baseline outside the 95% interval) of each
PAPER = {
    # row:        (P_bart, P_t5, macro_bart, macro_t5, micro_bart, micro_t5, PA, PA dagger, AD, AD dagger)
    "HUM":        (87, 113, 0.58, 0.69, None, None, 1.0, None, 233.0, None),
    "RAND":       (None, None, None, None, None, None, 0.5, None, 0.0, None),
    "SIMPLE":     (87, 113, 0.69, 0.70, None, None, 0.66, True, 11.0, False),
    "SEMA":       (84, 116, 0.60, 0.63, 0.62, 0.64, 0.66, True, 24.3, False),
    "SEMBLEU-k2": (90, 110, 0.61, 0.63, None, None, 0.67, True, 25.0, False),
    "SEMBLEU-k3": (90, 110, 0.51, 0.53, 0.53, 0.54, 0.63, True, 32.0, False),
    "SMATCH":     (94, 106, 0.73, 0.74, 0.74, 0.74, 0.72, True, 42.0, True),
    "S2MATCH":    (93, 107, 0.75, 0.76, 0.76, 0.76, 0.72, True, 35.3, False),
    "WLK-k2":     (92, 108, 0.63, 0.65, None, None, 0.66, True, 28.0, False),
    "WWLK-k2":    (91, 109, 0.79, 0.80, None, None, 0.63, True, 20.5, False),
    "WWLK-k3e2n": (97, 103, 0.72, 0.73, None, None, 0.66, True, 48.0, True),
}
# paper row -> (registered metric, options); micro only where the paper reports one
ROWS = {"SIMPLE": ("simple", {}), "SEMA": ("sema", {}), "SEMBLEU-k2": ("sembleu", {"k": 2}),
        "SEMBLEU-k3": ("sembleu", {"k": 3}), "SMATCH": ("smatch", {}), "S2MATCH": ("s2match", {}),
        "WLK-k2": ("wlk", {}), "WWLK-k2": ("wwlk", {}), "WWLK-k3e2n": ("wwlk-k3e2n", {})}


def _ad(scores, acc) -> float:
    """A-delta: median rank (all parses ranked together, ties averaged) of acceptable minus
    unacceptable parses; labels other than 0/1 are not counted (the code's column mix-up
    puts preference 0.5 there)."""
    r = rankdata(scores)
    acc = np.asarray(acc, dtype=float)
    if not (acc == 1).any() or not (acc == 0).any():
        return float("nan")
    return float(np.median(r[acc == 1]) - np.median(r[acc == 0]))


def _boot(stat, n, samples, seed, lo, hi) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    vals = [stat(rng.integers(0, n, n)) for _ in range(samples)]
    return float(np.nanpercentile(vals, lo)), float(np.nanpercentile(vals, hi))


def paper_statistics(a, b, pref, acc_a, acc_b, samples: int = 1000, seed: int = 0) -> dict:
    """Every Table 1/2 statistic of one metric, by the paper's definitions and by the
    study's released evaluate4tasks.py.

    Paper: P counts wins, ties split evenly; PA = items with a strict human preference
    where the metric agrees / all such items (a metric tie is not agreement); A-delta on
    the acceptability columns; dagger = the random baseline (0.5, 0) outside the 95%
    bootstrap interval (items resampled for PA, parses for A-delta, as the code does).
    Code: P(A) = #(a - b > 1e-4), P(B) = #(a - b < 1e-4) (ties go to B); PA drops metric
    ties; A-delta reads the preference column as BART's acceptability and BART's as T5's;
    its bootstrap interval is the 5th-95th percentile (a 90% interval)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = a - b
    h = np.array([1 if p == 1 else -1 if p == 0 else 0 for p in pref], dtype=float)
    wins, ties = int((d > 1e-9).sum()), int((np.abs(d) <= 1e-9).sum())
    strict = h != 0

    def pa_paper(idx):
        hh, dd = h[idx], d[idx]
        m = hh != 0
        return float(((hh * dd)[m] > 0).sum() / m.sum()) if m.any() else float("nan")

    def pa_code(idx):
        prod = h[idx] * d[idx]
        prod = prod[prod != 0]
        return float((prod > 0).sum() / len(prod)) if len(prod) else float("nan")

    both = np.concatenate([a, b])
    acc = np.concatenate([np.asarray(acc_a, float), np.asarray(acc_b, float)])
    acc_code = np.concatenate([np.asarray(pref, float), np.asarray(acc_a, float)])
    n = len(a)
    out = {
        "P_bart": wins + ties / 2, "P_t5": n - wins - ties / 2, "ties": ties,
        "P_code": (int((d > 1e-4).sum()), int((d < 1e-4).sum())),
        "macro": (float(a.mean()), float(b.mean())),
        "PA": pa_paper(np.arange(n)), "PA_code": pa_code(np.arange(n)),
        "AD": _ad(both, acc), "AD_code": _ad(both, acc_code),
        "strict": int(strict.sum()),
    }
    if samples:
        out["PA_ci"] = _boot(pa_paper, n, samples, seed, 2.5, 97.5)
        out["PA_code_ci"] = _boot(pa_code, n, samples, seed, 5, 95)
        out["AD_ci"] = _boot(lambda i: _ad(both[i], acc[i]), 2 * n, samples, seed, 2.5, 97.5)
        out["AD_code_ci"] = _boot(lambda i: _ad(both[i], acc_code[i]), 2 * n, samples, seed, 5, 95)
    return out


def _dagger(ci, rand) -> str:
    return "†" if ci and not (ci[0] <= rand <= ci[1]) else ""


# paper row -> the file the study's run_*.sh writes for it (sim-predictions/, without the
# corpus prefix), in a directory given by --predictions
PREDICTIONS = {"SIMPLE": "simpleMetric", "SEMA": "sema", "SEMBLEU-k2": "sembleuST-k2",
               "SEMBLEU-k3": "sembleuST-k3", "SMATCH": "smatch", "S2MATCH": "s2match", "WLK-k2": "wlk2",
               "WWLK-k2": "wwlk2-vendored", "WWLK-k3e2n": "wwlk3e2n-vendored"}


def read_predictions(path: Path) -> tuple[list[float], list[float]]:
    """A study prediction file as evaluate4tasks.py reads it: the last token of each of
    the first 400 lines (not a number: NA), even lines BART, odd lines T5."""
    vals = []
    for line in path.read_text().split("\n")[:400]:
        try:
            vals.append(float(line.split()[-1]))
        except (ValueError, IndexError):
            vals.append(float("nan"))
    return vals[::2], vals[1::2]


def reference_table(pred_dir: Path, labels, samples: int = 1000) -> str:
    """The reference implementations' per-pair scores (the study's commands), statistics
    by the paper's definitions and by the study's code, next to the paper."""
    pref = labels.preference
    acc_a = [r[0] for r in labels.acceptable]
    acc_b = [r[1] for r in labels.acceptable]
    rows = []
    for row, stem in PREDICTIONS.items():
        f = pred_dir / f"{stem}.txt"
        if not f.exists():
            f = pred_dir / f"{stem.replace('-vendored', '')}.txt"
        if not f.exists():
            continue
        a, b = read_predictions(f)
        st = paper_statistics(a, b, pref, acc_a, acc_b, samples=samples)
        P = PAPER[row]
        rows.append([row, f"{P[0]}/{P[1]}", f"{st['P_bart']:g}/{st['P_t5']:g}",
                     f"{st['P_code'][0]}/{st['P_code'][1]}", f"{P[2]:.2f}/{P[3]:.2f}",
                     f"{st['macro'][0]:.2f}/{st['macro'][1]:.2f}",
                     f"{P[6]:.2f}{'†' if P[7] else ''}", f"{st['PA']:.2f}{_dagger(st.get('PA_ci'), 0.5)}",
                     f"{st['PA_code']:.2f}{_dagger(st.get('PA_code_ci'), 0.5)}",
                     f"{P[8]:.1f}{'†' if P[9] else ''}", f"{st['AD']:.1f}{_dagger(st.get('AD_ci'), 0.0)}",
                     f"{st['AD_code']:.1f}{_dagger(st.get('AD_code_ci'), 0.0)}"])
    return format_table(["row", "P paper", "P ref", "P ref code", "S macro paper", "S macro ref",
                         "PA paper", "PA ref", "PA ref code", "A-delta paper", "A-delta ref",
                         "A-delta ref code"], rows,
                        f"The reference implementations' own scores ({pred_dir.name}: the study's commands, "
                        "GloVe 50d), statistics by the paper's definitions and by the study's code")


def paper_tables(golds, systems, labels, vectors: str | None = None, samples: int = 1000) -> str:
    """Table 1 and Table 2 of the paper next to mrkit's numbers (both ways of computing
    the statistics)."""
    pref = labels.preference
    acc_a = [r[0] for r in labels.acceptable]
    acc_b = [r[1] for r in labels.acceptable]
    t1, t2 = [], []
    hs = np.array([1 if p == 1 else -1 if p == 0 else 0 for p in pref])
    hp = ((hs > 0).sum() + (hs == 0).sum() / 2, (hs < 0).sum() + (hs == 0).sum() / 2)
    hum_ad = _ad(np.concatenate([acc_a, acc_b]), np.concatenate([acc_a, acc_b]))
    # the code's HUM row ranks its own (mixed-up) label columns
    hum_ad_code = _ad(np.concatenate([pref, acc_a]), np.concatenate([pref, acc_a]))
    P = PAPER["HUM"]
    t1.append(["HUM", f"{P[0]}/{P[1]}", f"{hp[0]:g}/{hp[1]:g}", "-", f"{P[2]:.2f}/{P[3]:.2f}",
               f"{np.mean(acc_a):.2f}/{np.mean(acc_b):.2f}", "-", "-"])
    t2.append(["HUM", "1.0", "1.00", "1.00", f"{P[8]:.1f}", f"{hum_ad:.1f}", f"{hum_ad_code:.1f}"])
    t2.append(["RAND", "0.5", "0.50", "0.50", "0.0", "0.0", "0.0"])
    for row, (metric, opts) in ROWS.items():
        if vectors and metric in ("s2match", "wwlk", "wwlk-k3e2n"):
            opts = {**opts, "vectors": vectors}
        ra = run_metric(metric, golds, systems["bart"], **opts)
        rb = run_metric(metric, golds, systems["t5"], **opts)
        st = paper_statistics(ra.pair_scores, rb.pair_scores, pref, acc_a, acc_b, samples=samples)
        P = PAPER[row]
        micro_p = f"{P[4]:.2f}/{P[5]:.2f}" if P[4] is not None else "-"
        micro_m = f"{ra.corpus:.2f}/{rb.corpus:.2f}" if P[4] is not None else "-"
        t1.append([row, f"{P[0]}/{P[1]}", f"{st['P_bart']:g}/{st['P_t5']:g}",
                   f"{st['P_code'][0]}/{st['P_code'][1]}", f"{P[2]:.2f}/{P[3]:.2f}",
                   f"{st['macro'][0]:.2f}/{st['macro'][1]:.2f}", micro_p, micro_m])
        t2.append([row, f"{P[6]:.2f}{'†' if P[7] else ''}",
                   f"{st['PA']:.2f}{_dagger(st.get('PA_ci'), 0.5)}",
                   f"{st['PA_code']:.2f}{_dagger(st.get('PA_code_ci'), 0.5)}",
                   f"{P[8]:.1f}{'†' if P[9] else ''}",
                   f"{st['AD']:.1f}{_dagger(st.get('AD_ci'), 0.0)}",
                   f"{st['AD_code']:.1f}{_dagger(st.get('AD_code_ci'), 0.0)}"])
    vec = vectors or "packaged GloVe 6B 50d"
    out = [format_table(["row", "P paper", "P mrkit", "P code", "S macro paper", "S macro mrkit",
                         "S micro paper", "S micro mrkit"], t1,
                        "Table 1, Little Prince (BART/T5): paper vs mrkit; P by the paper "
                        "(ties split evenly) and by the study's code (a-b > 1e-4 / a-b < 1e-4)"),
           "",
           format_table(["row", "PA paper", "PA mrkit", "PA code", "A-delta paper", "A-delta mrkit",
                         "A-delta code"], t2,
                        "Table 2, Little Prince: paper vs mrkit; mrkit = the paper's definitions "
                        "(95% bootstrap, † = RAND outside it); code = evaluate4tasks.py (metric ties "
                        "dropped from PA, A-delta on its mixed-up columns, † from its 5-95 percentiles)"),
           f"(vectors for S2MATCH/WWLK: {vec}; {samples} bootstrap samples, seed 0)"]
    return "\n".join(out)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vectors", help="GloVe text file for S2MATCH/WWLK (the paper: glove.6B.100d.txt)")
    ap.add_argument("--paper-only", action="store_true", help="only the paper's Tables 1 and 2")
    ap.add_argument("--predictions", type=Path,
                    help="directory of the reference implementations' per-pair scores on the study "
                         "files, named as the study's run_*.sh write them (simpleMetric.txt, sema.txt, "
                         "sembleuST-k2.txt, smatch.txt, s2match.txt, wlk2.txt, wwlk2.txt, ...)")
    args = ap.parse_args()
    if not DATA.exists():
        sys.exit(f"shared data not found: {DATA}")
    golds = read_penman(DATA / "gold.amr")
    systems = {s: read_penman(DATA / f"{s}.amr") for s in ("bart", "t5")}
    labels = read_labels(DATA / "original" / "qualitylp_LABEL.txt")
    print(paper_tables(golds, systems, labels, args.vectors))
    print()
    if args.predictions:
        print(reference_table(args.predictions, labels))
        print()
    if args.paper_only:
        return
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
