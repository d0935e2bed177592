"""``mrkit audit -m METRIC``: run metrics against the known traps of AMR metrics."""

from __future__ import annotations

import argparse

from ..errors import MrkitError
from .common import emit, to_json

HELP = """\
Run one or more registered metrics against the known traps of AMR metrics and report
which traps each falls for (a table metric x trap, then every trap's expected behaviour
and the pair scores). The traps are small generated graph pairs, each with the behaviour
a sound AMR metric shows:

  self                a graph against itself scores 1
  empty               graph vs empty graph scores 0 (both ways); empty vs empty in [0, 1]
  duplicated triples  writing triples twice never gains; a graph with a duplicate scores 1
                      against itself and against the graph without it
  TOP                 the same triples around another top (focus): < 1
  constant source     an attribute written inverted (:polarity-of -): < 1; 1 against itself
  inverted edges      :ARG0-of written instead of :ARG0 (either side), or both: 1
  role swap           ARG0 and ARG1 swapped: < 1
  variable renaming   other variable names: 1
  triple order        the same graph written in another order: 1

Every score must also lie in [0, 1]; an error on a trap's pairs counts as falling for it.
Exit status 0 (1 with --strict when a metric falls for a trap).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("audit", help="run metrics against the known traps of AMR metrics",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="a registered metric, or a comma-separated list, or 'all' (repeatable; default all)")
    p.add_argument("--vectors", metavar="FILE",
                   help="s2match/wwlk: word vectors in GloVe text format, or 'none' (default: packaged GloVe)")
    p.add_argument("--strict", action="store_true", help="exit 1 when a metric falls for a trap")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--digits", type=int, default=3, help="digits after the point (default 3)")
    return p


def metric_names(specs: list[str] | None) -> list[str]:
    from ..metrics.registry import available, get_metric

    names: list[str] = []
    for spec in specs or ["all"]:
        for m in (x.strip() for x in spec.split(",")):
            if not m:
                continue
            for name in (available() if m == "all" else [m]):
                get_metric(name)  # an unknown name fails before any scoring
                if name not in names:
                    names.append(name)
    if not names:
        raise MrkitError("-m names no metric")
    return names


def run(args) -> int:
    from ..metaeval.audit import audit_metrics
    from ..report.render import render_audit

    metrics = metric_names(args.metric)
    options = {"vectors": args.vectors} if args.vectors is not None else {}
    audits = audit_metrics(metrics, **options)
    if args.json:
        text = to_json({"audits": [a.to_dict() for a in audits]})
    else:
        text = render_audit(audits, args.digits)
    emit(text, args.output)
    return 1 if args.strict and any(a.falls_for for a in audits) else 0
