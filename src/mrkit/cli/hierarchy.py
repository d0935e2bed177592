"""``mrkit hierarchy GOLD SYSTEM``: SciCo hierarchy, 50%-hierarchy and path-ratio scores."""

from __future__ import annotations

import argparse
import sys
import warnings

from ..errors import InputError
from .common import emit, to_json

HELP = """\
Hierarchical cross-document coreference scores (SciCo) of system topics against gold
topics, paired by id. Files are SciCo jsonl: {"id", "tokens", "mentions":
[[paragraph, start, end_inclusive, cluster], ...], "relations": [[parent, child], ...]}.

Reported: the cluster-level hierarchy score (transitive closure on both sides), its 50%
variant, the directed path-distance ratio (micro and macro; --with-tn also counts pairs
connected on neither side), and the coreference metrics of the clusters (singletons
removed, as SciCo does, unless --keep-singletons). Mentions are matched by span, so
system mentions may differ from gold ones.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("hierarchy", help="SciCo hierarchy scores (hierarchy, 50%%, path ratio) and coreference",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold SciCo jsonl file")
    p.add_argument("system", help="system SciCo jsonl file")
    p.add_argument("--keep-singletons", action="store_true", help="keep one-mention clusters in the coreference scores")
    p.add_argument("--with-tn", action="store_true", help="path ratio also over pairs connected on neither side")
    p.add_argument("--per-topic", action="store_true", help="also report every topic (JSON only)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--digits", type=int, default=2, help="digits after the point of percentages (default 2)")
    return p


def run(args) -> int:
    from ..metrics.coref.hierarchy import score_topics
    from ..codecs.scico import read_scico
    from .coref import format_table

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gold, system = read_scico(args.gold), read_scico(args.system)
    for message in dict.fromkeys(str(w.message) for w in caught):  # once each, in order
        print(f"mrkit: warning: {message}", file=sys.stderr)
    if not gold:  # nothing to score is not a perfect score
        raise InputError("holds no topic: nothing to score", args.gold)
    result = score_topics(gold, system, keep_singletons=args.keep_singletons, system_file=args.system)
    if args.json:
        emit(to_json({"gold": args.gold, "system": args.system, **result.to_dict(per_topic=args.per_topic)}),
             args.output)
        return 0
    nan = float("nan")
    micro, macro = result.path_ratio(args.with_tn)
    rows = [("hierarchy", *result.prf("hierarchy")), ("hierarchy 50%", *result.prf("hierarchy50")),
            ("path ratio (micro)", nan, nan, micro), ("path ratio (macro)", nan, nan, macro)]
    rows += [(f"coref {m}", r, p, f) for m, r, p, f in result.coref.table_rows()]
    lines = [f"{len(result.topics)} topics; macro F1: hierarchy {100 * result.macro_f1('hierarchy'):.{args.digits}f}, "
             f"50% {100 * result.macro_f1('hierarchy50'):.{args.digits}f}"]
    marks = {f"coref {m}": cols for m, cols in result.coref.table_marks().items()}
    column = {"recall": 0, "precision": 1, "f1": 2}
    for name, row in (("hierarchy", "hierarchy"), ("hierarchy50", "hierarchy 50%")):
        if result._sum(name).undefined:
            marks[row] = {column[p] for p in result._sum(name).undefined}
    if ("path_ratio_with_tn" if args.with_tn else "path_ratio") in result.undefined:
        marks["path ratio (micro)"] = marks["path ratio (macro)"] = {2}
    lines += format_table(rows, args.digits, marks=marks)
    emit("\n".join(lines), args.output)
    return 0
