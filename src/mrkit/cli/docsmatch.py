"""``mrkit docsmatch GOLD SYSTEM``: document Smatch with coreference and reentrancy subscores."""

from __future__ import annotations

import argparse

from .common import add_engine_options, add_executor_options, emit, engine_config, progress_bar, to_json

HELP = """\
Smatch between two PENMAN files of document graphs, paired in order. A node may only be
aligned to a node of the same sentence (:sntN; nodes of several sentences to any of
them; the document root to the root), which keeps thousand-node documents tractable.
Sentence provenance is read from '# ::provenance' (written by 'mrkit docamr build') or
inferred from the :sntN structure. Graphs that are not document graphs (e.g.
multi-sentence AMRs) score exactly as with 'mrkit smatch'. Reports P/R/F1, the
coreference subscore (as IBM's doc-smatch defines it, with its named-entity /
bridging / other parts), the reentrancy subscore, and how many pairs are certified optimal.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("docsmatch", help="document Smatch with coreference subscore", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold document graphs (PENMAN)")
    p.add_argument("system", help="system document graphs (PENMAN)")
    p.add_argument("--per-pair", action="store_true", help="also report every pair")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", help="write the report to this file (atomically)")
    p.add_argument("--digits", type=int, default=4, help="digits after the point (default 4)")
    add_engine_options(p)
    add_executor_options(p)
    return p


def run(args) -> int:
    from ..metrics.document.docsmatch import docsmatch_graphs
    from ..codecs.docgraphs import read_document_graphs
    from ..errors import InputError

    golds = read_document_graphs(args.gold)
    systems = read_document_graphs(args.system)
    if len(golds) != len(systems):
        raise InputError(f"holds {len(systems)} graphs but the gold file {args.gold} holds {len(golds)}",
                         args.system)
    if not golds:
        raise InputError("holds no graphs: nothing to score", args.gold)
    with progress_bar(len(golds), "docsmatch") as tick:
        result = docsmatch_graphs(golds, systems, engine_config(args), progress=tick)
    if args.json:
        emit(to_json({"gold": args.gold, "system": args.system, **result.to_dict(args.per_pair)}), args.output)
        return 0
    d = args.digits
    lines = []
    if args.per_pair:
        lines.append("pair\tid\tmatched\tgold\tsystem\tF1\tcoref F1\tcertified")
        for p in result.pairs:
            cert = p.method if p.certified else f"no (bound {p.bound:g})"
            lines.append(f"{p.index + 1}\t{p.id}\t{p.matched:g}\t{p.gold}\t{p.system}\t{p.f1:.{d}f}\t"
                         f"{p.coref.f1:.{d}f}\t{cert}")
        lines.append("")
    for name, s in (("Smatch", result.overall), ("Coreference", result.coref), ("Reentrancy", result.reentrancy)):
        dd = s.to_dict()
        lines.append(f"{name}: P {dd['precision']:.{d}f}  R {dd['recall']:.{d}f}  F1 {dd['f1']:.{d}f}"
                     f"  ({s.matched:g}/{s.gold}/{s.system} matched/gold/system)")
        if name == "Coreference":
            for part, label in (("named_entity", "named entities"), ("bridging", "bridging"),
                                ("other", "other")):
                ps = result.coref_parts[part]
                pd = ps.to_dict()
                if ps.gold == ps.system == 0:
                    lines.append(f"  {label}: none in either graph (0/0/0)")
                    continue
                lines.append(f"  {label}: P {pd['precision']:.{d}f}  R {pd['recall']:.{d}f}  "
                             f"F1 {pd['f1']:.{d}f}  ({ps.matched:g}/{ps.gold}/{ps.system})")
    n = len(result.pairs)
    lines.append(f"Certified optimal: {result.certified}/{n} pairs ({100 * result.certified / max(n, 1):.1f}%)")
    emit("\n".join(lines), args.output)
    return 0
