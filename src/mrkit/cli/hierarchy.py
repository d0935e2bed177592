"""``mrkit hierarchy GOLD SYSTEM``: SciCo hierarchy, 50%-hierarchy and path-ratio scores."""

from __future__ import annotations

import argparse
import sys

from .common import (add_executor_options, add_format_option, add_stats_options, check_stats, emit_result,
                     executor_of, report_format, split_formats, statistics)

INPUT_FORMATS = ("auto", "scico")

HELP = """\
Hierarchical cross-document coreference scores (SciCo) of system topics against gold
topics, paired by id. Files are SciCo jsonl: {"id", "tokens", "mentions":
[[paragraph, start, end_inclusive, cluster], ...], "relations": [[parent, child], ...]}.

Reported: the cluster-level hierarchy score (transitive closure on both sides), its 50%
variant, the directed path-distance ratio (micro and macro; --with-tn also counts pairs
connected on neither side), and the coreference metrics of the clusters (singletons
removed, as SciCo does, unless --keep-singletons). Mentions are matched by span, so
system mentions may differ from gold ones.

SciCo's further evaluation, on request: --auroc (multiclass AUROC over ordered mention
pairs, classes none/coref/parent/child, the system's scores being the one-hot classes
of its own structure, as SciCo's code), --pair-scores FILE (the same AUROC from a pair
scorer's probabilities: a TSV file with header topic, i, j, none, coref, parent, child;
i and j are positions in the gold topic's mention list), --common-ancestor (1 - mean
difference of the ancestor-set overlap of mention pairs), --components (coreference on
the connected components of the hierarchy), --within-document (coreference of each
document of a topic alone, documents from the topic's doc_ids, else its paragraphs: the
within-document part beside the cross-document score). --subset FIELD keeps the gold topics whose
FIELD is true (hard_10, hard_20), --subset FIELD=VALUE those whose FIELD is VALUE
(source=curated), and the system's topics of those ids, as SciCo's evaluate.py.

With --amr GOLD_AMR SYSTEM_AMR, GOLD and SYSTEM are MS-AMR coreference XML (or chain
JSON) files over those AMR files: the bridging relations between chains (set-member:
superset -> member, part-whole: whole -> part; --bridging picks one kind) are scored as
the hierarchy, the chains being the clusters; the system's variables are mapped to gold
ones by the Smatch alignment of each sentence pair (--no-align: by name). Documents are
paired in order.

The headline (summary.f1 in JSON, with --bootstrap and --against) is the hierarchy F1,
micro-averaged over topics; topics are paired by id. '-' reads standard input.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("hierarchy", help="SciCo hierarchy scores (hierarchy, 50%%, path ratio) and coreference",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold SciCo jsonl file ('-': standard input)")
    p.add_argument("system", help="system SciCo jsonl file ('-': standard input)")
    p.add_argument("--keep-singletons", action="store_true", help="keep one-mention clusters in the coreference scores")
    p.add_argument("--with-tn", action="store_true", help="path ratio also over pairs connected on neither side")
    p.add_argument("--per-topic", action="store_true",
                   help="also report every topic (JSON; with --format tsv/csv: one row per topic)")
    p.add_argument("--amr", nargs=2, metavar=("GOLD_AMR", "SYSTEM_AMR"),
                   help="MS-AMR bridging: GOLD/SYSTEM are MS-AMR XML or chain JSON over these AMR files")
    p.add_argument("--no-align", action="store_true", help="with --amr: compare variables by name")
    p.add_argument("--bridging", choices=("all", "set-member", "part-whole"), default="all",
                   help="with --amr: the bridging relations scored (default all)")
    p.add_argument("--subset", metavar="FIELD[=VALUE]",
                   help="score the topics whose FIELD is true (hard_10, hard_20) or is VALUE (source=curated)")
    p.add_argument("--auroc", action="store_true",
                   help="multiclass AUROC over mention pairs from the system's structure (SciCo's)")
    p.add_argument("--pair-scores", metavar="TSV",
                   help="multiclass AUROC from a pair scorer's probabilities (topic, i, j, none, coref, parent, child)")
    p.add_argument("--common-ancestor", action="store_true", help="the common-ancestor score")
    p.add_argument("--components", action="store_true",
                   help="coreference on the connected components of the hierarchy")
    p.add_argument("--within-document", action="store_true",
                   help="also coreference within each document of a topic (doc_ids of the paragraphs)")
    add_format_option(p, INPUT_FORMATS)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--digits", type=int, default=2, help="digits after the point of percentages (default 2)")
    add_executor_options(p)
    add_stats_options(p)
    return p


def run(args) -> int:
    from ..pipeline.coref import check_stdin, read_topics, score_hierarchy
    from .coref import format_table

    split_formats(args, INPUT_FORMATS)
    check_stats(args)
    rows = args.per_topic and report_format(args) in ("tsv", "csv")
    executor = executor_of(args)

    warned: set[str] = set()

    def warn(message: str) -> None:  # once each, in order (a file read again for --against too)
        if message not in warned:
            warned.add(message)
            print(f"mrkit: warning: {message}", file=sys.stderr)

    check_stdin(args.gold, args.system, args.against, args.pair_scores, *(args.amr or ()))
    gold: list = []
    extras = tuple(name for name, on in (("auroc", args.auroc), ("common_ancestor", args.common_ancestor),
                                         ("components", args.components),
                                         ("within_document", args.within_document)) if on)

    if args.amr and (args.against or args.subset or extras or args.pair_scores):
        from ..errors import MrkitError

        raise MrkitError("--amr scores bridging only: no --against, --subset, --auroc, --pair-scores, "
                         "--common-ancestor or --components with it")

    def score(system: str, keep: bool = False):
        if args.amr:
            from ..pipeline.coref import score_bridging

            kinds = ("set-member", "part-whole") if args.bridging == "all" else (args.bridging,)
            return score_bridging(args.gold, args.amr[0], system, args.amr[1], executor, align=not args.no_align,
                                  kinds=kinds, keep_records=keep, per_topic=args.per_topic,
                                  keep_singletons=args.keep_singletons)
        if not gold:  # the gold file is read once (it may be standard input)
            gold.append(read_topics(args.gold, warn))
        return score_hierarchy(args.gold, system, executor, warn=warn, keep_records=keep, per_topic=args.per_topic,
                               gold_topics=gold[0], keep_singletons=args.keep_singletons, subset=args.subset,
                               extras=extras, pair_scores=args.pair_scores)

    with executor:
        result, corpus = score(args.system, rows)
        ci, against = statistics(args, corpus, lambda path: score(path)[1])
    nan = float("nan")
    micro, macro = result.path_ratio(args.with_tn)
    rows_ = [("hierarchy", *result.prf("hierarchy")), ("hierarchy 50%", *result.prf("hierarchy50")),
             ("path ratio (micro)", nan, nan, micro), ("path ratio (macro)", nan, nan, macro)]
    rows_ += [(f"coref {m}", r, p, f) for m, r, p, f in result.coref.table_rows()]
    lines = [f"{len(result.topics)} topics; macro F1: hierarchy {100 * result.macro_f1('hierarchy'):.{args.digits}f}, "
             f"50% {100 * result.macro_f1('hierarchy50'):.{args.digits}f}"]
    marks = {f"coref {m}": cols for m, cols in result.coref.table_marks().items()}
    column = {"recall": 0, "precision": 1, "f1": 2}
    for name, row in (("hierarchy", "hierarchy"), ("hierarchy50", "hierarchy 50%")):
        if result._sum(name).undefined:
            marks[row] = {column[p] for p in result._sum(name).undefined}
    if ("path_ratio_with_tn" if args.with_tn else "path_ratio") in result.undefined:
        marks["path ratio (micro)"] = marks["path ratio (macro)"] = {2}
    lines += format_table(rows_, args.digits, marks=marks)
    lines += extra_lines(result.extra, args.digits)
    emit_result(args, corpus, {"gold": args.gold, "system": args.system}, lines, ci, against,
                per_pair=rows, scale=100.0)
    return 0


def extra_lines(extra: dict, digits: int) -> list[str]:
    """Text lines of the further scores."""
    from .coref import format_table

    def pct(v) -> str:
        return "undefined (a class has no gold pair)" if v is None else f"{100 * v:.{digits}f}"

    lines = []
    for key, title in (("auroc", "AUROC (system structure, one-hot)"), ("auroc_scores", "AUROC (pair scores)")):
        if key in extra:
            lines.append(f"{title}: {pct(extra[key]['auroc'])} over {extra[key]['pairs']} mention pairs")
    if "common_ancestor" in extra:
        lines.append(f"common ancestor: {100 * extra['common_ancestor']['common_ancestor']:.{digits}f}")
    for key, title in (("components", "connected components"), ("within_document", "within documents")):
        if key in extra:
            c = extra[key]
            rows = [(m, c[m]["recall"], c[m]["precision"], c[m]["f1"]) for m in c if m not in ("conll", "documents")]
            nan = float("nan")
            rows.append(("conll", nan, nan, c["conll"]["f1"]))
            lines += format_table(rows, digits, title=title)
    return lines
