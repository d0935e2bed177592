"""``mrkit select CANDIDATE...``: Maximum-Bayes-Smatch selection among candidate parses."""

from __future__ import annotations

import argparse

from ..errors import MrkitError
from .common import add_engine_options, add_executor_options, engine_config, executor_of, progress_bar, to_json

HELP = """\
Ensemble selection by Maximum Bayes Smatch (MBSE): given k PENMAN files holding candidate
parses of the same sentences (paired in order), pick for each sentence the candidate with
the highest mean Smatch F1 against the k - 1 other candidates (certified-optimal
alignments; each unordered pair aligned once; ties go to the earlier file).

-o FILE writes the selected graphs (each as it appears in its candidate file) and
--table FILE a TSV table per sentence: the candidate selected, its agreement, every
candidate's mean F1 against the others, whether all its pairs are certified; with
--gold GOLD also every candidate's Smatch F1 against the gold. Both are written only
when every sentence succeeded (atomically). The report (stdout; --json) counts how often
each candidate was chosen and, with --gold, gives the corpus Smatch of every candidate and
of the selection against the gold.

The sentences go in chunks of raw text to this process, worker processes (-j N) or a Dask
cluster (--executor dask, --scheduler ADDRESS); the choice never depends on it.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("select", help="pick, per sentence, the candidate parse that agrees most with the others (MBSE)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("candidates", nargs="+", metavar="CANDIDATE", help="PENMAN files of candidate parses (two at least)")
    p.add_argument("--gold", metavar="GOLD", help="gold PENMAN file: also score every candidate and the selection")
    p.add_argument("-o", "--output", metavar="FILE", help="write the selected graphs (PENMAN) to FILE")
    p.add_argument("--table", metavar="FILE", help="write the agreement table (TSV) to FILE ('-': stdout)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--digits", type=int, default=4, help="digits after the point (default 4)")
    p.add_argument("--chunk", type=int, default=32, metavar="N",
                   help="sentences per task sent to a worker (default 32; larger on a big cluster); "
                        "the choice does not depend on it")
    add_engine_options(p)
    add_executor_options(p)
    return p


def run(args) -> int:
    from ..codecs._files import atomic_write, check_writable
    from ..pipeline.select import select_files
    from ..report.result import rows_text

    if args.table:
        check_writable(args.table)
    if args.output == "-" and args.table == "-":
        raise MrkitError("-o and --table cannot both be standard output")
    if args.chunk < 1:
        raise MrkitError(f"--chunk must be a positive number, not {args.chunk}")
    config = engine_config(args)
    with executor_of(args, parallel_worth_it=len(args.candidates) ** 2 >= 16) as executor:
        with progress_bar(None, "select") as tick:
            result = select_files(args.candidates, args.gold, config=config, executor=executor, progress=tick,
                                  chunk=args.chunk)
    if args.output:
        atomic_write(args.output, "\n\n".join(b.strip("\n") for b in result.blocks) + "\n")
    if args.table:
        atomic_write(args.table, rows_text(result.rows(), "tsv"))
    if args.output == "-" or args.table == "-":
        return 0
    d = result.to_dict()
    if args.json:
        print(to_json({"metric": "smatch", **d}))
        return 0
    n = args.digits
    lines = [f"{d['sentences']} sentences, {len(args.candidates)} candidates; "
             f"mean agreement of the selection: {d['mean_agreement']:.{n}f}; "
             f"all candidate pairs certified in {d['certified_sentences']}/{d['sentences']} sentences"]
    for c, cand in enumerate(d["candidates"], 1):
        line = f"  {c}. {cand['file']}: chosen {cand['chosen']} times"
        if "gold_smatch" in cand:
            line += f"; Smatch vs gold {cand['gold_smatch']['f1']:.{n}f}"
        lines.append(line)
    if "selected_gold_smatch" in d:
        s = d["selected_gold_smatch"]
        lines.append(f"selection vs gold: P {s['precision']:.{n}f} R {s['recall']:.{n}f} F1 {s['f1']:.{n}f}")
    print("\n".join(lines))
    return 0
