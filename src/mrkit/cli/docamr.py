"""``mrkit docamr build``: document graphs from sentence AMRs and coreference."""

from __future__ import annotations

import argparse
import warnings

HELP = """\
Build one document graph per document (PENMAN, written atomically) from sentence AMRs and
coreference given as MS-AMR XML (--xml), mrkit chain JSON (--chains), or a pipeline's
jsonlines clusters over node-aligned sentence AMRs (--clusters). Representations:
no-merge, merge-ne, docamr (default), merge-all; --no-coref joins the sentences only.
Each graph carries '# ::provenance var=N,...' (sentence numbers of every node, as :sntN).
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
    src.add_argument("--clusters", metavar="JSONL",
                     help="jsonlines with token-span 'clusters' (sentence AMRs need node alignments)")
    b.add_argument("-r", "--rep", default="docamr", choices=("no-merge", "merge-ne", "docamr", "merge-all"),
                   help="representation (default docamr)")
    b.add_argument("--no-coref", action="store_true", help="sentences under the root, no coreference")
    b.add_argument("-o", "--output", required=True, help="output PENMAN file")
    return p


def load_documents(args) -> list:
    from ..docamr.inputs import load_documents as load

    return load(args.amr, xml=args.xml, chains=args.chains, clusters=args.clusters, no_coref=args.no_coref)


def run(args) -> int:
    import sys

    from ..docamr.build import build, no_coref
    from ..codecs.docgraphs import write_document_graphs

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = load_documents(args)
    for w in caught:
        print(f"mrkit: warning: {w.message}", file=sys.stderr)
    graphs = [no_coref(d) if args.no_coref else build(d, args.rep) for d in docs]
    write_document_graphs(graphs, args.output)
    return 0
