"""``mrkit smatch GOLD SYSTEM``: corpus Smatch with certified-optimal alignments."""

from __future__ import annotations

from ..errors import MrkitError
from ..pipeline.amr import AMR_FORMATS
from .smatch_options import add_variant_options, conventions_of, default_conventions, just_of, subscore_lines
from .common import (add_engine_options, add_executor_options, add_format_option, add_output_options,
                     add_stats_options, check_stats, emit_result, engine_config, executor_of, progress_bar,
                     raw_description, split_formats, statistics)

HELP = """\
Smatch between two files holding the same number of AMR graphs, paired in order:
`mrkit smatch GOLD SYSTEM`, or `mrkit smatch -f SYSTEM GOLD` in the order of smatch.py
1.0.4, whose -f takes the system (test) file first. Files are PENMAN or MRP JSON lines of
AMR graphs (guessed from suffix and content, or --format amr|mrp); '-' reads standard
input (for one of the two). GOLD and SYSTEM may also be directories or quoted globs of
PENMAN shards, paired by file name (--keep-going skips a shard that fails).
Reports micro precision/recall/F1 (the standard), macro F1 (mean of pair F1), and how
many pairs are certified optimal (the search reached an upper bound, a small
branch-and-bound closed every branch, or the exact ILP proved it). Scores are never
below the true optimum by more than the reported bound. --bootstrap N adds confidence
intervals; --against SYSTEM_B compares a second system on the same gold (paired
bootstrap, approximate randomization).

--subscores adds the eight fine-grained scores of amr-evaluation (Damonte et al. 2017):
Unlabeled, No WSD, Reentrancies and SRL (Smatch on relabelled graphs / triple subsets,
exact optima of the certified engine, where amr-evaluation hill-climbs), Concepts,
Named Ent., Negations and Wikification (multiset F1); --bootstrap gives each an interval.
--justinstance / --justattribute / --justrelation score one kind of triple (smatch.py's
options). Conventions (default: mrkit's classic Smatch): --top concept puts the root's
concept in the TOP triple; --mod-domain reads :domain as the inverse of :mod (as the
reader of smatch.py 1.0.4 does); --roles reify|dereify
rewrites roles with penman's AMR model; --standardize is smatchpp's standardisation
(--top concept --mod-domain --roles dereify-smatchpp). --also-gold GOLD2 (repeatable) scores
against several references of the same sentences: per sentence the best one
(--multi-ref best, the default) or the mean of the counts (--multi-ref mean).
"""


def add_parser(sub):
    p = sub.add_parser("smatch", help="Smatch between gold and system AMR files", description=HELP,
                       formatter_class=raw_description(sub))
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
    add_variant_options(p)
    add_output_options(p)
    add_format_option(p, AMR_FORMATS)
    add_stats_options(p)
    add_engine_options(p)
    add_executor_options(p)
    return p


def start_early(args) -> None:
    """Start the scoring threads of a plain ``mrkit smatch GOLD SYSTEM`` as soon as its command
    line is read (:func:`mrkit.pipeline.amr.smatch_ahead`): classic Smatch of two files with
    every option at its default but ``-j``/``--workers`` and ``--executor``.  The run takes
    them if it gets there with the same settings; a guess that does not hold costs nothing
    but the work of a second core until the run stops them.  Never raises: the run
    reports what is wrong."""
    if (args.example or args.files or args.against or args.per_pair or args.subscores or args.also_gold
            or any(f.lower() in AMR_FORMATS for f in args.formats or ()) or not (args.gold and args.system)
            or not default_conventions(args)
            or just_of(args) is not None or getattr(args, "scheduler", None)):
        return
    try:
        from ..pipeline import is_sharded
        from ..pipeline.amr import parallel_worth_it, smatch_ahead

        gold, system = args.gold, args.system
        if is_sharded(gold) or is_sharded(system):
            return
        executor = executor_of(args, parallel_worth_it(gold, shared=True, threads=True))
        smatch_ahead(gold, system, engine_config(args), executor)
    except Exception:  # noqa: BLE001 - the run itself says what is wrong
        return


def stop_early() -> None:
    """Stop the threads :func:`start_early` started if the run did not take them."""
    from ..pipeline.amr import _drop_early

    _drop_early()


