"""The metric study of ``mrkit compare --html``: a :class:`~mrkit.metaeval.study.MetaEvaluation`
as one self-contained page in the style of ``mrkit report`` (same stylesheet, charts and footer).

Tables: system-level scores, preferences between systems (share, sign test, macro difference
with interval and randomization p-value), agreement with humans (pairwise accuracy, A-delta),
the Spearman correlation between metrics as a shaded table; charts: score against sentence
length for every metric, and system scores per metric as bars.
"""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

from ...metaeval.study import MetaEvaluation
from . import svg
from .page import footer, page


def _num(x, d: int = 3) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def _ci(pair, d: int = 3) -> str:
    return f'<div class="ci">[{_num(pair[0], d)}, {_num(pair[1], d)}]</div>'


def _p(x) -> str:
    return "-" if x is None else (f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}")


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "t") -> str:
    th = "".join(f'<th class="l">{h}</th>' if i == 0 else f"<th>{h}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td class="l">{c}</td>' if i == 0 else f"<td>{c}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _heat(x) -> str:
    """Background of a correlation cell: blue for positive, red for negative."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    a = min(1.0, abs(x))
    rgb = (33, 102, 172) if x >= 0 else (178, 24, 43)
    mix = [round(255 - (255 - c) * a * 0.75) for c in rgb]
    fg = "#fff" if a > 0.7 else "#1f2328"
    return f' style="background:rgb({mix[0]},{mix[1]},{mix[2]});color:{fg}"'


def _sections(ev: MetaEvaluation, d: int) -> str:
    level = int(round(100 * ev.settings.get("level", 0.95)))
    out = []
    head = ["metric"] + [f"{escape(s)} {kind}" for s in ev.systems for kind in ("micro", "macro")]
    rows = [[f"<b>{escape(m)}</b>"] + [_num(ev.system_table[m][s][kind], d) for s in ev.systems
                                       for kind in ("micro", "macro")] for m in ev.system_table]
    out.append(f'<section><h2>System-level scores</h2>{_table(head, rows)}<p class="note">{len(ev.lengths)} '
               "items. Micro: the metric's corpus score; macro: the mean of the pair scores.</p></section>")

    for key, table in ev.preference_table.items():
        a, b = key.split(" vs ", 1)
        head = ["metric", f"P({escape(a)})", f"P({escape(b)})", "wins/ties/losses", "sign-test p",
                f"macro difference [{level}% CI]", "randomization p"]
        rows = []
        for m, r in table.items():
            st, diff = r["sign_test"], r.get("difference")
            rows.append([f"<b>{escape(m)}</b>", _num(r["share"], d), _num(1 - r["share"], d),
                         f"{st['wins']}/{st['ties']}/{st['losses']}", _p(st["p"]),
                         f"{_num(diff['mean'], d)}{_ci(diff['ci'], d)}" if diff else "-",
                         _p(diff["p_randomization"]) if diff else "-"])
        out.append(f"<section><h2>Preferences: {escape(a)} vs {escape(b)}</h2>{_table(head, rows)}"
                   '<p class="note">P(A): share of items where the metric prefers A (ties split evenly); '
                   "sign test on the decided items.</p></section>")

    if ev.pairwise_table or ev.acceptability_table:
        head = ["metric", f"pairwise accuracy [{level}% CI]", "right/counted", "metric ties",
                f"A-delta [{level}% CI]", "A-delta/n"]
        rows = []
        for m in ev.metrics:
            pw, ad = ev.pairwise_table.get(m), ev.acceptability_table.get(m)
            rows.append([f"<b>{escape(m)}</b>", f"{_num(pw['accuracy'], d)}{_ci(pw['ci'], d)}" if pw else "-",
                         f"{pw['right']}/{pw['counted']}" if pw else "-", str(pw["metric_ties"]) if pw else "-",
                         f"{_num(ad['a_delta'], 1)}{_ci(ad['ci'], 1)}" if ad else "-",
                         _num(ad["normalized"], d) if ad else "-"])
        out.append(f"<section><h2>Agreement with humans</h2>{_table(head, rows)}<p class=\"note\">Pairwise "
                   "accuracy: share of human-preferred items where the metric prefers the same parse. A-delta: "
                   "median rank of the scores of acceptable parses minus that of unacceptable ones.</p></section>")

    head = ["spearman"] + [escape(m) for m in ev.metrics]
    body = []
    for a in ev.metrics:
        body.append(f'<tr><td class="l"><b>{escape(a)}</b></td>' + "".join(
            f"<td{_heat(ev.correlation[a][b])}>{_num(ev.correlation[a][b], d)}</td>" for b in ev.metrics) + "</tr>")
    body.append('<tr><td class="l">sentence length</td>' + "".join(
        f"<td{_heat(ev.length_correlation[m])}>{_num(ev.length_correlation[m], d)}</td>" for m in ev.metrics)
        + "</tr>")
    th = "".join(f'<th class="l">{h}</th>' if i == 0 else f"<th>{h}</th>" for i, h in enumerate(head))
    out.append(f'<section><h2>Spearman correlation between metrics</h2><table class="t heat"><thead><tr>{th}'
               f'</tr></thead><tbody>{"".join(body)}</tbody></table><p class="note">All parses pooled; blue '
               "positive, red negative.</p></section>")

    charts = []
    micro = [[ev.system_table[m][s]["micro"] for m in ev.metrics] for s in ev.systems]
    bars = svg.bars(ev.metrics, [(s, [None if v is None else float(v) for v in vals])
                                 for s, vals in zip(ev.systems, micro)], "System scores per metric", "score")
    charts.append(f'<div class="chart-box"><h3>System scores per metric (micro)</h3>{svg.legend(ev.systems)}'
                  f"{bars}</div>")
    for m in ev.metrics:
        series = [(s, ev.lengths, [float(x) for x in ev.scores(m, s)]) for s in ev.systems]
        ys = [y for _, _, v in series for y in v if not math.isnan(y)]
        hi = max([1.0, *ys]) if ys else 1.0
        lo = min([0.0, *ys]) if ys else 0.0
        body = svg.scatter([(n, x, [y if not math.isnan(y) else lo for y in v]) for n, x, v in series],
                           f"{m} against sentence length", "sentence length (tokens)", escape(m),
                           yrange=(lo, hi), trend_bins=8)
        charts.append(f'<div class="chart-box"><h3>{escape(m)} against sentence length</h3>'
                      f"{svg.legend(ev.systems)}{body}</div>")
    out.append('<section><h2>Charts</h2><div class="charts">' + "".join(charts) + "</div></section>")
    return "".join(out)


def render_study(ev: MetaEvaluation, command: str, inputs: Sequence[tuple[str, str]], digits: int = 3) -> str:
    """The whole page of a metric study."""
    subtitle = (f"{len(ev.metrics)} metrics on {len(ev.systems)} systems ({', '.join(escape(s) for s in ev.systems)}),"
                f" {len(ev.lengths)} items" + (", with human judgements." if ev.labels is not None else "."))
    return page("mrkit compare: metric study", subtitle, _sections(ev, digits), footer(command, inputs),
                script=False)
