"""``mrkit score --metric NAME GOLD SYSTEM``: any registered graph metric on two files."""

from __future__ import annotations

import argparse

from .common import add_engine_options, add_executor_options, add_output_options, emit, engine_config, to_json

HELP = """\
Score two PENMAN files holding the same number of graphs, paired in order, with one
registered metric: smatch, sema, sembleu, s2match, wlk, wwlk, wwlk-k3e2n, simple.
Prints the corpus score (the metric's own corpus definition: micro F1 for Smatch, SEMA
and S2match, corpus BLEU for SemBLEU, the mean of pairs for the others) and the mean of
the pair scores; --per-pair lists every pair.

Each metric takes only the options it declares (an option meant for another metric is an
error): smatch the engine options and -j; s2match --vectors, --cutoff and the engine
options; sembleu -k; wlk -k and --edge-to-node; wwlk and wwlk-k3e2n --vectors and -k;
simple and sema none.
"""

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
    p.add_argument("--cutoff", type=float, help="s2match: similarity cutoff (default 0.5)")
    p.add_argument("--per-pair", action="store_true", help="also report every pair")
    add_output_options(p)
    add_engine_options(p)
    add_executor_options(p)
    return p


# command-line flag -> the metric option it sets
FLAGS = {"vectors": "--vectors", "k": "-k", "edge_to_node": "--edge-to-node", "cutoff": "--cutoff",
         "config": "--seed/--restarts/--exact/--no-ilp/--time-limit", "workers": "-j"}


def options(args) -> dict:
    """Metric keyword options from the command line: what the user set, checked against
    what the metric declares (an option meant for another metric is an error, not
    silently ignored), plus the engine settings of the metrics that align."""
    from ..align import AlignConfig
    from ..errors import MrkitError
    from ..metrics.registry import metric_options

    declared = metric_options(args.metric)
    given: dict = {}
    if args.vectors is not None:
        given["vectors"] = args.vectors
    if args.k is not None:
        given["k"] = args.k
    if args.edge_to_node:
        given["edge_to_node"] = True
    if args.cutoff is not None:
        given["cutoff"] = args.cutoff
    config = engine_config(args)
    if config != AlignConfig() or "config" in declared:
        given["config"] = config
    if args.workers != 0 or "workers" in declared:
        given["workers"] = args.workers
    unknown = [FLAGS[o] for o in given if o not in declared]
    if unknown:
        takes = ", ".join(FLAGS.get(o, o) for o in declared if o in FLAGS) or "none"
        raise MrkitError(f"{' and '.join(unknown)} does not apply to {args.metric} "
                         f"(its options: {takes})")
    return given


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
