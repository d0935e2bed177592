"""``mrkit coref KEY RESPONSE``: MUC, B-cubed, CEAFe, CEAFm, BLANC, LEA and CoNLL-F1."""

from __future__ import annotations

import argparse

from .common import (add_executor_options, add_format_option, add_stats_options, check_stats, emit_result,
                     executor_of, report_format, split_formats, statistics)

INPUT_FORMATS = ("auto", "conll", "jsonl", "jsonlines", "scico", "scorch")

HELP = """\
Coreference scores of a response against a key, with the CoNLL-2012 reference scorer's
definitions: mention identification, MUC, B-cubed, CEAFe, CEAFm, BLANC, LEA, and
CoNLL-F1 (mean F1 of MUC, B-cubed, CEAFe). Documents are paired by id.

Files: CoNLL-2012 / CoNLL-U-like column files (coreference in the last column,
'#begin document' / '#end document'), or jsonlines with token-span clusters
({"doc_key", "clusters": [[[start, end], ...], ...]}, end inclusive), or scorch's JSON
documents ({"type": "clusters", "clusters": {...}} or {"type": "graph", "mentions",
"links"}; a file, or a directory of them paired by file name).

With --amr GOLD_AMR SYSTEM_AMR, KEY and RESPONSE are MS-AMR coreference XML files (.xml)
or mrkit chain JSON files over those AMR files: the variables of each sentence pair are
aligned with the Smatch engine, system chains are mapped through the alignment, and the
metrics take variables as mentions (documents paired in order).

Files are read through the codec registry: the format is guessed from the suffix and
the content (SciCo topics are read as documents too), or named with --format; '-' reads
standard input.

Micro average by default (sum counts over documents, then divide), as the reference
scorer; --macro averages the per-document scores. A mention repeated in a file is kept
where it first appears (the reference scorer's rule) unless --repeated error.

--partial-heads gives partial credit for head matches (the reference scorer's README,
"Identification of mentions"): a response mention that is not a key mention but lies
within a key mention's bounds and holds its head token takes that key mention's place
for every metric, and counts --partial-weight (0.5) instead of 1 in mention recall and
precision. Heads come from the key's dependency columns (--heads).

--np-only and --min-span are coval's options: they read the tree of every mention (key
and response) from the key's CoNLL-2012 parse column (word 3, POS 4, parse bits 5);
NP-only drops mentions that are VPs, minimum span compares mentions by their minimum
span (MINA: the shallowest content words of the mention's NPs).

--topics REGEX groups documents into topics (cross-document coreference, ECB+ style;
entity identifiers are shared by the documents of a topic): the result is the
cross-document score (each topic one document: its documents in order, clusters joined
by identifier; counts summed over topics), and the within-document score (each document
alone, the ordinary score) is reported beside it. A REGEX that puts every document in one
topic ('^') gives the corpus-level score.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("coref", help="coreference metrics (MUC, B3, CEAF, BLANC, LEA, CoNLL-F1)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("key", help="key (gold) file ('-': standard input)")
    p.add_argument("response", help="response (system) file ('-': standard input)")
    add_format_option(p, INPUT_FORMATS)
    p.add_argument("--metrics", help="comma-separated subset of: mentions,muc,bcub,ceafe,ceafm,blanc,lea")
    p.add_argument("--remove-singletons", action="store_true",
                   help="drop one-mention entities (from key and response separately)")
    p.add_argument("--remove-nested", action="store_true",
                   help="drop a mention nested in another mention of its entity (coval's remove_nested)")
    p.add_argument("--unclosed", choices=("error", "drop"), default="error",
                   help="a column-file mention that never ends: fail (default) or drop it, as coval does "
                        "(SciCo's CoNLL output has such mentions)")
    p.add_argument("--np-only", action="store_true",
                   help="coval's NP-only: drop mentions that are VPs in the key's parse column (CoNLL-2012 files)")
    p.add_argument("--min-span", action="store_true",
                   help="coval's minimum-span evaluation: mentions match by their minimum span (MINA) in the "
                        "key's parse column (CoNLL-2012 files)")
    p.add_argument("--topics", metavar="REGEX",
                   help="documents grouped into topics (cross-document coreference, e.g. ECB+): the topic of a "
                        "document is the first group (or the match) of REGEX in its id, e.g. '^(\\d+)_'; reports "
                        "cross-document scores (one document per topic, entities joined by identifier) and "
                        "within-document scores (column files)")
    p.add_argument("--partial-heads", action="store_true",
                   help="partial credit for head matches, as the reference scorer's README describes: a response "
                        "mention within a key mention's bounds that holds its head counts as that key mention "
                        "(every metric), weighted --partial-weight in mention identification")
    p.add_argument("--partial-weight", type=float, default=0.5, metavar="W",
                   help="with --partial-heads: the credit of a partially correct mention (default 0.5, 0..1)")
    p.add_argument("--heads", default="columns", metavar="SPEC",
                   help="with --partial-heads: the head of a key mention from a dependency tree, 'columns' (token "
                        "number column 0 and head column 8, the reference scorer's) or 'ID,HEAD' column numbers "
                        "from 0 (CoNLL-U: 0,6); or 'first' / 'last' token; or 'minspan': the key mention's minimum "
                        "span (coval's MINA, from the parse column) must be held whole (default: columns)")
    p.add_argument("--repeated", choices=("first", "error"), default="first",
                   help="a mention written twice: keep its first occurrence (default) or fail")
    p.add_argument("--amr", nargs=2, metavar=("GOLD_AMR", "SYSTEM_AMR"),
                   help="coreference over AMR variables: KEY/RESPONSE are MS-AMR XML or chain JSON over these files")
    p.add_argument("--no-align", action="store_true",
                   help="with --amr: compare variables by name (both sides annotate the same graphs)")
    p.add_argument("--macro", action="store_true",
                   help="macro average over documents instead of micro (CoNLL-F1: the mean of the documents')")
    p.add_argument("--per-document", action="store_true",
                   help="also report every document (with --format tsv/csv: one row per document)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--digits", type=int, default=2, help="digits after the point of percentages (default 2)")
    add_executor_options(p)
    add_stats_options(p)
    return p


UNDEFINED_LEGEND = "* undefined (0/0): the reference scorer's value, 0, is shown"


def format_table(rows, digits: int, title: str = "metric", marks: dict | None = None) -> list[str]:
    """``metric  R  P  F1`` rows as percentages; NaN cells are left empty.  ``marks``:
    row name -> columns (0, 1, 2) that are 0/0, shown with ``*`` and a legend line."""
    marks = marks or {}
    width = max([len(title)] + [len(r[0]) for r in rows]) + 2
    # every cell is followed by its mark column: " ", or "*" for a 0/0 value
    lines = [f"{title:<{width}}{'recall':>9} {'precision':>10} {'F1':>9}".rstrip()]
    for name, *vals in rows:
        cells = ["" if v != v else f"{100 * v:.{digits}f}" for v in vals]
        mark = ["*" if i in marks.get(name, ()) else " " for i in range(3)]
        lines.append(f"{name:<{width}}{cells[0]:>9}{mark[0]}{cells[1]:>10}{mark[1]}{cells[2]:>9}{mark[2]}".rstrip())
    if any(marks.get(r[0]) for r in rows):
        lines.append(UNDEFINED_LEGEND)
    return lines


def run(args) -> int:
    from ..errors import MrkitError
    from ..pipeline.coref import check_stdin, read_documents, score_coref, score_coref_amr

    split_formats(args, INPUT_FORMATS)
    check_stats(args)
    metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else None
    options = dict(keep_singletons=not args.remove_singletons, repeated=args.repeated,
                   average="macro" if args.macro else "micro", metrics=metrics)
    if args.remove_nested:
        options["remove_nested"] = True
    if args.np_only or args.min_span:
        if args.amr:
            raise MrkitError("--np-only and --min-span are not available with --amr")
        if args.min_span and args.remove_nested:
            raise MrkitError("--min-span with --remove-nested is not supported (coval compares nested mentions "
                             "by their bounds and equal ones by their minimum spans)")
        if args.min_span and args.partial_heads:
            raise MrkitError("--min-span and --partial-heads are two ways of loose matching: choose one")
        options["np_only"], options["min_span"] = args.np_only, args.min_span
    heads = None
    if args.partial_heads:
        from ..metrics.coref.partial import parse_head_spec

        if not 0.0 <= args.partial_weight <= 1.0:
            raise MrkitError(f"--partial-weight must be within 0..1, not {args.partial_weight}")
        try:
            heads = parse_head_spec(args.heads)
        except ValueError as exc:
            raise MrkitError(f"--heads: {exc}") from None
        if args.amr:
            raise MrkitError("--partial-heads is not available with --amr (mentions are variables)")
        options["partial_heads"] = (args.partial_weight, heads)
    fmt = report_format(args)
    rows = args.per_document and fmt in ("tsv", "csv")
    executor = executor_of(args)

    check_stdin(args.key, args.response, args.against, *(args.amr or ()))
    if args.amr and args.topics:
        raise MrkitError("--topics is not available with --amr")
    if args.amr and args.against:  # a second system has its own AMR graphs: no pairing by sentence
        raise MrkitError("--against is not available with --amr")
    keys: list = []

    def score(response: str, keep: bool = False):
        if args.amr:
            return score_coref_amr(args.key, args.amr[0], response, args.amr[1], executor,
                                   align=not args.no_align, keep_records=keep,
                                   per_document=args.per_document, **options)
        if not keys:  # the key is read once (it may be standard input)
            keys.append(read_documents(args.key, args.input_format or "auto", args.unclosed,
                                       tokens=(heads is not None and heads[0] in ("columns", "minspan"))
                                       or args.np_only or args.min_span, entity_ids=bool(args.topics)))
        return score_coref(args.key, response, executor, fmt=args.input_format or "auto", keep_records=keep,
                           per_document=args.per_document, keys=keys[0], unclosed=args.unclosed,
                           topics=args.topics, **options)

    try:
        with executor:
            coref, result = score(args.response, rows)
            ci, compared = statistics(args, result, lambda path: score(path)[1])
    except ValueError as exc:
        raise MrkitError(str(exc)) from None
    lines = []
    if args.per_document:
        for d in coref.documents:
            lines.append(f"document {d.id}")
            column = {"recall": 0, "precision": 1, "f1": 2}
            marks = {m: {column[p] for p in c.undefined} for m, c in d.counts.items() if c.undefined}
            lines += ["  " + l for l in format_table([(m, c.recall, c.precision, c.f1) for m, c in d.counts.items()],
                                                     args.digits, marks=marks)]
        lines.append("")
    if args.topics:
        info = result.detail["topics"]
        lines.append(f"{info['documents']} documents in {info['topics']} topics, {coref.average} average")
        lines.append("cross-document (one document per topic)")
        lines += format_table(coref.table_rows(), args.digits, marks=coref.table_marks())
        within = result.detail["within_document"]
        lines.append("within-document (every document alone)")
        lines += format_table([(m, v.get("recall", float("nan")), v.get("precision", float("nan")), v["f1"])
                               for m, v in within.items()], args.digits)
    else:
        lines.append(f"{len(coref.documents)} documents, {coref.average} average")
        lines += format_table(coref.table_rows(), args.digits, marks=coref.table_marks())
    emit_result(args, result, {"key": args.key, "response": args.response}, lines, ci, compared,
                per_pair=rows, scale=100.0)
    return 0
