"""``mrkit convert IN OUT --from FMT --to FMT``: convert graphs between formats."""

from __future__ import annotations

import argparse
import warnings

from ..errors import InputError, MrkitError
from .common import emit

HELP = """\
Convert graphs between formats through mrkit's graph model, in the MRP conventions.
Input formats: mrp, amr (PENMAN), sdp (SDP 2015: DM, PSD), eds (native EDS), ucca (UCCA XML:
one file, a directory, or a file listing XML names), conllu (CoNLL-U trees, e.g. the UDPipe
companion data). Output formats: mrp, amr, sdp, eds, ucca
(UCCA XML: OUT a directory, one ID.xml per graph and files.txt listing them; or one .xml
file for a single graph), conllu (trees of framework conllu, e.g. back from udpipe.mrp).
Formats are guessed from file suffixes when not given. Token-based formats (sdp, ucca) and
eds need the raw sentences to anchor nodes: --text FILE with 'id<TAB>sentence' lines, or a
companion CoNLL-U / MRP file whose tokens anchor them (without
it, sdp/ucca inputs are the tokens joined by spaces). OUT '-' writes to stdout; a file is
written atomically, only when the whole input converted.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("convert", help="convert graphs between MRP, AMR, SDP, EDS and UCCA",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="input file (a directory or list file for UCCA XML)")
    p.add_argument("target", metavar="output",
                   help="output file, or - for stdout (a directory for UCCA XML of several graphs)")
    p.add_argument("--from", dest="source_format", choices=("mrp", "amr", "sdp", "eds", "ucca", "conllu"),
                   help="input format (default: from the suffix)")
    p.add_argument("--to", dest="target_format", choices=("mrp", "amr", "sdp", "eds", "ucca", "conllu"),
                   help="output format (default: from the suffix, else mrp)")
    p.add_argument("--text", metavar="FILE", help="raw sentences, one 'id<TAB>text' per line")
    p.add_argument("--framework", choices=("dm", "psd", "pas"),
                   help="framework of an SDP input (default: guessed from the path and labels)")
    return p


def run(args) -> int:
    from ..codecs.anchoring import read_text_map
    from ..codecs.registry import dumps_graphs, guess_format, read_graphs

    args.output = args.target
    dst = args.target_format or (guess_format(args.output) if args.output != "-" else None) or "mrp"
    to_directory = dst == "ucca" and not (args.output.lower().endswith(".xml") or args.output == "-")
    if not to_directory:  # checked before any work (a directory is checked when written)
        from ..codecs._files import check_writable

        check_writable(args.output)
    src = args.source_format or guess_format(args.input)
    if src is None:
        raise MrkitError(f"cannot tell the format of {args.input}: give --from")

    texts = read_text_map(args.text) if args.text else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graphs = read_graphs(args.input, src, texts=texts, framework=args.framework)
    if to_directory:
        return _write_ucca_directory(graphs, args)
    try:
        text = dumps_graphs(graphs, dst)
    except InputError:
        raise
    except MrkitError as exc:  # a graph the target format cannot hold: name the input file
        raise InputError(str(exc), args.input) from None
    emit(text, None if args.output == "-" else args.output)
    return 0


def _write_ucca_directory(graphs, args) -> int:
    """One XML file per graph (and files.txt) in the directory ``args.output``, made if
    missing; every file is converted before the first is written."""
    import os

    from ..codecs._files import atomic_write
    from ..codecs.ucca import ucca_files
    from ..errors import OutputError

    files = ucca_files(graphs)  # a graph that cannot be written stops here, before any file
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise OutputError(f"cannot write {args.output}: not a directory (UCCA XML is one file per passage)")
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write {args.output}: {exc.strerror}") from None
    for name, text in files.items():
        atomic_write(os.path.join(args.output, name), text)
    return 0
