"""The HTML report: a :class:`~mrkit.pipeline.inspect.AmrStudy` (sentence AMR with Smatch, MRP
graphs with the MRP metric, document graphs with document Smatch) as one page.

Headline table (Smatch micro/macro with bootstrap intervals, certified share, paired tests
against the first system), charts (score distribution, score against sentence length, F1
per triple type and per subscore, two-system scatter), the pair table and the pair view
(drawn in the browser from the embedded JSON, one pair at a time).

Metrics beyond Smatch are a list (:data:`EXTRA_TABLES`): each entry makes, from the study,
rows of per-system F1 values for the subscore table and bars; the fine-grained subscores of
``mrkit.metrics.amr.subscores`` join it when that module exists.
"""

from __future__ import annotations

import math
from html import escape
from typing import Callable

from ...aggregate.prf import prf
from ...pipeline.inspect import MRP_TYPES, TRIPLE_TYPES, AmrStudy
from . import svg
from .page import footer, page

STATS = (("precision", "P"), ("recall", "R"), ("f1", "F1"))


def _num(x, d: int = 4) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def _p(x) -> str:
    return "-" if x is None else (f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}")


def _ci(pair) -> str:
    return f'<div class="ci">[{_num(pair[0])}, {_num(pair[1])}]</div>'


def headline_stats(study: AmrStudy, samples: int, seed: int, level: float) -> dict:
    """Bootstrap intervals (micro and macro) of every system, and the paired tests of every
    other system against the first (through the aggregate layer)."""
    out = {"samples": samples, "seed": seed, "level": level, "ci": [], "macro_ci": [], "tests": []}
    for r in study.results:
        macro = r.replace(average="macro")
        out["ci"].append(r.bootstrap(samples, seed, level) if samples else None)
        out["macro_ci"].append(macro.bootstrap(samples, seed, level) if samples else None)
    base = study.results[0]
    for r in study.results[1:]:
        rounds = samples or 1000
        out["tests"].append({"micro": r.compare(base, rounds, seed, level),
                             "macro": r.replace(average="macro").compare(
                                 base.replace(average="macro"), rounds, seed, level)})
    return out


# ------------------------------------------------------------------ tables beyond Smatch

def _by_type(study: AmrStudy) -> tuple[str, list[str], list[list[float | None]], str]:
    if study.family == "mrp":
        groups = [t for t in MRP_TYPES if any(s[t][1] + s[t][2] for s in study.by_type)]
        values = [[prf(*s[t])[2] for t in groups] for s in study.by_type]
        return ("MRP by tuple type", groups, values,
                "F1 of each kind of MRP tuple under the certified node correspondence (summed over the corpus; "
                "types no graph has are left out).")
    groups = list(TRIPLE_TYPES)
    values = [[prf(*s[t])[2] if s[t][1] + s[t][2] else None for t in groups] for s in study.by_type]
    note = ("F1 of each kind of Smatch triple under the certified alignment of the whole graph "
            "(matched, gold and system triples of that kind, summed over the corpus).")
    return "Smatch by triple type", groups, values, note


def _subscores(study: AmrStudy):
    """The fine-grained subscores of sentence AMR (F1 of the summed counts, empty against
    empty a perfect match as in ``mrkit smatch --subscores``); nothing for other graphs."""
    if study.family != "amr" or not study.subscores:
        return None
    from ...features.subscores import TITLES  # the subscores' display names

    names = list(study.subscores[0])
    values = [[prf(*s[n])[2] for n in names] for s in study.subscores]
    return ("Fine-grained subscores", [TITLES.get(n, n.replace("_", " ")) for n in names], values,
            "The subscores of amr-evaluation (Damonte et al. 2017) as mrkit.metrics.amr.subscores defines them, "
            "micro-averaged; the alignment-based ones (Unlabeled, No WSD, Reentrancies, SRL) under the certified "
            "engine.")


def _document(study: AmrStudy):
    """Document Smatch's subscores (coreference, its parts, reentrancy), summed over documents."""
    if study.family != "document":
        return None
    from ...metrics.document.docsmatch import COREF_PARTS

    groups = ["coreference", *COREF_PARTS, "reentrancy"]
    keys = ["coref", *COREF_PARTS, "reentrancy"]
    values = []
    for r in study.results:
        row = []
        for k in keys:
            d = r.detail[k]
            row.append(prf(d["matched"], d["gold"], d["system"])[2] if d["gold"] + d["system"] else None)
        values.append(row)
    return ("Document Smatch subscores", [g.replace("_", " ") for g in groups], values,
            "F1 of the coreference triples (and their named-entity, bridging and other parts) and of the "
            "reentrancy triples under each document's certified alignment, summed over the documents.")


