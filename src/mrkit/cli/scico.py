"""``mrkit scico``: SciCo baselines, corpus statistics and inter-annotator agreement."""

from __future__ import annotations

import argparse
import json
import sys

HELP = """\
SciCo (hierarchical cross-document coreference) beyond scoring:

  mrkit scico baseline levenshtein TOPICS -o OUT.jsonl
      the edit-distance baseline: average-linkage clustering over 1 - normalized
      Levenshtein similarity of mention texts, distance threshold 0.3 (--threshold)
  mrkit scico baseline pairs TOPICS --scores SCORES.tsv -o OUT.jsonl
      the two-stage pipeline from a pair scorer's probabilities (TSV: topic, i, j and
      coref, child and/or parent columns; i, j are mention positions): clusters by
      average-linkage clustering over 1 - p(coref) (--coref-threshold, default 0.6),
      then greedy cycle-free insertion of relations scored by the mean p(child) over the
      clusters' mention pairs, highest first, none below --hierarchy-threshold (0.4)
  mrkit scico stats TOPICS
      topics, documents, mentions, clusters, relations, average connected components
      and depth of the largest component (the paper's Table 2 and §3.4)
  mrkit scico agreement A.jsonl B.jsonl [C.jsonl ...] [--baseline SYS --gold GOLD]
      inter-annotator agreement (AVG, MAX-micro, MAX-macro) of CoNLL-F1, hierarchy F1
      and path ratio; with --baseline, Pearson and Spearman correlation of the topics'
      agreement with the baseline's CoNLL-F1 (§5.2)

Baselines write SciCo jsonl (the input topics with predicted clusters and relations).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("scico", help="SciCo baselines, corpus statistics, agreement",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    ss = p.add_subparsers(dest="scico_command", metavar="ACTION")
    ss.required = True
    b = ss.add_parser("baseline", help="predict with a baseline that needs no trained model")
    b.add_argument("kind", choices=("levenshtein", "pairs"))
    b.add_argument("input", help="SciCo jsonl topics (mentions given)")
    b.add_argument("--scores", help="pairs: the pair scorer's TSV file")
    b.add_argument("--threshold", type=float, default=0.3, help="levenshtein: distance threshold (0.3)")
    b.add_argument("--coref-threshold", type=float, default=0.6, help="pairs: clustering distance threshold (0.6)")
    b.add_argument("--hierarchy-threshold", type=float, default=0.4, help="pairs: stop threshold (0.4)")
    b.add_argument("-o", "--output", help="write the topics here (atomically; default stdout)")
    s = ss.add_parser("stats", help="corpus statistics (Table 2 rows)")
    s.add_argument("input", help="SciCo jsonl topics")
    s.add_argument("--per-topic", action="store_true", help="also every topic's row")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("-o", "--output", help="write the report to this file (atomically)")
    a = ss.add_parser("agreement", help="inter-annotator agreement")
    a.add_argument("files", nargs="+", help="two annotation files or more (same topics)")
    a.add_argument("--baseline", help="a baseline's predictions, to correlate with the agreement")
    a.add_argument("--gold", help="the gold file the baseline is scored against")
    a.add_argument("--json", action="store_true", help="print JSON")
    a.add_argument("-o", "--output", help="write the report to this file (atomically)")
    a.add_argument("--digits", type=int, default=2, help="digits after the point of percentages (default 2)")
    return p


def _warn(message: str) -> None:
    print(f"mrkit: warning: {message}", file=sys.stderr)


def _emit(text: str, output: str | None) -> None:
    from .common import emit

    emit(text, output)


def run(args) -> int:
    from ..errors import MrkitError
    from ..pipeline import scico

    if getattr(args, "output", None):
        from ..codecs._files import check_writable

        check_writable(args.output)
    if args.scico_command == "baseline":
        from ..codecs.scico import dumps_scico

        if args.kind == "levenshtein":
            topics = scico.levenshtein_baseline(args.input, args.threshold, warn=_warn)
        else:
            if not args.scores:
                raise MrkitError("baseline pairs needs --scores SCORES.tsv")
            topics = scico.pair_score_baseline(args.input, args.scores, args.coref_threshold,
                                               args.hierarchy_threshold, warn=_warn)
        _emit(dumps_scico(topics).rstrip("\n"), args.output)
        return 0
    if args.scico_command == "stats":
        out = scico.stats_file(args.input, warn=_warn)
        if not args.per_topic:
            out.pop("per_topic")
        if args.json:
            _emit(json.dumps(out, indent=1), args.output)
            return 0
        lines = [f"{k:<24}{out[k]:.2f}" if isinstance(out[k], float) else f"{k:<24}{out[k]}"
                 for k in ("topics", "documents", "mentions", "clusters", "relations", "avg_components",
                           "avg_max_component_depth")]
        for r in out.get("per_topic", ()):
            lines.append("topic " + " ".join(f"{k}={v}" for k, v in r.items()))
        _emit("\n".join(lines), args.output)
        return 0
    try:
        out = scico.agreement_files(args.files, args.baseline, args.gold, warn=_warn)
    except ValueError as exc:
        raise MrkitError(str(exc)) from None
    if args.json:
        _emit(json.dumps(out, indent=1), args.output)
        return 0
    d = args.digits
    lines = [f"{len(args.files)} annotations, {len(out['per_topic'])} topics",
             f"{'score':<12}{'AVG':>9}{'(std)':>9}{'MAX-micro':>11}{'MAX-macro':>11}"]
    for s in ("conll", "hierarchy", "path_ratio"):
        v = out[s]
        lines.append(f"{s:<12}{100 * v['avg']:>9.{d}f}{100 * v['std']:>9.{d}f}{100 * v['max_micro']:>11.{d}f}"
                     f"{100 * v['max_macro']:>11.{d}f}")
    if "correlation" in out:
        c = out["correlation"]
        lines.append(f"correlation with the baseline over {c['topics']} topics: Pearson {c['pearson']:.4f} "
                     f"(p {c['pearson_p']:.4f}), Spearman {c['spearman']:.4f} (p {c['spearman_p']:.4f})")
    _emit("\n".join(lines), args.output)
    return 0
