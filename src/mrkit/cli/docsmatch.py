"""``mrkit docsmatch GOLD SYSTEM``: document Smatch with coreference and reentrancy subscores."""

from __future__ import annotations

import argparse

from .common import (add_engine_options, add_executor_options, add_format_option, add_output_options,
                     add_stats_options)

INPUT_FORMATS = ("penman", "amr")  # as mrkit.pipeline.document.INPUT_FORMATS (not imported: --help stays light)

HELP = """\
Smatch between two PENMAN files of document graphs, paired in order. A node may only be
aligned to a node of the same sentence (:sntN; nodes of several sentences to any of
them; the document root to the root), which keeps thousand-node documents tractable.
Sentence provenance is read from '# ::provenance' (written by 'mrkit docamr build') or
inferred from the :sntN structure. Graphs that are not document graphs (e.g.
multi-sentence AMRs) score exactly as with 'mrkit smatch'. Reports P/R/F1, the
coreference subscore (as IBM's doc-smatch defines it, with its named-entity /
bridging / other parts), the reentrancy subscore, the CoNLL-family coreference metrics
(MUC, B3, CEAFe, LEA, CoNLL-F1) of the chains read from both graphs with mentions matched
through the alignment, and how many pairs are certified optimal.
Either file may be '-' (standard input). --bootstrap N adds confidence intervals (document
pairs resampled), --against SYSTEM_B compares a second system on the same gold; --per-pair
--format tsv|csv writes one row per pair.
--subscores adds amr-evaluation's eight subscores (as 'mrkit smatch --subscores'), each
aligned under the same sentence constraint; its Reentrancies is Damonte et al.'s (Smatch
of the reentrant relations with their nodes, own alignment: DocAMR's Table 2 'Reent'),
where the Reentrancy line above counts the same relations under the document alignment.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("docsmatch", help="document Smatch with coreference subscore", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold document graphs (PENMAN; '-' for standard input)")
    p.add_argument("system", help="system document graphs (PENMAN; '-' for standard input)")
    p.add_argument("--per-pair", action="store_true", help="also report every pair")
    p.add_argument("--align-sentences", action="store_true",
                   help="the system segments the text into other sentences: align its sentences to the "
                        "gold's by their text ('# ::snt' / '# ::tok' split at <next_sent>) and let a node "
                        "map into any gold sentence its sentence overlaps; the alignment is reported")
    p.add_argument("--subscores", action="store_true",
                   help="also report amr-evaluation's eight subscores under the sentence constraint")
    add_output_options(p)
    add_format_option(p, INPUT_FORMATS)
    add_engine_options(p)
    add_executor_options(p)
    add_stats_options(p)
    return p


def text_lines(result, per_pair: bool, d: int) -> list[str]:
    """The text report (as before the pipeline: users parse these lines)."""
    det = result.detail
    lines = []
    if per_pair:
        lines.append("pair\tid\tmatched\tgold\tsystem\tF1\tcoref F1\tcertified")
        for p in result.records:
            cert = p["method"] if p["certified"] else f"no (bound {p['bound']:g})"
            lines.append(f"{p['index'] + 1}\t{p['id']}\t{p['matched']:g}\t{p['gold']}\t{p['system']}\t"
                         f"{p['f1']:.{d}f}\t{p['coref']['f1']:.{d}f}\t{cert}")
        lines.append("")
    for name, key in (("Smatch", "overall"), ("Coreference", "coref"), ("Reentrancy", "reentrancy")):
        s = det[key]
        lines.append(f"{name}: P {s['precision']:.{d}f}  R {s['recall']:.{d}f}  F1 {s['f1']:.{d}f}"
                     f"  ({s['matched']:g}/{s['gold']}/{s['system']} matched/gold/system)")
        if name == "Coreference":
            for part, label in (("named_entity", "named entities"), ("bridging", "bridging"),
                                ("other", "other")):
                ps = det["coref_parts"][part]
                if ps["gold"] == ps["system"] == 0:
                    lines.append(f"  {label}: none in either graph (0/0/0)")
                    continue
                lines.append(f"  {label}: P {ps['precision']:.{d}f}  R {ps['recall']:.{d}f}  "
                             f"F1 {ps['f1']:.{d}f}  ({ps['matched']:g}/{ps['gold']}/{ps['system']})")
    ch = det.get("chains") or {}
    if "conll" in ch:
        lines.append("Coreference chains (mentions matched through the alignment): " + "  ".join(
            f"{label} {ch[k]['f1']:.{d}f}" for k, label in (("muc", "MUC"), ("bcub", "B3"), ("ceafe", "CEAFe"),
                                                           ("lea", "LEA"), ("conll", "CoNLL-F1")) if k in ch))
    for k, al in enumerate(det.get("sentence_alignment") or []):
        if al is not None:
            lines.append(f"Sentence alignment{f' (pair {k + 1})' if result.pairs > 1 else ''}, system -> gold: "
                         + " ".join(f"{s}->{','.join(map(str, g)) or '-'}" for s, g in al))
    n, c = result.pairs, result.n_certified
    lines.append(f"Certified optimal: {c}/{n} pairs ({100 * c / max(n, 1):.1f}%)")
    return lines


def run(args) -> int:
    import sys

    from ..pipeline.document import score_documents
    from .common import (check_stats, emit_result, engine_config, executor_of, progress_bar, split_formats,
                         statistics)

    split_formats(args, INPUT_FORMATS)
    check_stats(args)
    config = engine_config(args)
    executor = executor_of(args)

    def score(system: str, label: str):
        with progress_bar(None, label, enabled=sys.stderr.isatty()) as tick:
            return score_documents(args.gold, system, config, executor, input_format=args.input_format,
                                   keep_records=args.per_pair, progress=tick, align_sentences=args.align_sentences)

    result = score(args.system, "docsmatch")
    ci, against = statistics(args, result, lambda path: score(path, "docsmatch (against)"))
    lines = text_lines(result, args.per_pair, args.digits)
    if args.subscores:
        from ..metrics.amr.subscores import attach_subscores
        from ..pipeline.amr_variants import document_subscore_files
        from .smatch_options import subscore_lines

        if "-" in (args.gold, args.system):
            from ..errors import MrkitError

            raise MrkitError("--subscores reads the files twice: give files, not '-' (standard input)")
        sub = document_subscore_files(args.gold, args.system, config=config, executor=executor,
                                      input_format=args.input_format, keep_records=args.per_pair)
        attach_subscores(result, sub, args.bootstrap, args.stats_seed, args.confidence)
        lines += subscore_lines(result.detail, args.digits)
    emit_result(args, result, {"gold": args.gold, "system": args.system},
                lines, ci, against, per_pair=args.per_pair)
    return 0
