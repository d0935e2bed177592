"""``mrkit smatch GOLD SYSTEM``: corpus Smatch with certified-optimal alignments."""

from __future__ import annotations

import argparse

from ..errors import MrkitError
from ..pipeline.amr import AMR_FORMATS
from .common import (add_engine_options, add_executor_options, add_format_option, add_output_options,
                     add_stats_options, check_stats, emit_result, engine_config, executor_of, progress_bar,
                     split_formats, statistics)

HELP = """\
Smatch between two files holding the same number of AMR graphs, paired in order:
`mrkit smatch GOLD SYSTEM`, or `mrkit smatch -f SYSTEM GOLD` in the order of smatch.py
1.0.4, whose -f takes the system (test) file first. Files are PENMAN or MRP JSON lines of
AMR graphs (guessed from suffix and content, or --format amr|mrp); '-' reads standard
input (for one of the two).
Reports micro precision/recall/F1 (the standard), macro F1 (mean of pair F1), and how
many pairs are certified optimal (the search reached an upper bound, a small
branch-and-bound closed every branch, or the exact ILP proved it). Scores are never
below the true optimum by more than the reported bound. --bootstrap N adds confidence
intervals; --against SYSTEM_B compares a second system on the same gold (paired
bootstrap, approximate randomization).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("smatch", help="Smatch between gold and system AMR files", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", nargs="?", help="gold file (PENMAN or MRP; '-' is standard input)")
    p.add_argument("system", nargs="?", help="system file (PENMAN or MRP; '-' is standard input)")
    p.add_argument("-f", nargs=2, metavar=("SYSTEM", "GOLD"), dest="files",
                   help="the two files in smatch.py's order: SYSTEM first, then GOLD "
                        "(positional arguments are GOLD SYSTEM)")
    p.add_argument("--example", action="store_true",
                   help="score the small example files shipped with mrkit")
    p.add_argument("--per-pair", action="store_true",
                   help="also report every pair (with --format tsv/csv: one row per pair)")
    p.add_argument("--keep-going", action="store_true",
                   help="sharded inputs (GOLD and SYSTEM directories or quoted globs, shards paired by file "
                        "name): skip a shard that fails instead of stopping; the report names what was "
                        "skipped (complete: false) and the exit status is 1")
    add_output_options(p)
    add_format_option(p, AMR_FORMATS)
    add_stats_options(p)
    add_engine_options(p)
    add_executor_options(p)
    return p


def run(args) -> int:
    from ..pipeline.amr import parallel_worth_it, smatch_files

    split_formats(args, AMR_FORMATS)
    check_stats(args)
    if args.files and (args.gold or args.system):
        raise MrkitError("give GOLD SYSTEM or -f SYSTEM GOLD, not both")
    if args.example:
        from ..metrics.amr.smatch import example_paths

        gold, system = example_paths()
    elif args.files:
        system, gold = args.files  # smatch.py 1.0.4 scores -f A B with A as the test file
    elif args.gold and args.system:
        gold, system = args.gold, args.system
    else:
        raise MrkitError("give GOLD and SYSTEM files (or -f SYSTEM GOLD, or --example)")
    if args.against and "-" in (gold, args.against):
        raise MrkitError("--against reads the gold file twice: give files, not '-' (standard input)")
    config = engine_config(args)
    from ..pipeline.shards import is_sharded

    if is_sharded(gold) or is_sharded(system):
        return _run_shards(args, gold, system, config)
    if args.keep_going:
        raise MrkitError("--keep-going applies to sharded inputs (directories or globs of files)")
    with executor_of(args, parallel_worth_it(gold)) as executor:
        with progress_bar(None, "smatch") as tick:
            result = smatch_files(gold, system, config=config, executor=executor, format=args.input_format,
                                  keep_records=args.per_pair, progress=tick)
        ci, against = statistics(args, result, lambda other: smatch_files(
            gold, other, config=config, executor=executor, format=args.input_format))
    d = args.digits
    lines = []
    if args.per_pair:
        lines.append("pair\tid\tmatched\tgold\tsystem\tP\tR\tF1\tcertified")
        for p in result.records:
            cert = p["method"] if p["certified"] else f"no (bound {p['bound']:g})"
            lines.append(f"{p['index'] + 1}\t{p['id']}\t{p['matched']:g}\t{p['gold']}\t{p['system']}\t"
                         f"{p['precision']:.{d}f}\t{p['recall']:.{d}f}\t{p['f1']:.{d}f}\t{cert}")
        lines.append("")
    lines += _score_lines(result, d)
    emit_result(args, result, {"gold": gold, "system": system}, lines, ci, against, per_pair=args.per_pair)
    return 0


def _score_lines(result, d: int) -> list[str]:
    lines = []
    lines.append(f"Precision: {result.precision:.{d}f}")
    lines.append(f"Recall: {result.recall:.{d}f}")
    lines.append(f"F-score: {result.f1:.{d}f}")
    lines.append(f"Macro F-score: {result.macro_f1:.{d}f}")
    n = result.pairs
    lines.append(f"Certified optimal: {result.n_certified}/{n} pairs ({100 * result.certified_share:.1f}%)")
    if result.n_certified < n:
        lines.append(f"F-score upper bound: {result.detail['f1_upper_bound']:.{d}f}")
    return lines


def _run_shards(args, gold: str, system: str, config) -> int:
    """GOLD and SYSTEM as directories or globs of shards (:mod:`mrkit.pipeline.shards`)."""
    import sys

    from ..pipeline.shards import pair_shards, smatch_shards

    if args.per_pair or args.against or args.input_format not in (None, "amr"):
        raise MrkitError("sharded inputs take PENMAN shards, without --per-pair, --against or --format mrp")

    def warn(skip) -> None:
        print(f"mrkit: warning: skipped shard {skip.shard}: {skip.reason}", file=sys.stderr)

    import os

    from ..pipeline.amr import PARALLEL_MIN_BYTES

    shards = pair_shards(gold, system)
    size = sum(os.path.getsize(s.gold) for s in shards if s.gold and os.path.isfile(s.gold))
    with executor_of(args, parallel_worth_it=size >= PARALLEL_MIN_BYTES) as executor:
        with progress_bar(len(shards), "shards", enabled=sys.stderr.isatty()) as tick:
            result = smatch_shards(gold, system, config=config, executor=executor, keep_going=args.keep_going,
                                   progress=tick, on_skip=warn)
        ci, _ = statistics(args, result)
    lines = _score_lines(result, args.digits)
    skipped = result.detail["skipped"]
    lines.append(f"Shards: {result.detail['shards']} scored" + (f", {len(skipped)} skipped (INCOMPLETE):" if skipped else ""))
    lines += [f"  skipped {s['shard']}: {s['reason']}" for s in skipped]
    emit_result(args, result, {"gold": gold, "system": system}, lines, ci, None)
    return 1 if skipped else 0
