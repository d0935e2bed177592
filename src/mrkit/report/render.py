"""Plain-text tables of a :class:`~mrkit.metaeval.study.MetaEvaluation`."""

from __future__ import annotations

import math
from typing import Sequence

from ..metaeval.study import MetaEvaluation


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]], title: str = "") -> str:
    """Columns padded to their widest cell; the first column left-aligned, others right."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [title] if title else []
    out += [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


class _Fmt:
    def __init__(self, digits: int):
        self.d = digits

    def num(self, x, digits: int | None = None) -> str:
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return "-"
        return f"{x:.{self.d if digits is None else digits}f}"

    def ci(self, pair, digits: int | None = None) -> str:
        lo, hi = pair
        return f"[{self.num(lo, digits)}, {self.num(hi, digits)}]"

    def p(self, x) -> str:
        return "-" if x is None else (f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}")


def render(ev: MetaEvaluation, digits: int = 3) -> str:
    f = _Fmt(digits)
    level = int(round(100 * ev.settings.get("level", 0.95)))
    parts = []

    headers = ["metric"] + [f"{s} {kind}" for s in ev.systems for kind in ("micro", "macro")]
    rows = [[m] + [f.num(ev.system_table[m][s][kind]) for s in ev.systems for kind in ("micro", "macro")]
            for m in ev.system_table]
    parts.append(format_table(headers, rows, f"System-level scores ({len(ev.lengths)} items)"))

    for key, table in ev.preference_table.items():
        a, b = key.split(" vs ", 1)
        headers = ["metric", f"P({a})", f"P({b})", "wins/ties/losses", "sign-test p",
                   f"macro diff [{level}% CI]", "randomization p"]
        rows = []
        for m, r in table.items():
            st = r["sign_test"]
            diff = r.get("difference")
            rows.append([m, f.num(r["share"]), f.num(1 - r["share"]),
                         f"{st['wins']}/{st['ties']}/{st['losses']}", f.p(st["p"]),
                         f"{f.num(diff['mean'])} {f.ci(diff['ci'])}" if diff else "-",
                         f.p(diff["p_randomization"]) if diff else "-"])
        parts.append(format_table(headers, rows,
                                  f"Preferences {a} vs {b} (ties split evenly; sign test on decided items)"))

    if ev.pairwise_table or ev.acceptability_table:
        headers = ["metric", f"pairwise acc [{level}% CI]", "right/counted", "metric ties",
                   f"A-delta [{level}% CI]", "A-delta/n"]
        rows = []

        def dagger(row) -> str:
            return "†" if row and row.get("beats_random") else ""

        for m in ev.metrics:
            pw = ev.pairwise_table.get(m)
            ad = ev.acceptability_table.get(m)
            rows.append([m,
                         f"{f.num(pw['accuracy'])} {f.ci(pw['ci'])}{dagger(pw)}" if pw else "-",
                         f"{pw['right']}/{pw['counted']}" if pw else "-",
                         str(pw["metric_ties"]) if pw else "-",
                         f"{f.num(ad['a_delta'], 1)} {f.ci(ad['ci'], 1)}{dagger(ad)}" if ad else "-",
                         f.num(ad["normalized"]) if ad else "-"])
        rows.append(["random", f.num(0.5) if ev.pairwise_table else "-", "-", "-",
                     f.num(0.0, 1) if ev.acceptability_table else "-", f.num(0.0) if ev.acceptability_table else "-"])
        ties = {"exclude": "excluded", "half": "count half", "wrong": "count as wrong"}[
            ev.settings.get("ties", "exclude")]
        parts.append(format_table(headers, rows,
                                  f"Agreement with humans (pairwise accuracy: metric ties {ties}; "
                                  "A-delta: median rank of acceptable minus unacceptable parses; "
                                  f"† = the random baseline lies outside the {level}% interval)"))
    if ev.acceptability_table:
        headers = ["metric", f"ROC-AUC [{level}% CI]", "best threshold", "Youden J", "TPR", "FPR",
                   "accuracy"]
        rows = []
        for m in ev.metrics:
            ad = ev.acceptability_table.get(m)
            if not ad or "roc_auc" not in ad:
                continue
            bt = ad["best_threshold"]
            rows.append([m, f"{f.num(ad['roc_auc'])} {f.ci(ad['roc_auc_ci'])}", f.num(bt["threshold"]),
                         f.num(bt["youden"]), f.num(bt["tpr"]), f.num(bt["fpr"]), f.num(bt["accuracy"])])
        rows.append(["random", f.num(0.5), "-", f.num(0.0), "-", "-", "-"])
        parts.append(format_table(headers, rows,
                                  "Acceptable vs unacceptable parses (ROC-AUC; the threshold t, "
                                  "'acceptable when score >= t', with the largest Youden J = TPR - FPR)"))

    for key, table in ev.system_pairs_table.items():
        headers = ["metric", f"pairwise acc [{level}% CI]", "right/counted", f"A-delta [{level}% CI]"]
        rows = []
        for m in ev.metrics:
            pw, ad = table[m]["pairwise"], table[m]["a_delta"]
            rows.append([m, f"{f.num(pw['accuracy'])} {f.ci(pw['ci'])}{'†' if pw['beats_random'] else ''}",
                         f"{pw['right']}/{pw['counted']}",
                         f"{f.num(ad['a_delta'], 1)} {f.ci(ad['ci'], 1)}{'†' if ad['beats_random'] else ''}"])
        parts.append(format_table(headers, rows, f"Agreement with humans, {key} (human preference from "
                                                 f"{table['human']}; † = random baseline outside the interval)"))

    headers = ["spearman"] + ev.metrics
    rows = [[a] + [f.num(ev.correlation[a][b]) for b in ev.metrics] for a in ev.metrics]
    rows.append(["sentence length"] + [f.num(ev.length_correlation[m]) for m in ev.metrics])
    parts.append(format_table(headers, rows, "Spearman correlation between metrics (all parses pooled)"))
    return "\n\n".join(parts)


def render_audit(audits: Sequence, digits: int = 3) -> str:
    """The table metric x trap of :func:`mrkit.metaeval.audit.audit_metrics` ("ok" or
    "FALLS"), then for every trap the sound behaviour and each metric's pair scores."""
    if not audits:
        return ""
    traps = [r.trap for r in audits[0].results]
    rows = [[a.metric] + ["ok" if r.sound else ("ERROR" if r.error else "FALLS") for r in a.results]
            for a in audits]
    parts = [format_table(["metric", *traps], rows,
                          "Metric audit (ok = behaves as a sound AMR metric; FALLS = falls for the trap)")]
    f = _Fmt(digits)
    lines = ["Traps (pair scores per metric, in the order of the trap's pairs):"]
    for k, trap in enumerate(traps):
        lines.append(f"  {trap}: {audits[0].results[k].expected}")
        for a in audits:
            r = a.results[k]
            shown = r.error if r.error else " ".join(f.num(x) for x in r.scores)
            lines.append(f"    {a.metric:<12} {'ok   ' if r.sound else 'FALLS'}  {shown}")
    parts.append("\n".join(lines))
    return "\n\n".join(parts)
