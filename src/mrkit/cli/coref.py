"""``mrkit coref KEY RESPONSE``: MUC, B-cubed, CEAFe, CEAFm, BLANC, LEA and CoNLL-F1."""

from __future__ import annotations

import argparse

from .common import emit, to_json

HELP = """\
Coreference scores of a response against a key, with the CoNLL-2012 reference scorer's
definitions: mention identification, MUC, B-cubed, CEAFe, CEAFm, BLANC, LEA, and
CoNLL-F1 (mean F1 of MUC, B-cubed, CEAFe). Documents are paired by id.

Files: CoNLL-2012 / CoNLL-U-like column files (coreference in the last column,
'#begin document' / '#end document'), or jsonlines with token-span clusters
({"doc_key", "clusters": [[[start, end], ...], ...]}, end inclusive).

With --amr GOLD_AMR SYSTEM_AMR, KEY and RESPONSE are MS-AMR coreference XML files (.xml)
or mrkit chain JSON files over those AMR files: the variables of each sentence pair are
aligned with the Smatch engine, system chains are mapped through the alignment, and the
metrics take variables as mentions (documents paired in order).

Micro average by default (sum counts over documents, then divide), as the reference
scorer; --macro averages the per-document scores. A mention repeated in a file is kept
where it first appears (the reference scorer's rule) unless --repeated error.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("coref", help="coreference metrics (MUC, B3, CEAF, BLANC, LEA, CoNLL-F1)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("key", help="key (gold) file")
    p.add_argument("response", help="response (system) file")
    p.add_argument("--format", choices=("auto", "conll", "jsonl"), default="auto",
                   help="input format (default: jsonl for .jsonl/.jsonlines/.json, else conll)")
    p.add_argument("--metrics", help="comma-separated subset of: mentions,muc,bcub,ceafe,ceafm,blanc,lea")
    p.add_argument("--remove-singletons", action="store_true",
                   help="drop one-mention entities (from key and response separately)")
    p.add_argument("--repeated", choices=("first", "error"), default="first",
                   help="a mention written twice: keep its first occurrence (default) or fail")
    p.add_argument("--amr", nargs=2, metavar=("GOLD_AMR", "SYSTEM_AMR"),
                   help="coreference over AMR variables: KEY/RESPONSE are MS-AMR XML or chain JSON over these files")
    p.add_argument("--no-align", action="store_true",
                   help="with --amr: compare variables by name (both sides annotate the same graphs)")
    p.add_argument("--macro", action="store_true", help="macro average over documents instead of micro")
    p.add_argument("--per-document", action="store_true", help="also report every document")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--digits", type=int, default=2, help="digits after the point of percentages (default 2)")
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
    from ..metrics.coref import read_documents, score_documents
    from ..errors import InputError, MrkitError

    metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else None
    options = dict(keep_singletons=not args.remove_singletons, repeated=args.repeated,
                   average="macro" if args.macro else "micro", metrics=metrics)
    try:
        if args.amr:
            from ..metrics.coref.amr import score_chain_files

            result = score_chain_files(args.key, args.amr[0], args.response, args.amr[1],
                                       align=not args.no_align, **options)
        else:
            key = read_documents(args.key, args.format)
            if not key:  # nothing to score is not a perfect score
                raise InputError("holds no document: nothing to score", args.key)
            result = score_documents(key, read_documents(args.response, args.format),
                                     response_file=args.response, **options)
    except ValueError as exc:
        raise MrkitError(str(exc)) from None
    if args.json:
        emit(to_json({"key": args.key, "response": args.response,
                      **result.to_dict(per_document=args.per_document)}), args.output)
        return 0
    lines = []
    if args.per_document:
        for d in result.documents:
            lines.append(f"document {d.id}")
            column = {"recall": 0, "precision": 1, "f1": 2}
            marks = {m: {column[p] for p in c.undefined} for m, c in d.counts.items() if c.undefined}
            lines += ["  " + l for l in format_table([(m, c.recall, c.precision, c.f1) for m, c in d.counts.items()],
                                                     args.digits, marks=marks)]
        lines.append("")
    lines.append(f"{len(result.documents)} documents, {result.average} average")
    lines += format_table(result.table_rows(), args.digits, marks=result.table_marks())
    emit("\n".join(lines), args.output)
    return 0