EXTRA_TABLES: list[Callable[[AmrStudy], tuple | None]] = [_by_type, _document, _subscores]
"""Each entry: study -> (title, column names, per-system values in [0, 1] or None, note), or
None when it does not apply."""


# ------------------------------------------------------------------ sections

def _headline(study: AmrStudy, stats: dict) -> str:
    level = int(round(100 * stats["level"]))
    names = study.names
    head = ["system", "P", "R", "F1 (micro)", "macro F1", "certified optimal"]
    if len(names) > 1:
        head += [f"&Delta;F1 vs {escape(names[0])}", "p (bootstrap)", "p (randomization)", "&Delta; macro F1", "p (rand.)"]
    rows = []
    for k, (name, r) in enumerate(zip(names, study.results)):
        s = r.summary()
        ci, mci = stats["ci"][k], stats["macro_ci"][k]
        cells = [f'<td class="l"><b>{escape(name)}</b></td>']
        for key, _ in STATS:
            cells.append(f"<td>{_num(s[key])}{_ci(ci[key]) if ci else ''}</td>")
        cells.append(f"<td>{_num(s['macro_f1'])}{_ci(mci['f1']) if mci else ''}</td>")
        cells.append(f"<td>{s['certified']}/{s['pairs']} ({100 * s['certified_share']:.1f}%)</td>")
        if len(names) > 1:
            if k == 0:
                cells += ['<td class="ci">baseline</td>', "<td></td>", "<td></td>", "<td></td>", "<td></td>"]
            else:
                t, tm = stats["tests"][k - 1]["micro"]["f1"], stats["tests"][k - 1]["macro"]["f1"]
                cls = "sig" if t["p_randomization"] < 1 - stats["level"] else ""
                cells += [f'<td class="{cls}">{t["difference"]:+.4f}{_ci(t["ci"])}</td>',
                          f"<td>{_p(t['p_bootstrap'])}</td>", f'<td class="{cls}">{_p(t["p_randomization"])}</td>',
                          f"<td>{tm['difference']:+.4f}{_ci(tm['ci'])}</td>", f"<td>{_p(tm['p_randomization'])}</td>"]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    n = study.results[0].pairs
    note = (f"{n} pair{'s' if n != 1 else ''}. Micro scores sum the triple counts of all pairs; macro F1 is the mean of the pair F1. "
            f"Intervals: {level}% percentile bootstrap over pairs ({stats['samples']} resamples, seed {stats['seed']})."
            if stats["samples"] else f"{n} pair{'s' if n != 1 else ''}. No bootstrap intervals (--bootstrap 0).")
    if len(names) > 1:
        rounds = stats["samples"] or 1000
        note += (f" &Delta;: each system minus {escape(names[0])} on the same pairs, with its paired-bootstrap "
                 f"interval and p-value, and the approximate-randomization p-value ({rounds} rounds); "
                 f"bold: p &lt; {1 - stats['level']:.2g}.")
    note += (" Certified optimal: the alignment found is proven to be the best one (so the score is the "
             f"exact {study.metric}), by an upper bound or the exact ILP.")
    if study.family == "mrp":
        note += " MRP: precision, recall and F1 over all tuples (tops, labels, properties, anchors, edges, attributes)."
    return ('<section id="headline"><h2>Headline</h2><table class="t"><thead><tr>'
            + "".join(f'<th class="l">{h}</th>' if i == 0 else f"<th>{h}</th>" for i, h in enumerate(head))
            + "</tr></thead><tbody>" + "".join(rows) + f'</tbody></table><p class="note">{note}</p>')


def _extra_tables(study: AmrStudy) -> tuple[str, list[str]]:
    html, charts = [], []
    for make in EXTRA_TABLES:
        got = make(study)
        if got is None:
            continue
        title, groups, values, note = got
        head = "".join(f"<th>{escape(g)}</th>" for g in groups)
        rows = "".join(f'<tr><td class="l"><b>{escape(n)}</b></td>' + "".join(f"<td>{_num(v)}</td>" for v in vals)
                       + "</tr>" for n, vals in zip(study.names, values))
        html.append(f'<h3>{escape(title)}</h3><table class="t"><thead><tr><th class="l">system</th>{head}</tr>'
                    f'</thead><tbody>{rows}</tbody></table><p class="note">{escape(note)}</p>')
        charts.append(_chart(title + " (F1)", svg.bars(groups, list(zip(study.names, values)), title), True,
                             study.names))
    return "".join(html), charts


def _chart(title: str, body: str, legend: bool = False, names=()) -> str:
    return (f'<div class="chart-box"><h3>{escape(title)}</h3>' + (svg.legend(names) if legend else "")
            + body + "</div>")


