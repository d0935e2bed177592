"""``mrkit docamr``: document graphs from sentence AMRs and coreference (``build``),
re-normalised document graphs (``normalize``), corpus statistics (``stats``) and MS-AMR
inter-annotator agreement (``agreement``)."""

from __future__ import annotations

import argparse
import warnings

REPRESENTATIONS = ("no-merge", "merge-ne", "docamr", "merge-all")  # as mrkit.docamr.build (--help stays light)

HELP = """\
Build one document graph per document (PENMAN, written atomically) from sentence AMRs and
coreference given as MS-AMR XML (--xml), mrkit chain JSON (--chains), or a pipeline's
token-span clusters over node-aligned sentence AMRs (--clusters: jsonlines, CoNLL-2012
or CoreNLP JSON with 'corefs'). Representations (DocAMR paper, section 3.3): no-merge,
merge-ne, docamr (default), merge-all; --flipped (section 3.4) points the parents of
every mention to its chain node; --no-coref joins the sentences only. Each graph carries
'# ::provenance var=N,...' (sentence numbers of every node, as :sntN).
Actions: build, normalize (re-normalise No-Merge or pairwise-edge document graphs),
stats (corpus statistics), agreement (MS-AMR inter-annotator agreement).
"""

NORMALIZE_HELP = """\
Re-normalise document graphs: a No-Merge document graph (coref-entity chain nodes that
mentions point to with :coref-of, as 'docamr build -r no-merge' or IBM's doc-amr write)
or, with --pairwise-rel REL, a document graph whose coreference is pairwise edges (e.g.
:same-as, as some document parsers output) is turned into the chosen representation.
"""

STATS_HELP = """\
Corpus statistics of MS-AMR files (--xml, with the sentence AMRs) or of document graphs
(--graphs): documents, sentences, chains, mentions, pronouns dropped, interlocutor chains,
names merged, implicit roles, bridging relations; as a table, or JSON with --json.
"""

AGREEMENT_HELP = """\
Agreement between two MS-AMR annotations of the same documents (O'Gorman et al. 2018,
section 3): Cohen's kappa for implicit roles (every argument slot of every predicate of
the annotated sentences is an item: marked or not), the conditional kappa (the same over
the slots both annotators marked, on the chain chosen), and the CoNLL-F1 of the identity
chains over variables (MUC, B-cubed, CEAFe).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("docamr", help="document-level AMR graphs", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s = p.add_subparsers(dest="action", metavar="ACTION")
    s.required = True
    b = s.add_parser("build", help="build document graphs", description=HELP,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("amr", nargs="+", help="sentence AMR file(s) (PENMAN)")
    src = b.add_mutually_exclusive_group()
    src.add_argument("--xml", nargs="+", metavar="XML", help="MS-AMR coreference XML file(s)")
    src.add_argument("--chains", metavar="JSON", help="mrkit chain JSON (one document: all graphs)")
    src.add_argument("--clusters", metavar="FILE",
                     help="token-span clusters: jsonlines ('clusters'), CoNLL-2012 (.conll / "
                          ".gold_conll) or CoreNLP JSON ('corefs'); the sentence AMRs need "
                          "node alignments")
    add_representation(b)
    b.add_argument("--no-coref", action="store_true", help="sentences under the root, no coreference")
    b.add_argument("--diagnostics", action="store_true",
                   help="with --clusters: report the mentions that could not be placed, were placed "
                        "on a predicate, or cross sentences (stderr)")
    b.add_argument("-o", "--output", required=True, help="output PENMAN file")

    n = s.add_parser("normalize", help="re-normalise No-Merge or pairwise-edge document graphs",
                     description=NORMALIZE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    n.add_argument("graphs", help="document graphs (PENMAN)")
    n.add_argument("--pairwise-rel", metavar="REL",
                   help="coreference is given as pairwise edges with this role (e.g. same-as)")
    add_representation(n)
    n.add_argument("-o", "--output", required=True, help="output PENMAN file")

    st = s.add_parser("stats", help="corpus statistics of MS-AMR files or document graphs",
                      description=STATS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    st.add_argument("amr", nargs="*", help="sentence AMR file(s) (with --xml)")
    g = st.add_mutually_exclusive_group(required=True)
    g.add_argument("--xml", nargs="+", metavar="XML", help="MS-AMR coreference XML file(s)")
    g.add_argument("--graphs", nargs="+", metavar="PENMAN", help="No-Merge document graph file(s)")
    st.add_argument("--json", action="store_true", help="print JSON")
    st.add_argument("-o", "--output", metavar="FILE", help="write the report to this file (atomically)")

    a = s.add_parser("agreement", help="MS-AMR inter-annotator agreement (implicit-role kappa)",
                     description=AGREEMENT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("amr", nargs="+", help="sentence AMR file(s) both annotations point to")
    a.add_argument("--xml", nargs=2, required=True, metavar=("XML_A", "XML_B"),
                   help="the two annotations (MS-AMR XML)")
    a.add_argument("--json", action="store_true", help="print JSON")
    a.add_argument("-o", "--output", metavar="FILE", help="write the report to this file (atomically)")
    a.add_argument("--digits", type=int, default=4, help="digits after the point (default 4)")
    return p


def add_representation(p) -> None:
    p.add_argument("-r", "--rep", default="docamr", choices=REPRESENTATIONS,
                   help="representation (default docamr)")
    p.add_argument("--flipped", action="store_true",
                   help="flipped representation (section 3.4): parents of mentions point to the chain node")


def load_documents(args) -> list:
    from ..docamr.inputs import load_documents as load

    return load(args.amr, xml=args.xml, chains=args.chains, clusters=args.clusters, no_coref=args.no_coref)


def _warnings(caught) -> None:
    import sys

    for w in caught:
        print(f"mrkit: warning: {w.message}", file=sys.stderr)


def run(args) -> int:
    return {"build": run_build, "normalize": run_normalize, "stats": run_stats,
            "agreement": run_agreement}[args.action](args)


def run_build(args) -> int:
    import sys

    from ..codecs.docgraphs import write_document_graphs
    from ..docamr.build import build, no_coref

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = load_documents(args)
    _warnings(caught)
    if args.diagnostics:
        from ..docamr.pipeline import diagnostics_lines

        for d in docs:
            for line in diagnostics_lines(d):
                print(line, file=sys.stderr)
    graphs = [no_coref(d) if args.no_coref else build(d, args.rep, args.flipped) for d in docs]
    write_document_graphs(graphs, args.output)
    return 0


def run_normalize(args) -> int:
    from ..codecs.docgraphs import write_document_graphs
    from ..docamr.inputs import normalize_graphs

    graphs = normalize_graphs(args.graphs, args.rep, args.flipped, pairwise=args.pairwise_rel)
    write_document_graphs(graphs, args.output)
    return 0


def run_stats(args) -> int:
    from ..docamr.stats import corpus_statistics
    from ..report.docamr import emit_stats

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stats = corpus_statistics(amr=args.amr, xml=args.xml, graphs=args.graphs)
    _warnings(caught)
    emit_stats(stats, args.json, args.output)
    return 0


def run_agreement(args) -> int:
    from ..metrics.document.agreement import agreement
    from ..report.docamr import emit_agreement
    from ..codecs.msamr import read_msamr

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = read_msamr(args.xml[0], args.amr)
        b = read_msamr(args.xml[1], args.amr)
    _warnings(caught)
    emit_agreement(agreement(a, b, args.xml[0], args.xml[1]), args.json, args.output, args.digits)
    return 0
