"""``mrkit mrp GOLD SYSTEM``: the MRP metric (and framework metrics) on MRP files."""

from __future__ import annotations

import argparse
import sys

from .common import (add_engine_options, emit, add_executor_options, add_format_option, add_output_options,
                     add_stats_options, check_stats, emit_result, engine_config, executor_of, progress_bar,
                     report_format, split_formats, statistics)

HELP = """\
The CoNLL 2019/2020 MRP metric between a gold and a system file.  Graphs are paired
by (framework, id); a missing system graph scores as empty.  Reported per tuple type
(tops, labels, properties, anchors, edges, attributes) and "all": precision, recall, F1,
per framework and over all frameworks, with how many graphs have a certified-optimal
node correspondence (the others report an upper bound).  Beside it, each framework's own
metric: SDP (DM, PSD), EDM (EDS), UCCA, Smatch (AMR).  The headline (JSON summary.f1) is
the "all" F1 over all tuples of all frameworks (pooled counts); with several frameworks
the official cross-framework score, the mean of the per-framework "all" P, R and F1, is
printed beside it (JSON: cross_framework).

Inputs are MRP or a native format mrkit converts (amr: PENMAN, sdp: DM/PSD, eds, ucca: XML
file, directory or list), given by --format or guessed from the suffix and content; '-'
reads stdin.  --errors OUT draws every imperfect pair as Graphviz DOT; --per-graph --json
includes each graph's node correspondence (gold node -> system node).  An MRP file may be inside .gz or .zip (one .mrp entry).  --id, --ids-file and
--limit N select gold graphs (and the system graphs paired with them).  --normalize chooses
the normalizations that apply before scoring (anchors, case, edges, attributes; all by
default, as mtool --score; none: the graphs as written).  --bootstrap N adds confidence intervals, --against SYSTEM_B compares a
second system on the same gold graphs (paired bootstrap, approximate randomization); the
framework metrics get the same on their headline measure (SDP labeled, EDM all, UCCA
labeled primary, Smatch).
"""

TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes", "all")


def add_parser(sub) -> argparse.ArgumentParser:
    from ..codecs.registry import READ_FORMATS

    p = sub.add_parser("mrp", help="MRP metric between gold and system graphs (MRP or native formats)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold graphs (MRP or a native format; - for stdin)")
    p.add_argument("system", help="system graphs (MRP or a native format; - for stdin)")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="only score gold graphs of this framework (repeatable; case-insensitive)")
    p.add_argument("--per-graph", "--per-pair", dest="per_graph", action="store_true",
                   help="also report every graph (one row per graph with --format tsv|csv)")
    p.add_argument("--mrp-only", action="store_true", help="skip the framework-specific metrics")
    p.add_argument("--errors", metavar="OUT",
                   help="write every graph pair that is not perfect as Graphviz DOT (gold and system side by "
                        "side; matched nodes and edges green, differing nodes orange, missing and extra red, "
                        "under the certified node correspondence); render with e.g. dot -Tsvg -O OUT")
    p.add_argument("--text", metavar="FILE",
                   help="raw sentences ('id<TAB>text' lines) to anchor native sdp, eds and ucca inputs")
    add_normalize_option(p)
    from .selection import add_selection_options

    add_selection_options(p)
    add_format_option(p, READ_FORMATS)
    add_output_options(p)
    add_engine_options(p)
    add_executor_options(p)
    add_stats_options(p)
    return p


