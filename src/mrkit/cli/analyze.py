"""``mrkit analyze FILE``: graph statistics per framework (Kuhlmann & Oepen 2016)."""

from __future__ import annotations

import argparse
import sys

from .common import add_format_option, emit, report_format, split_formats, to_json

HELP = """\
The graph statistics of Kuhlmann & Oepen (2016), as in Table 2 of the MRP 2019 overview
and `mtool --analyze`, per framework: number of graphs, nodes, tops, node labels,
properties, anchors, edges, edge attributes (each with its share of all tuples), distinct
edge labels; % trees; % treewidth one, average and maximal treewidth (exact); average edge
density; % reentrant nodes; % cyclic; % not connected; % multi-rooted; % non-top roots; and
for graphs ordered by token position (DM, PSD): average edge length, % noncrossing,
% page number two.  AMR graphs are also analysed with inverted edges normalised (the
column amr⁻¹; --no-inverted leaves it out).

Reads any graph file mrkit reads (MRP, possibly inside .zip or .gz; PENMAN, including
document graphs; SDP; EDS; UCCA XML), given by --format or guessed.  --format json prints
JSON (full precision), tsv/csv one row per framework.  --normalize applies mtool's
normalizations first (anchors, case, edges, attributes; none by default, as mtool).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    from ..codecs.registry import READ_FORMATS

    p = sub.add_parser("analyze", help="graph statistics per framework (treewidth, reentrancy, crossing, ...)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="graphs (MRP or a native format; - for stdin)")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="only graphs of this framework (repeatable; case-insensitive)")
    p.add_argument("--no-inverted", dest="inverted", action="store_false",
                   help="leave out the amr⁻¹ column (AMR with inverted edges normalised)")
    p.add_argument("--normalize", action="append", metavar="WHICH",
                   help="normalize the graphs first, as mtool --analyze --normalize: a comma-separated subset "
                        "of anchors, case, edges, attributes (see mrkit mrp --help), or all or none (the "
                        "default here, as in mtool); repeatable")
    from .selection import add_selection_options

    add_selection_options(p)
    add_format_option(p, READ_FORMATS)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the report to this file (atomically; '-' is stdout; checked before any work)")
    return p


def run(args) -> int:
    from ..codecs.registry import READ_FORMATS
    from ..errors import InputError
    from ..pipeline.analyze import analyze_graphs
    from ..pipeline.read import read_side
    from ..pipeline.selection import select_graphs
    from .selection import selection_of

    split_formats(args, READ_FORMATS)
    fmt = report_format(args)
    selection = selection_of(args)

    def warn(message: str) -> None:
        print(f"mrkit: warning: {message}", file=sys.stderr)

    graphs = read_side(args.file, args.input_format, None, warn)
    graphs = select_graphs(graphs, selection, frameworks=args.framework)
    if not graphs:
        raise InputError("no graph to analyze (after selection)", args.file)
    analysis = analyze_graphs(graphs, inverted=args.inverted, source=args.file,
                              normalize=_normalize(args)).to_dict()
    if fmt == "json":
        emit(to_json(analysis), args.output)
    elif fmt in ("tsv", "csv"):
        from ..report.analyze import analysis_rows
        from ..report.result import rows_text

        emit(rows_text(analysis_rows(analysis), fmt), args.output)
    else:
        from ..report.analyze import analysis_table

        emit(analysis_table(analysis), args.output)
    return 0


def _normalize(args) -> frozenset[str]:
    """``--normalize`` (default: none, as ``mtool --analyze``); unknown: exit 2, one line."""
    from ..errors import MrkitError
    from ..features.mrp_tuples import parse_normalize

    if not args.normalize:
        return frozenset()
    try:
        return parse_normalize(args.normalize)
    except ValueError as exc:
        raise MrkitError(f"--normalize: {exc}") from None
