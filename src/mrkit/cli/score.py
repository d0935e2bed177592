"""``mrkit score --metric NAME GOLD SYSTEM``: any registered graph metric on two files."""

from __future__ import annotations

import argparse

from .common import add_engine_options, add_output_options, emit, engine_config, to_json

HELP = """\
Score two PENMAN files holding the same number of graphs, paired in order, with one
registered metric: smatch, sema, sembleu, s2match, wlk, wwlk, wwlk-k3e2n, simple.
Prints the corpus score (the metric's own corpus definition: micro F1 for Smatch, SEMA
and S2match, corpus BLEU for SemBLEU, the mean of pairs for the others) and the mean of
the pair scores; --per-pair lists every pair.
"""

VECTOR_METRICS = {"s2match", "wwlk", "wwlk-k3e2n"}
ENGINE_METRICS = {"smatch", "s2match"}


def add_parser(sub) -> argparse.ArgumentParser:
    from ..metrics.registry import available

    p = sub.add_parser("score", help="score gold and system AMR files with any registered metric",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", help="gold PENMAN file")
    p.add_argument("system", help="system PENMAN file")
    p.add_argument("-m", "--metric", required=True, choices=available(), help="the metric")
    p.add_argument("--vectors", metavar="FILE",
                   help="s2match/wwlk: word vectors in GloVe text format, or 'none' "
                        "(default: GloVe 6B 50d from the optional extra mrkit[embeddings])")
    p.add_argument("-k", type=int, help="sembleu: longest n-gram (1-3, default 3); "
                                        "wlk/wwlk: Weisfeiler-Leman rounds (default 2, wwlk-k3e2n 3)")
    p.add_argument("--edge-to-node", action="store_true", help="wlk: turn edges into nodes first")
    p.add_argument("--cutoff", type=float, default=0.5, help="s2match: similarity cutoff (default 0.5)")
    p.add_argument("--per-pair", action="store_true", help="also report every pair")
    add_output_options(p)
    add_engine_options(p)
    return p


def options(args) -> dict:
    """Metric keyword options from the command line."""
    opts: dict = {}
    if args.metric in ENGINE_METRICS:
        opts["config"] = engine_config(args)
    if args.metric == "smatch":
        opts["workers"] = args.workers
    if args.metric in VECTOR_METRICS and args.vectors:
        opts["vectors"] = args.vectors
    if args.k is not None and args.metric in {"sembleu", "wlk", "wwlk", "wwlk-k3e2n"}:
        opts["k"] = args.k
    if args.metric == "wlk" and args.edge_to_node:
        opts["edge_to_node"] = True
    if args.metric == "s2match":
        opts["cutoff"] = args.cutoff
    return opts


def run(args) -> int:
    from ..metrics.registry import score
    from ..metrics.amr.smatch import read_pairs

    golds, systems = read_pairs(args.gold, args.system)
    res = score(args.metric, golds, systems, **options(args))
    if args.json:
        d = {"metric": res.name, "gold": args.gold, "system": args.system, "pairs": len(res.per_pair),
             "corpus": res.corpus, "macro": res.macro, "details": res.details}
        if args.per_pair:
            d["per_pair"] = res.per_pair
        emit(to_json(d), args.output)
        return 0
    n = args.digits
    lines = []
    if args.per_pair:
        lines.append("pair\tid\tscore")
        lines += [f"{k + 1}\t{g.id}\t{x:.{n}f}" for k, (g, x) in enumerate(zip(golds, res.per_pair))]
        lines.append("")
    lines.append(f"{res.name} corpus: {res.corpus:.{n}f}")
    lines.append(f"{res.name} mean of pairs: {res.macro:.{n}f}")
    emit("\n".join(lines), args.output)
    return 0
