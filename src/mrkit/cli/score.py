"""``mrkit score --metric NAME GOLD SYSTEM``: any registered graph metric on two files."""

from __future__ import annotations

from ..pipeline.amr_formats import AMR_FORMATS
from .common import (add_engine_options, add_executor_options, add_format_option, add_output_options,
                     add_stats_options, check_stats, emit_result, engine_config, engine_options_given,
                     executor_of, raw_description, split_formats, statistics)

HELP = """\
Score two PENMAN files holding the same number of graphs, paired in order, with one
registered metric: smatch, sema, sembleu, s2match, wlk, wwlk, wwlk-k3e2n, simple.
Prints the corpus score (the metric's own corpus definition: micro F1 for Smatch, SEMA
and S2match, corpus BLEU for SemBLEU, the mean of pairs for the others) and the mean of
the pair scores; --per-pair lists every pair (--format tsv/csv: one row per pair with
its summable statistics, for spreadsheets and pandas).

--bootstrap N adds percentile intervals of the corpus score (and of precision and recall
for the micro-F1 metrics) from N resamples of the pairs; --against SYSTEM_B scores a
second system file with the same options on the same gold and compares the two
(difference, paired-bootstrap interval and p-value, approximate-randomization p-value).
In JSON the corpus score is at summary.f1, beside `corpus`, `macro` and `details`.

Each metric takes only the options it declares (an option meant for another metric is an
error): smatch the engine options; s2match --vectors, --cutoff and the engine options;
sembleu -k and --reference; wlk -k and --edge-to-node; wwlk --vectors, -k, --direction and
--edge-weights; wwlk-k3e2n --vectors, -k and --direction; simple and sema none.
-j/--executor run the pairs of every metric but wwlk and wwlk-k3e2n (which embed batches
of graphs together in this process) in worker processes.  smatch runs the pipeline of
`mrkit smatch` (streamed, read and aligned by compiled code, the same defaults: two
threads from a 256 KB gold file on, when a second core is free).  By default (-j 0)
s2match uses workers on a PENMAN gold file of 8 MB or more (on MRP input or standard
input, on 1000 pairs or more), when the load average is below the cores - 0.5.  sema, sembleu,
wlk and simple on two PENMAN files (sembleu without --reference, wlk without
--edge-to-node) use two threads of this process instead by default, from a 128 KB gold
file on, on two cores: the files are read ahead and each batch of pairs is read and
counted in two halves at once; with -j 2 they run on this process and one forked worker.
The scores never depend on -j.

sema, sembleu, wlk, simple, s2match, wwlk and wwlk-k3e2n read PENMAN files straight to
the triples they count (a compiled reader, no graph objects); blocks it does not take are
read by the general reader, with the same scores.  All of them and smatch stream the pairs
(memory does not grow with the corpus but for each pair's counts; s2match and wwlk with a
vectors file read the files twice, once for the words to load).  A missing vectors file
(or the missing default vectors) is reported before the corpus is read.
"""


def add_parser(sub):
    from ..metrics.registry import available

    p = sub.add_parser("score", help="score gold and system AMR files with any registered metric",
                       description=HELP, formatter_class=raw_description(sub))
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
    p.add_argument("--direction", choices=("both", "fromout", "fromin"),
                   help="wwlk: where a node receives messages from (default both; the reference's "
                        "-communication_direction)")
    p.add_argument("--edge-weights", metavar="FILE",
                   help="wwlk: learned edge-label weights, 'ROLE WEIGHT' per line or a JSON object "
                        "(labels not listed keep their drawn weights)")
    p.add_argument("--reference", action="store_true",
                   help="sembleu: as the reference implementation computes it (every '-of' role "
                        "reversed, n-grams only from nodes reachable from parentless nodes, k = 3 "
                        "weights 0.34/0.33/0.34)")
    p.add_argument("--per-pair", action="store_true", help="also report every pair")
    add_format_option(p, AMR_FORMATS)
    add_output_options(p)
    add_engine_options(p)
    add_executor_options(p)
    add_stats_options(p)
    return p


# command-line flag -> the metric option it sets
FLAGS = {"vectors": "--vectors", "k": "-k", "edge_to_node": "--edge-to-node", "cutoff": "--cutoff", "reference": "--reference", "direction": "--direction",
         "edge_weights": "--edge-weights",
         "config": "--seed/--restarts/--exact/--no-ilp/--time-limit", "executor": "-j/--executor"}


def options(args) -> dict:
    """Metric keyword options from the command line: what the user set, checked against
    what the metric declares (an option meant for another metric is an error, not
    silently ignored), plus the engine settings of the metrics that align.  -j and
    --executor apply to the metrics that take an executor."""
    from ..errors import MrkitError
    from ..metrics.registry import metric_options, takes_executor

    declared = dict(metric_options(args.metric))
    if takes_executor(args.metric):
        declared["executor"] = None
    given: dict = {}
    if args.vectors is not None:
        given["vectors"] = args.vectors
    if args.k is not None:
        given["k"] = args.k
    if args.edge_to_node:
        given["edge_to_node"] = True
    if args.cutoff is not None:
        given["cutoff"] = args.cutoff
    if getattr(args, "direction", None) is not None:
        given["direction"] = args.direction
    if getattr(args, "edge_weights", None) is not None:
        given["edge_weights"] = args.edge_weights
    if getattr(args, "reference", False):
        given["reference"] = True
    if "config" in declared or engine_options_given(args):
        given["config"] = engine_config(args)
    unknown = [FLAGS[o] for o in given if o not in declared]
    if (args.workers != 0 or args.executor != "auto") and "executor" not in declared:
        unknown.append(FLAGS["executor"])
    if unknown:
        takes = ", ".join(FLAGS.get(o, o) for o in declared if o in FLAGS) or "none"
        raise MrkitError(f"{' and '.join(unknown)} does not apply to {args.metric} "
                         f"(its options: {takes})")
    return given


