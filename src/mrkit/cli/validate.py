"""``mrkit validate FILE``: check MRP or PENMAN/AMR graphs before submission."""

from __future__ import annotations

import argparse
from collections import Counter

from .common import emit, to_json

HELP = """\
Check an MRP file: graph ids, flavor and framework, input, node ids, edge endpoints,
anchors within the input, properties/values and attributes/values, and per framework
(DM/PSD: one token anchor per node; EDS: one anchor per node; UCCA: edge categories, one
primary parent, one root; AMR: unanchored, one top, connected, well-formed roles and normal).
Each finding names the line, the graph id, the node or edge, and the rule.

PENMAN/AMR files (suffix .amr/.penman/.txt or PENMAN content; or --format amr): each
block is read on its own, so one broken graph does not hide the next: penman-syntax
(unbalanced parentheses, a missing concept, ...), duplicate-variable, amr-dangling (an
unquoted value shaped like the graph's variables that no node defines: Smatch would
read it as a constant), id (a duplicate # ::id), and, as warnings, amr-role-inventory
(a role not in penman's AMR model, e.g. :ARG12).

Exit status: 0 when no errors were found (warnings, such as the deprecated edge key
'properties', do not count), 1 when errors were found, 2 when the file cannot be read
(missing, not UTF-8, or, for MRP, a line that is not JSON).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("validate", help="check MRP graphs before submission", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="MRP or PENMAN/AMR file")
    p.add_argument("--format", dest="input_format", choices=("mrp", "amr"), default=None,
                   help="the file's format (default: guessed from suffix and content)")
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.add_argument("--no-warnings", action="store_true", help="report errors only")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    return p


def run(args) -> int:
    from ..codecs.registry import detect_format
    from ..codecs.validate import validate_mrp, validate_penman

    fmt = args.input_format or detect_format(args.file) or "mrp"
    if fmt == "amr":
        findings = list(validate_penman(args.file))
    elif fmt == "mrp":
        findings = list(validate_mrp(args.file))
    else:
        from ..errors import InputError

        raise InputError(f"mrkit validate checks MRP and PENMAN/AMR files, not {fmt}", args.file)
    if args.no_warnings:
        findings = [f for f in findings if f.severity == "error"]
    errors = sum(f.severity == "error" for f in findings)
    if args.json:
        emit(to_json({"file": args.file, "errors": errors, "warnings": len(findings) - errors,
                      "findings": [f.to_dict() for f in findings]}), args.output)
    else:
        lines = [str(f) for f in findings]
        rules = Counter(f.rule for f in findings if f.severity == "error")
        summary = ", ".join(f"{r} {n}" for r, n in sorted(rules.items()))
        lines.append(f"{args.file}: {errors} errors, {len(findings) - errors} warnings"
                     + (f" ({summary})" if summary else ""))
        emit("\n".join(lines), args.output)
    return 1 if errors else 0