def run(args) -> int:
    from ..pipeline.amr import STDIN, parallel_worth_it, smatch_files

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
    just, golds = just_of(args), [gold] + list(args.also_gold or [])
    plain = default_conventions(args)  # then classic Smatch needs no Conventions object
    classic = plain and just is None and len(golds) == 1
    conventions = None if classic and not args.subscores else conventions_of(args)
    from ..pipeline import is_sharded

    if is_sharded(gold) or is_sharded(system):
        if not classic or args.subscores:
            raise MrkitError("sharded inputs are scored with classic Smatch: no --subscores, --also-gold, "
                             "--just* or convention options")
        return _run_shards(args, gold, system, config)
    if args.keep_going:
        raise MrkitError("--keep-going applies to sharded inputs (directories or globs of files)")
    if args.subscores and STDIN in (gold, system):
        raise MrkitError("--subscores reads the files twice: give files, not '-' (standard input)")

    def score(other: str, records: bool = False, tick=None):
        if classic:  # one gold file: the variants' module is not needed
            return smatch_files(gold, other, config=config, executor=executor, format=args.input_format,
                                keep_records=records, progress=tick)
        from ..pipeline.amr_variants import multiref_files, variant_smatch_files

        if len(golds) > 1:
            return multiref_files(golds, other, mode=args.multi_ref, config=config, executor=executor,
                                  format=args.input_format, keep_records=records, conventions=conventions, just=just)
        return variant_smatch_files(gold, other, config=config, executor=executor, format=args.input_format,
                                    keep_records=records, conventions=conventions, just=just, progress=tick)

    shared = classic and not args.subscores
    with executor_of(args, parallel_worth_it(gold, shared=shared, threads=shared and not args.per_pair)) as executor:
        with progress_bar(None, "smatch") as tick:
            result = score(system, args.per_pair, tick)
        ci, against = statistics(args, result, score)
        sub = None
        if args.subscores:
            from ..metrics.amr.subscores import attach_subscores
            from ..pipeline.amr_variants import subscore_files

            sub = subscore_files(gold, system, config=config, executor=executor, format=args.input_format,
                                 keep_records=args.per_pair, conventions=conventions)
            attach_subscores(result, sub, args.bootstrap, args.stats_seed, args.confidence)
        # reported before the executor closes: a forked worker leaves while the report is
        # written, instead of this process waiting for it first (serial time of -j 2)
        d = args.digits
        lines = []
        if args.per_pair:
            lines.append("pair\tid\tmatched\tgold\tsystem\tP\tR\tF1\tcertified")
            for p in result.records:
                cert = p.get("method", "yes") if p["certified"] else f"no (bound {p.get('bound', float('nan')):g})"
                lines.append(f"{p['index'] + 1}\t{p['id']}\t{p['matched']:g}\t{p['gold']}\t{p['system']}\t"
                             f"{p['precision']:.{d}f}\t{p['recall']:.{d}f}\t{p['f1']:.{d}f}\t{cert}")
            lines.append("")
        lines += _score_lines(result, d)
        if len(golds) > 1:
            lines.append(f"References: {len(golds)} gold files, per sentence the {args.multi_ref} "
                         f"({'highest F1' if args.multi_ref == 'best' else 'mean of the counts'})")
        if sub is not None:
            lines += subscore_lines(result.detail, d)
        header = {"gold": gold, "system": system}
        if len(golds) > 1:
            header["golds"] = golds
        if not plain or just is not None:
            header["conventions"] = conventions.to_dict()
            header["just"] = just
        emit_result(args, result, header, lines, ci, against, per_pair=args.per_pair)
    return 0


def _score_lines(result, d: int) -> list[str]:
    lines = []
    lines.append(f"Precision: {result.precision:.{d}f}")
    lines.append(f"Recall: {result.recall:.{d}f}")
    lines.append(f"F-score: {result.f1:.{d}f}")
    lines.append(f"Macro F-score: {result.macro_f1:.{d}f}")
    n = result.pairs
    lines.append(f"Certified optimal: {result.n_certified}/{n} pairs ({100 * result.certified_share:.1f}%)")
    if result.n_certified < n and result.detail.get("f1_upper_bound") is not None:
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
