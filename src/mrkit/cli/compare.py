"""``mrkit compare GOLD SYS_A SYS_B [...]``: compare metrics on several systems, and with humans."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError, MrkitError
from .common import add_engine_options, add_executor_options, emit, engine_config, executor_of, to_json

HELP = """\
Score two or more systems against one gold file with several metrics, and compare the
metrics: system-level scores (micro = the metric's corpus score, macro = mean pair score),
P (how often each metric prefers one system over the other, ties split evenly) with a
binomial sign test and a paired approximate-randomization test of the macro difference,
the Spearman correlation between metrics, and how score relates to sentence length.

With --human LABELS (human preference between the first two systems and acceptability
of each parse) also: pairwise accuracy (share of human-preferred pairs where the metric
prefers the same parse) and A-delta (median rank of the scores of acceptable parses minus
that of unacceptable ones, all parses ranked together), with bootstrap intervals.

Label formats: the study's LABEL.txt (PREF<TAB>ACC_A<TAB>ACC_B<TAB>ID lines, each followed
by "see above"); TSV with a header "id<TAB>preference<TAB>accept_A<TAB>accept_B..."
(preference 1 = first system, 0 = second, 0.5 = equal; empty = not judged); or JSON
[{"id": ..., "preference": 1, "acceptable": [1, 0]}, ...]. One label item per gold graph.

--seed seeds both the alignment restarts and every bootstrap/randomization sample.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("compare", help="compare metrics on several systems, and with human judgements",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", nargs="?", help="gold PENMAN file")
    p.add_argument("systems", nargs="*", metavar="SYSTEM",
                   help="system PENMAN files (at least two), graphs paired in order with the gold file")
    p.add_argument("--names", help="comma-separated system names (default: the file names without suffix)")
    p.add_argument("--human", metavar="LABELS", help="human labels (LABEL.txt, TSV or JSON; see above)")
    p.add_argument("--metrics", metavar="LIST",
                   help="comma-separated registered metrics (default: all; see --list-metrics)")
    p.add_argument("--list-metrics", action="store_true", help="print the registered metrics and exit")
    p.add_argument("--samples", type=int, default=1000,
                   help="bootstrap and randomization samples (default 1000; 0 = no intervals)")
    p.add_argument("--level", type=float, default=0.95, help="confidence level of intervals (default 0.95)")
    p.add_argument("--ties", choices=("exclude", "half", "wrong"), default="exclude",
                   help="pairwise accuracy: how a metric tie on a human-preferred pair counts "
                        "(default exclude, as in Opitz & Frank 2022)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--per-pair", action="store_true", help="JSON: also every pair score and sentence length")
    p.add_argument("--plot", metavar="FILE",
                   help="write a figure (Spearman heatmap, length vs score); .png/.pdf/.svg; needs matplotlib")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--html", metavar="FILE",
                   help="also write the study as one self-contained HTML page (tables, charts; see mrkit report)")
    p.add_argument("--digits", type=int, default=3, help="digits after the point (default 3)")
    add_engine_options(p)
    add_executor_options(p)
    return p


def _names(args) -> list[str]:
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != len(args.systems):
            raise MrkitError(f"--names lists {len(names)} names for {len(args.systems)} system files")
        if len(set(names)) != len(names):
            raise MrkitError("--names must be distinct")
        return names
    names: list[str] = []
    for path in args.systems:
        base = Path(path).stem or path
        name, k = base, 2
        while name in names:
            name, k = f"{base}-{k}", k + 1
        names.append(name)
    return names


def run(args) -> int:
    from ..codecs.penman import read_penman
    from ..metaeval import meta_evaluate, read_labels
    from ..report.render import render
    from ..metrics.registry import available, get_metric

    if args.list_metrics:
        emit("\n".join(available()), None)
        return 0
    if not args.gold or len(args.systems) < 2:
        raise MrkitError("give GOLD and at least two SYSTEM files")
    if args.samples < 0:
        raise MrkitError("--samples must be >= 0")
    if not 0 < args.level < 1:
        raise MrkitError("--level must lie between 0 and 1")
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else available()
    for m in metrics:
        get_metric(m)  # unknown names fail before any scoring
    if args.html:
        from ..codecs._files import check_writable

        check_writable(args.html)  # before any scoring, as -o
    if args.plot:
        from ..report.plot import _pyplot

        _pyplot()  # a missing matplotlib fails before any scoring
    names = _names(args)
    labels = read_labels(args.human) if args.human else None
    golds = read_penman(args.gold)
    systems = {}
    for name, path in zip(names, args.systems):
        graphs = read_penman(path)
        if len(graphs) != len(golds):
            raise InputError(f"holds {len(graphs)} graphs but the gold file {args.gold} holds {len(golds)}",
                             path)
        systems[name] = graphs
    if labels is not None:
        from ..metaeval import check_labels

        check_labels(labels, len(golds), len(names), [g.metadata.get("id") for g in golds], args.gold)

    def progress(what: str) -> None:
        if sys.stderr.isatty():
            print(f"\rscoring {what} ...".ljust(60), end="", file=sys.stderr, flush=True)

    with executor_of(args, parallel_worth_it=len(golds) >= 1000) as executor:
        ev = meta_evaluate(golds, systems, metrics, labels, samples=args.samples, seed=args.seed,
                           level=args.level, ties=args.ties, progress=progress,
                           config=engine_config(args), executor=executor)
    if sys.stderr.isatty():
        print("\r".ljust(61) + "\r", end="", file=sys.stderr)
    if args.json:
        text = to_json({"gold": args.gold, "files": dict(zip(names, args.systems)),
                        "human": args.human, **ev.to_dict(per_pair=args.per_pair)})
    else:
        text = render(ev, args.digits)
    if args.plot:
        from ..report.plot import plot

        plot(ev, args.plot)
    if args.html:
        from ..codecs._files import atomic_write
        from ..report.html.page import command_line
        from ..report.html.study import render_study
        from .report import given_args

        inputs = [("gold", args.gold), *((f"system {n}", p) for n, p in zip(names, args.systems))]
        inputs += [("human labels", args.human)] if args.human else []
        atomic_write(args.html, render_study(ev, command_line(given_args(args)), inputs, args.digits))
    emit(text, args.output)
    return 0
