"""``mrkit report GOLD SYSTEM [SYSTEM ...] -o report.html``: one self-contained HTML page of an evaluation."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import MrkitError
from ..codecs.registry import READ_FORMATS
from .common import add_engine_options, add_executor_options, check_stats, emit, engine_config, executor_of

HELP = """\
Score one or more system files against a gold file and write one self-contained HTML page
(no network: style, script and pictures are inside) that shows where each system goes
wrong: the headline table (Smatch micro/macro with bootstrap intervals, certified share,
and with two or more systems the paired differences against the first with their
p-values), charts (score distribution, score against sentence length, F1 per triple type,
a per-sentence scatter of two systems), a sortable, filterable table of the pairs and, for
any pair, the pair view: gold and system side by side under the certified alignment, as
PENMAN text and as a drawn graph, matched and unmatched triples marked, and the variable
mapping. The footer holds the exact command, mrkit's version and the inputs' sha256.

Sentence AMR (PENMAN, or MRP graphs of framework amr) is scored by Smatch, graphs paired
in order. Other graphs (MRP of the other frameworks, SDP, EDS, UCCA) are scored by the MRP
metric, paired by framework and id as in `mrkit mrp` (--framework and --normalize as
there), and the pair
view also shows every node's anchors on the sentence. Document graphs are scored by
document Smatch with --metric docsmatch (with its coreference and reentrancy subscores).
The input format is guessed from suffix and content, or given by --format. The page is
the same bytes for the same inputs and options.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("report", help="an HTML report of an evaluation, with every pair's alignment",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold file (PENMAN, MRP, SDP, EDS, UCCA)")
    p.add_argument("systems", nargs="+", metavar="SYSTEM", help="system files, graphs paired in order with the gold file")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the HTML file to write (atomically; '-' is stdout; checked before any work)")
    p.add_argument("--names", help="comma-separated system names (default: the file names without suffix)")
    p.add_argument("--format", choices=READ_FORMATS, dest="input_format",
                   help="input format (default: guessed from suffix and content)")
    p.add_argument("--metric", choices=("smatch", "mrp", "docsmatch"),
                   help="smatch (sentence AMR, paired in order), mrp (MRP metric, paired by framework and id) or "
                        "docsmatch (document graphs, as mrkit docsmatch reads them, paired in order); "
                        "default: smatch for AMR, mrp for the other frameworks")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="with the MRP metric: score only this framework (repeatable)")
    from .mrp import add_normalize_option

    add_normalize_option(p)  # with the MRP metric
    g = p.add_argument_group("statistics")
    g.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples of the pairs for the intervals and paired tests (default 1000; 0: none)")
    g.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                   help="confidence level of the intervals (default 0.95)")
    g.add_argument("--stats-seed", type=int, default=0, metavar="S",
                   help="seed of the bootstrap and randomization draws (default 0)")
    add_engine_options(p)
    add_executor_options(p)
    return p


def names_of(paths: list[str], names: str | None) -> list[str]:
    """``--names`` split, or the file names without suffix (made distinct)."""
    if names:
        out = [n.strip() for n in names.split(",")]
        if len(out) != len(paths):
            raise MrkitError(f"--names lists {len(out)} names for {len(paths)} system files")
        if len(set(out)) != len(out) or not all(out):
            raise MrkitError("--names must be distinct and not empty")
        return out
    out: list[str] = []
    for path in paths:
        base = Path(path).stem or path
        name, k = base, 2
        while name in out:
            name, k = f"{base}-{k}", k + 1
        out.append(name)
    return out


def given_args(args) -> list[str]:
    """The arguments of ``args.command`` as parsed, in a canonical order (positionals, then
    every option whose value is not its default), for a page's footer: running them again
    makes the same page."""
    from . import build_parser

    parser = build_parser([args.command])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out, options = [args.command], []
    for action in sub.choices[args.command]._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        value = getattr(args, action.dest, None)
        if not action.option_strings:
            out += [str(v) for v in value] if isinstance(value, list) else ([] if value is None else [str(value)])
            continue
        if value == action.default or value is None:
            continue
        flag = next((o for o in action.option_strings if o.startswith("--")), action.option_strings[0])
        if action.nargs == 0:
            options.append(flag)
        elif isinstance(value, (list, tuple)):
            options += [flag, *(str(v) for v in value)]
        else:
            options += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return out + options


def metric_of(gold: str, fmt: str | None) -> str:
    """``smatch`` for sentence AMR (PENMAN, MRP whose first graph is AMR), else ``mrp``."""
    import json

    from ..codecs.registry import detect_format

    fmt = fmt or detect_format(gold) or "amr"
    if fmt == "amr":
        return "smatch"
    if fmt != "mrp":
        return "mrp"
    try:
        with open(gold, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    graph = json.loads(line)
                    return "smatch" if str(graph.get("framework", "amr")).lower() == "amr" else "mrp"
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        return "mrp"  # the reader reports what is wrong, naming the file and line
    return "mrp"


def run(args) -> int:
    from ..pipeline.amr import AMR_FORMATS, parallel_worth_it
    from ..pipeline.inspect import amr_study, document_study, mrp_study
    from ..report.html.amr import headline_stats, render_amr
    from ..report.html.page import command_line

    check_stats(args)
    names = names_of(args.systems, args.names)
    metric = args.metric or metric_of(args.gold, args.input_format)
    if metric == "smatch" and args.input_format not in (None, *AMR_FORMATS):
        raise MrkitError(f"Smatch scores sentence AMR (--format amr or mrp), not {args.input_format}")
    if metric == "docsmatch" and args.input_format not in (None, "amr"):
        raise MrkitError(f"document graphs are read as PENMAN (--format amr), not {args.input_format}")
    if metric != "mrp" and args.framework:
        raise MrkitError("--framework chooses MRP frameworks: use it with the MRP metric")
    if metric != "mrp" and args.normalize:
        raise MrkitError("--normalize chooses MRP normalizations: use it with the MRP metric")
    from .mrp import normalize_of

    normalize = normalize_of(args)
    with executor_of(args, parallel_worth_it(args.gold)) as executor:
        if metric == "docsmatch":
            study = document_study(args.gold, args.systems, names, config=engine_config(args), executor=executor)
        elif metric == "mrp":
            study = mrp_study(args.gold, args.systems, names, config=engine_config(args), executor=executor,
                              format=args.input_format, frameworks=args.framework, normalize=normalize)
        else:
            study = amr_study(args.gold, args.systems, names, config=engine_config(args), executor=executor,
                              format=args.input_format)
    stats = headline_stats(study, args.bootstrap, args.stats_seed, args.confidence)
    emit(render_amr(study, stats, command_line(given_args(args))), args.output)
    return 0
