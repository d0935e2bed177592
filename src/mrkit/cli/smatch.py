"""``mrkit smatch GOLD SYSTEM``: corpus Smatch with certified-optimal alignments."""

from __future__ import annotations

import argparse

from ..errors import MrkitError
from .common import add_engine_options, add_executor_options, add_output_options, emit, engine_config, progress_bar, to_json

HELP = """\
Smatch between two PENMAN files holding the same number of graphs, paired in order:
`mrkit smatch GOLD SYSTEM`, or `mrkit smatch -f SYSTEM GOLD` in the order of smatch.py
1.0.4, whose -f takes the system (test) file first.
Reports micro precision/recall/F1 (the standard), macro F1 (mean of pair F1), and how
many pairs are certified optimal (the search reached an upper bound, a small
branch-and-bound closed every branch, or the exact ILP proved it). Scores are never
below the true optimum by more than the reported bound.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("smatch", help="Smatch between gold and system AMR files", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", nargs="?", help="gold PENMAN file")
    p.add_argument("system", nargs="?", help="system PENMAN file")
    p.add_argument("-f", nargs=2, metavar=("SYSTEM", "GOLD"), dest="files",
                   help="the two files in smatch.py's order: SYSTEM first, then GOLD "
                        "(positional arguments are GOLD SYSTEM)")
    p.add_argument("--example", action="store_true",
                   help="score the small example files shipped with mrkit")
    p.add_argument("--per-pair", action="store_true", help="also report every pair")
    p.add_argument("--bootstrap", type=int, default=0, metavar="N",
                   help="95%% bootstrap confidence intervals from N resamples of the pairs")
    add_output_options(p)
    add_engine_options(p)
    add_executor_options(p)
    return p


def run(args) -> int:
    from ..codecs.penman import read_blocks
    from ..metrics.amr.smatch import example_paths, smatch_files

    if args.files and (args.gold or args.system):
        raise MrkitError("give GOLD SYSTEM or -f SYSTEM GOLD, not both")
    if args.example:
        gold, system = example_paths()
    elif args.files:
        system, gold = args.files  # smatch.py 1.0.4 scores -f A B with A as the test file
    elif args.gold and args.system:
        gold, system = args.gold, args.system
    else:
        raise MrkitError("give GOLD and SYSTEM files (or -f SYSTEM GOLD, or --example)")
    with progress_bar(len(read_blocks(gold)), "smatch") as tick:
        result = smatch_files(gold, system, engine_config(args), workers=args.workers,
                              progress=tick, bootstrap=args.bootstrap)
    if args.json:
        emit(to_json({"gold": gold, "system": system, **result.to_dict(per_pair=args.per_pair)}), args.output)
        return 0
    d = args.digits
    lines = []
    if args.per_pair:
        lines.append("pair\tid\tmatched\tgold\tsystem\tP\tR\tF1\tcertified")
        for p in result.pairs:
            cert = p.method if p.certified else f"no (bound {p.bound:g})"
            lines.append(f"{p.index + 1}\t{p.id}\t{p.matched:g}\t{p.gold}\t{p.system}\t"
                         f"{p.precision:.{d}f}\t{p.recall:.{d}f}\t{p.f1:.{d}f}\t{cert}")
        lines.append("")
    lines.append(f"Precision: {result.precision:.{d}f}")
    lines.append(f"Recall: {result.recall:.{d}f}")
    lines.append(f"F-score: {result.f1:.{d}f}")
    lines.append(f"Macro F-score: {result.macro_f1:.{d}f}")
    n = len(result.pairs)
    lines.append(f"Certified optimal: {result.certified}/{n} pairs ({100 * result.certified_share:.1f}%)")
    if result.certified < n:
        lines.append(f"F-score upper bound: {result.f1_bound:.{d}f}")
    if result.ci:
        for k in ("precision", "recall", "f1"):
            lo, hi = result.ci[k]
            lines.append(f"95% CI {k}: [{lo:.{d}f}, {hi:.{d}f}] ({args.bootstrap} bootstrap samples)")
    emit("\n".join(lines), args.output)
    return 0