def _read_pairs(args, system: str | None = None):
    """Gold and system graphs, paired in order (``system``: another system file), read
    by the sentence-AMR pipeline: PENMAN or MRP (``--format``, else guessed), ``-`` for
    standard input."""
    from ..pipeline.amr import iter_amr_pairs

    golds, systems = [], []
    for g, s in iter_amr_pairs(args.gold, system or args.system, getattr(args, "input_format", None)):
        golds.append(g)
        systems.append(s)
    return golds, systems


def run(args) -> int:
    from ..pipeline.amr_metrics import CODED, fast_path, read_ahead, score_files

    if args.metric in CODED and getattr(args, "workers", 0) == 0 and getattr(args, "executor", "auto") == "auto" \
            and getattr(args, "scheduler", None) is None:
        read_ahead(args.gold, args.system)  # the files' first windows cut on a second thread meanwhile
    from ..metrics.registry import builtin, declaration, score
    from ..runtime.executor import PARALLEL_MIN_PAIRS

    split_formats(args, AMR_FORMATS)
    check_stats(args)
    opts = options(args)
    fmt = getattr(args, "input_format", None)
    if args.metric in ("s2match", "wwlk", "wwlk-k3e2n") and builtin(args.metric):
        from ..codecs.vectors import check_vectors

        check_vectors(opts.get("vectors"))  # missing vectors reported before the corpus is read
    if fast_path(args.metric):
        # the triples path: files straight to what the metric counts (None: the general path)
        with executor_of(args, parallel_worth_it=_worth(args, opts)) as executor:
            res = score_files(args.metric, args.gold, args.system, fmt, executor, **opts)
            if res is not None:
                def against(path: str):
                    r = score_files(args.metric, args.gold, path, fmt, executor, **opts)
                    if r is None:
                        g, s = _read_pairs(args, path)
                        r = score(args.metric, g, s, executor=executor, **opts)
                    return r

                ci, versus = statistics(args, res, against)
                return _report(args, res, ci, versus)
    if args.metric == "smatch" and builtin("smatch"):  # user code may register another smatch
        return _run_smatch(args, opts, fmt)
    golds, systems = _read_pairs(args)
    worth = declaration(args.metric).aligns and len(golds) >= PARALLEL_MIN_PAIRS
    with executor_of(args, parallel_worth_it=worth) as executor:
        res = score(args.metric, golds, systems, executor=executor, **opts)

        def against(path: str):
            g, s = _read_pairs(args, path)
            return score(args.metric, g, s, executor=executor, **opts)

        ci, versus = statistics(args, res, against)
    return _report(args, res, ci, versus)


def _run_smatch(args, opts: dict, fmt: str | None) -> int:
    """``score -m smatch``: the pipeline of ``mrkit smatch`` (streamed, compiled; two threads
    on a large PENMAN corpus by default), reported as every registered metric is."""
    from ..pipeline.amr import parallel_worth_it, smatch_metric_files

    config = opts["config"]
    with executor_of(args, parallel_worth_it(args.gold, shared=True, threads=True)) as executor:
        res = smatch_metric_files(args.gold, args.system, config=config, executor=executor, format=fmt)
        ci, versus = statistics(args, res, lambda path: smatch_metric_files(
            args.gold, path, config=config, executor=executor, format=fmt))
        return _report(args, res, ci, versus)


def _worth(args, opts: dict) -> bool:
    """Worker processes for the triples path of ``-j 0``: for the metrics that align, on a
    gold file large enough (the pipeline's measure for Smatch); never for the others (the
    coded path of sema, sembleu, wlk and simple takes a second thread instead, at any size:
    :func:`mrkit.pipeline.amr_metrics.threaded`)."""
    from ..metrics.registry import declaration

    if not declaration(args.metric).aligns:
        return False
    from ..pipeline.amr import parallel_worth_it

    return parallel_worth_it(args.gold)


def _report(args, res, ci, versus) -> int:
    if args.per_pair:
        res.with_records()
    # today's keys, kept for one release beside the summary (pairs: summary.pairs); the copy
    # keeps a small table plain Python (Record.replace passes the table on as stored)
    view = res.replace()
    macro = res.macro  # the mean of every pair's score: computed once for both reports
    view.detail = {"corpus": res.corpus, "macro": macro, "details": res.detail}
    n = args.digits
    lines = []
    if args.per_pair:
        lines.append("pair\tid\tscore")
        lines += [f"{k + 1}\t{i}\t{x:.{n}f}" for k, (i, x) in enumerate(zip(res.ids, res.pair_scores))]
        lines.append("")
    lines.append(f"{res.name} corpus: {res.corpus:.{n}f}")
    lines.append(f"{res.name} mean of pairs: {macro:.{n}f}")
    emit_result(args, view, {"metric": res.name, "gold": args.gold, "system": args.system}, lines,
                ci, versus, per_pair=args.per_pair)
    return 0
