"""``mrkit mrp GOLD SYSTEM``: the MRP metric (and framework metrics) on MRP files."""

from __future__ import annotations

import argparse
import sys
import warnings

from .common import add_engine_options, add_executor_options, add_output_options, emit, engine_config, progress_bar, to_json

HELP = """\
The CoNLL 2019/2020 MRP metric between a gold and a system MRP file.  Graphs are paired
by (framework, id); a missing system graph scores as empty.  Reported per tuple type
(tops, labels, properties, anchors, edges, attributes) and "all": precision, recall, F1,
per framework and over all frameworks, with how many graphs have a certified-optimal
node correspondence (the others report an upper bound).  Beside it, each framework's own
metric: SDP (DM, PSD), EDM (EDS), UCCA, Smatch (AMR).
"""

TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes", "all")


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("mrp", help="MRP metric between gold and system MRP files", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold MRP file")
    p.add_argument("system", help="system MRP file")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="only score gold graphs of this framework (repeatable; case-insensitive)")
    p.add_argument("--per-graph", action="store_true", help="also report every graph")
    p.add_argument("--mrp-only", action="store_true", help="skip the framework-specific metrics")
    add_output_options(p)
    add_engine_options(p)
    add_executor_options(p)
    return p


def run(args) -> int:
    from ..errors import InputError
    from ..metrics.mrp.mrp import check_frameworks, mrp_score, pair_graphs, read_mrp_pairs, select_frameworks

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        golds, systems = read_mrp_pairs(args.gold, args.system)
    for w in caught:  # e.g. the deprecated edge key "properties": one line each
        print(f"mrkit: warning: {w.message}", file=sys.stderr)
    frameworks = None
    if args.framework:
        frameworks = check_frameworks(args.framework, golds, args.gold)
    pairs = pair_graphs(golds, systems)[0]
    if frameworks is not None:
        pairs = select_frameworks(pairs, frameworks)
    if not pairs:
        what = f" of framework {', '.join(frameworks)}" if frameworks else ""
        raise InputError(f"no gold graph{what} to score: nothing to compare", args.gold)
    config = engine_config(args)
    with progress_bar(len(pairs), "mrp") as tick:
        result = mrp_score(golds, systems, config, workers=args.workers, progress=tick,
                           frameworks=frameworks)
    extra = {}
    if not args.mrp_only:
        from ..metrics.mrp.frameworks import framework_scores

        extra = framework_scores(pairs, config, workers=args.workers)
    if args.json:
        d = {"gold": args.gold, "system": args.system, **result.to_dict(per_graph=args.per_graph)}
        if extra:
            d["framework_metrics"] = extra
        emit(to_json(d), args.output)
        return 0
    emit(format_report(result, extra, args.digits, args.per_graph), args.output)
    return 0


def _row(name: str, c: dict, d: int) -> str:
    return f"{name:<18}{c['g']:>8}{c['s']:>8}{c['c']:>8}  {c['p']:.{d}f}  {c['r']:.{d}f}  {c['f']:.{d}f}"


def format_report(result, extra: dict, d: int = 4, per_graph: bool = False) -> str:
    lines = []
    if per_graph:
        lines.append("framework\tid\tgold\tsystem\tmatched\tF1\tcertified")
        for g in result.graphs:
            a = g.all
            cert = g.method if g.certified else f"no (bound {g.bound:g})"
            miss = " (missing)" if g.missing else ""
            lines.append(f"{g.framework}\t{g.id}{miss}\t{a.g}\t{a.s}\t{a.c}\t{a.f:.{d}f}\t{cert}")
        lines.append("")
    blocks = [(f, result.summary(f)) for f in result.frameworks]
    if len(blocks) != 1:
        blocks.append(("all frameworks", result.summary()))
    header = f"{'':<18}{'gold':>8}{'system':>8}{'correct':>8}  {'P':<{d + 2}}  {'R':<{d + 2}}  {'F':<{d + 2}}"
    for name, s in blocks:
        lines.append(f"MRP {name}: {s['n']} graphs, {s['missing']} missing, {s['perfect']} perfect, "
                     f"{s['certified']}/{s['n']} certified optimal")
        lines.append(header)
        lines.extend(_row(k, s[k], d) for k in TYPES)
        if s["certified"] < s["n"]:
            lines.append(f"F upper bound: {s['f1_upper_bound']:.{d}f}")
        lines.append("")
    if result.unpaired_system:
        lines.append(f"({result.unpaired_system} system graphs without a gold graph were ignored)")
        lines.append("")
    for fw, rep in extra.items():
        metric = rep["metric"]
        if metric == "smatch":
            lines.append(f"Smatch {fw}: P {rep['precision']:.{d}f}  R {rep['recall']:.{d}f}  "
                         f"F {rep['f1']:.{d}f}  ({rep['certified']}/{rep['pairs']} certified)")
            continue
        lines.append(f"{metric.upper()} {fw}: {rep['n']} graphs")
        lines.append(header + "   exact")
        for k, c in rep.items():
            if isinstance(c, dict):
                lines.append(_row(k, c, d) + (f"   {c['exact']:>5}" if "exact" in c else ""))
        lines.append("")
    return "\n".join(lines).rstrip("\n")