def _charts(study: AmrStudy, extra: list[str]) -> str:
    names = study.names
    f1s = [r.per_pair()["f1"].tolist() for r in study.results]
    lengths = [p["len"] for p in study.pairs]
    what = "document size" if study.family == "document" else "sentence length"
    boxes = [_chart("Distribution of pair F1", svg.histogram(list(zip(names, f1s)), "Distribution of pair F1"),
                    True, names),
             _chart(f"Pair F1 against {what} ({study.length_unit})",
                    svg.scatter([(n, lengths, f) for n, f in zip(names, f1s)],
                                f"Pair F1 against {what}", f"{what} ({study.length_unit})",
                                "pair F1", trend_bins=10), True, names)]
    boxes += extra
    if len(names) >= 2:
        a, b = names[0], names[1]
        wins = sum(x > y for x, y in zip(f1s[0], f1s[1]))
        losses = sum(y > x for x, y in zip(f1s[0], f1s[1]))
        ties = len(f1s[0]) - wins - losses
        body = svg.scatter([("pairs", f1s[0], f1s[1])], f"{a} against {b}", f"pair F1 of {a}", f"pair F1 of {b}",
                           xrange=(0, 1), diagonal=True, series_colour=["#59636e"])
        boxes.append(f'<div class="chart-box"><h3>Who wins where: {escape(a)} vs {escape(b)}</h3>'
                     f'<p class="note">Above the diagonal {escape(b)} is better: {losses} pairs; below it '
                     f"{escape(a)}: {wins}; on it: {ties}. Click a point for its pair.</p>{body}</div>")
    return ('<section id="charts"><h2>Charts</h2><p class="note">Click a point to open its pair.</p>'
            '<div class="charts">' + "".join(boxes) + "</div></section>")


def _pair_table(study: AmrStudy) -> str:
    names = study.names
    head = ['<th data-sort="pair">#</th>', '<th class="l" data-sort="id">id</th>',
            '<th class="l" data-sort="snt">sentence</th>',
            f'<th data-sort="len">{"size" if study.family == "document" else "length"}</th>']
    head += [f'<th data-sort="f{k}">F1 {escape(n)}</th>' for k, n in enumerate(names)]
    head.append('<th data-sort="cert">certified</th>')
    show = ['<option value="all">all pairs</option>', '<option value="imperfect">F1 below 1</option>',
            '<option value="uncert">not certified</option>']
    if len(names) > 1:
        head.append(f'<th data-sort="diff">&Delta; ({escape(names[1])} &minus; {escape(names[0])})</th>')
        show += [f'<option value="a">{escape(names[0])} better</option>',
                 f'<option value="b">{escape(names[1])} better</option>']
    return ('<section id="pairs-section"><h2>Pairs</h2><div class="controls">'
            '<input type="search" id="pairs-q" placeholder="filter by id or sentence" aria-label="filter">'
            f'<select id="pairs-show" aria-label="show">{"".join(show)}</select>'
            '<button class="b" id="pg-prev">&larr; previous</button><button class="b" id="pg-next">next &rarr;</button>'
            '<span id="pairs-count" class="note"></span></div>'
            '<p class="note">Click a column to sort, a row to open the pair with its alignment.</p>'
            f'<table class="t" id="pairs"><thead id="pairs-head"><tr>{"".join(head)}</tr></thead>'
            '<tbody id="pairs-body"></tbody></table><div id="pairview" hidden></div></section>')


def _data(study: AmrStudy) -> dict:
    pairs = []
    for k, p in enumerate(study.pairs):
        sc = []
        for r in study.results:
            rec = r.records[k]
            sc.append([rec["matched"], rec["gold"], rec["system"], int(bool(rec["certified"])), rec["method"],
                       round(prf(rec["matched"], rec["gold"], rec["system"])[2], 6), rec["bound"]])
        pairs.append({**p, "sc": sc})
    return {"gold": study.gold, "names": study.names, "unit": study.length_unit, "pairs": pairs,
            "family": study.family, "metric": study.metric}


def render_amr(study: AmrStudy, stats: dict, command: str) -> str:
    """The whole page of a sentence AMR study."""
    tables, charts = _extra_tables(study)
    body = (_headline(study, stats) + tables + "</section>" + _charts(study, charts) + _pair_table(study))
    inputs = [("gold", study.gold)] + [(f"system {n}", s) for n, s in zip(study.names, study.systems)]
    n = study.results[0].pairs
    subtitle = (f"{study.metric} of {len(study.names)} system{'s' if len(study.names) > 1 else ''} "
                f"({', '.join(escape(x) for x in study.names)}) against {escape(study.gold)}: {n} pair{'s' if n != 1 else ''}, "
                "each with its certified alignment.")
    title = {"mrp": "mrkit report: MRP graphs", "document": "mrkit report: document AMR"}.get(
        study.family, "mrkit report: sentence AMR")
    return page(title, subtitle, body, footer(command, inputs), _data(study))