def run(args) -> int:
    from ..errors import InputError, MrkitError
    from ..metrics.mrp.mrp import check_frameworks
    from ..codecs.registry import READ_FORMATS
    from ..pipeline.mrp import PARALLEL_MIN_PAIRS, pairs_of, read_side, score_pairs

    from ..pipeline.selection import select_pairs_sides
    from .selection import selection_of

    split_formats(args, READ_FORMATS)
    report_format(args)
    check_stats(args)
    normalize = normalize_of(args)
    selection = selection_of(args)
    if args.errors:
        from ..codecs._files import check_writable

        check_writable(args.errors)
    if args.gold == "-" and args.system == "-" or args.against == "-" and "-" in (args.gold, args.system):
        raise MrkitError("stdin ('-') can be read only once")
    texts = None
    if args.text:
        from ..codecs.anchoring import read_text_map

        texts = read_text_map(args.text)

    def warn(message: str) -> None:  # e.g. the deprecated edge key "properties": one line each
        print(f"mrkit: warning: {message}", file=sys.stderr)

    golds = read_side(args.gold, args.input_format, texts, warn)
    systems = read_side(args.system, args.input_format, texts, warn)
    frameworks = None
    if args.framework:
        frameworks = check_frameworks(args.framework, golds, args.gold)
        if selection.limit is not None:  # the first N graphs of these frameworks
            golds = [g for g in golds if (g.framework or "").lower() in frameworks]
    golds, systems = select_pairs_sides(golds, systems, selection)
    pairs, unpaired = pairs_of(golds, systems, frameworks)
    if not pairs:
        what = f" of framework {', '.join(frameworks)}" if frameworks else ""
        if selection.ids is not None:
            what += " with the chosen ids (--id/--ids-file)"
        raise InputError(f"no gold graph{what} to score: nothing to compare", args.gold)
    config = engine_config(args)
    fmt = report_format(args)
    executor = executor_of(args, parallel_worth_it=len(pairs) >= PARALLEL_MIN_PAIRS)
    with executor:
        with progress_bar(len(pairs), "mrp") as tick:
            scored = score_pairs(pairs, config, executor, framework_metrics=not args.mrp_only,
                                 keep_records=args.per_graph and fmt != "text", unpaired_system=unpaired,
                                 progress=tick, keep_mapping=bool(args.errors) or (args.per_graph and fmt == "json"),
                                 normalize=normalize)

        other_fw: dict = {}

        def score_against(path: str):
            other = select_pairs_sides(golds, read_side(path, args.input_format, texts, warn), selection)[1]
            pairs_b, unpaired_b = pairs_of(golds, other, frameworks)
            b = score_pairs(pairs_b, config, executor, framework_metrics=not args.mrp_only,
                            unpaired_system=unpaired_b, normalize=normalize)
            other_fw.update(b.framework_results)
            return b.result

        ci, against = statistics(args, scored.result, score_against)
        fw_stats = _framework_statistics(args, scored.framework_results, other_fw)
    text = [] if fmt != "text" else format_report(scored.mrp, scored.framework_metrics, args.digits,
                                                  args.per_graph).split("\n")
    if fw_stats:
        if fmt == "json":
            scored.result.detail["framework_statistics"] = fw_stats
        elif fmt == "text":
            text += _framework_statistics_lines(fw_stats, args.digits)
    if args.errors:
        from ..report.mrp_errors import errors_dot

        emit(errors_dot(pairs, scored.mrp.graphs, normalize) or "// every graph pair is perfect\n", args.errors)
    header = {"gold": args.gold, "system": args.system}
    if normalize is not None:  # not the default (all): say which applied
        from ..features.mrp_tuples import normalize_label

        header["normalize"] = normalize_label(normalize)
        if text:
            text.insert(0, f"normalizations: {header['normalize']}")
    emit_result(args, scored.result, header, text, ci, against, per_pair=args.per_graph)
    return 0


def add_normalize_option(p) -> None:
    """``--normalize`` (``mrkit mrp``, ``mrkit report`` with the MRP metric)."""
    p.add_argument("--normalize", action="append", metavar="WHICH",
                   help="the normalizations that apply before scoring, as mtool's --normalize: a comma-"
                        "separated subset of anchors (unite spans, trim punctuation), case (compare labels, "
                        "names and values case-insensitively), edges (turn inverted edges around: normal "
                        "labels, AMR -of and mod), attributes (drop default edge attributes such as remote "
                        "false), or all (the default) or none; repeatable (mtool's --normalize anchors "
                        "--normalize case works too)")


def normalize_of(args) -> frozenset[str] | None:
    """The normalizations ``--normalize`` chose (``None``: all, the default); an unknown name
    is a usage error (exit 2, one line)."""
    from ..errors import MrkitError
    from ..features.mrp_tuples import ALL_NORMALIZATIONS, parse_normalize

    if not getattr(args, "normalize", None):
        return None
    try:
        chosen = parse_normalize(args.normalize)
    except ValueError as exc:
        raise MrkitError(f"--normalize: {exc}") from None
    return None if chosen >= ALL_NORMALIZATIONS else chosen


def _framework_statistics(args, results: dict, others: dict) -> dict:
    """``--bootstrap`` intervals and the ``--against`` comparison of each framework metric
    (its headline measure), exactly as for the MRP score."""
    from ..metrics.mrp.frameworks import HEADLINE

    samples, seed, level = args.bootstrap, args.stats_seed, args.confidence
    if not samples and not args.against:
        return {}
    out = {}
    for fw, res in results.items():
        entry: dict = {"metric": res.metric, "measure": HEADLINE[res.metric], "summary": res.summary()}
        if samples:
            entry["intervals"] = res.bootstrap(samples, seed, level)
        if args.against and fw in others:
            try:
                entry["against"] = {"summary": others[fw].summary(),
                                    "tests": res.compare(others[fw], samples or 1000, seed, level)}
            except ValueError as exc:
                entry["against"] = {"error": str(exc)}
        out[fw] = entry
    return out


def _framework_statistics_lines(stats: dict, d: int) -> list[str]:
    lines = [""]
    for fw, e in stats.items():
        head = f"{e['metric'].upper()} {fw} ({e['measure']}): F {e['summary']['f1']:.{d}f}"
        if "intervals" in e:
            lo, hi = e["intervals"]["f1"]
            head += f"  [{lo:.{d}f}, {hi:.{d}f}]"
        lines.append(head)
        t = e.get("against", {}).get("tests", {}).get("f1")
        if t:
            lines.append(f"  vs --against: difference {t['difference']:+.{d}f}, p (randomization) "
                         f"{t['p_randomization']:.{d}f}, p (bootstrap) {t['p_bootstrap']:.{d}f}")
    return lines


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
    if len(blocks) != 1:
        x = result.cross_framework()
        lines.append(f"MRP cross-framework (mean of {x['frameworks']} per-framework scores, the official "
                     f"ranking): P {x['precision']:.{d}f}  R {x['recall']:.{d}f}  F {x['f1']:.{d}f}")
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
