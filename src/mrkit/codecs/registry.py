"""Conversions between graph formats through the one graph model (``mrkit convert``).

Readers return graphs in the MRP conventions (see :mod:`mrkit.codecs.mrp`); writers take
them.  Formats: ``mrp``, ``amr`` (PENMAN), ``sdp`` (SDP 2015, DM/PSD), ``eds`` (native
EDS), ``ucca`` (UCCA XML: a file, a directory or a list of file names; reading only).
"""

from __future__ import annotations

import os

from ..errors import InputError, MrkitError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: telling a file's format builds no Graph (start-up, issue 14)
    from ..model.graph import Graph

READ_FORMATS = ("mrp", "amr", "sdp", "eds", "ucca", "conllu")
WRITE_FORMATS = ("mrp", "amr", "sdp", "eds", "ucca", "conllu")
_SUFFIX = {".mrp": "mrp", ".jsonl": "mrp", ".amr": "amr", ".penman": "amr", ".txt": "amr",
           ".sdp": "sdp", ".dm": "sdp", ".psd": "sdp", ".eds": "eds", ".xml": "ucca",
           ".conllu": "conllu"}


def suffix_of(path: str | os.PathLike) -> str:
    """``pathlib.PurePosixPath(path).suffix`` without loading pathlib (start-up): the last
    component's text from its last dot, unless that dot is its first or last character."""
    parts = [p for p in os.fspath(path).split("/") if p and p != "."]
    name = parts[-1] if parts else ""
    i = name.rfind(".")
    return name[i:] if 0 < i < len(name) - 1 else ""


def _is_dir(path: str | os.PathLike) -> bool:
    """``pathlib.Path(path).is_dir()`` without loading pathlib: the empty path is '.', a
    missing file or a loop is no directory, other failures to look raise."""
    import errno
    import stat

    try:
        return stat.S_ISDIR(os.stat(os.fspath(path) or ".").st_mode)
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            raise
        return False
    except ValueError:
        return False


def guess_format(path: str) -> str | None:
    if _is_dir(path):
        return "ucca"
    suffix = suffix_of(path).lower()
    if suffix in (".gz", ".zip"):  # MRP inside gzip or zip (the MRP reader opens them)
        return "mrp"
    return _SUFFIX.get(suffix)


def sniff_text(text: str) -> str | None:
    """The graph format a text shows by its first line that is not blank or a comment
    (``None``: unknown): a JSON object is MRP, ``{e3:`` native EDS, ``#SDP`` or a numbered
    tab-separated token line SDP, ``(`` PENMAN, ``<`` XML (UCCA).  Comment lines (``#``,
    PENMAN metadata ``# ::``) are skipped."""
    for line in text.removeprefix("\ufeff").splitlines():
        s = line.strip()
        if s.startswith("#SDP"):
            return "sdp"
        if not s or s.startswith("#"):
            continue
        if s.startswith("{"):
            return "mrp" if s[1:].lstrip().startswith(('"', "}")) else "eds"
        if s.startswith("("):
            return "amr"
        if s.startswith("<"):
            return "ucca"
        if "\t" in s and s.split("\t", 1)[0].split("-", 1)[0].isdigit():
            cols = s.split("\t")
            return "conllu" if len(cols) == 10 and cols[4] not in ("+", "-") else "sdp"
        return None
    return None


def sniff_format(head: bytes) -> str | None:
    """:func:`sniff_text` of a file's first bytes (a byte-order mark dropped, bytes that are
    not UTF-8 replaced: the reader reports them)."""
    text = head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    if text.lstrip().startswith("{"):  # a JSON object cut by the head's end is still MRP
        first = text.lstrip()
        return "mrp" if first[1:].lstrip()[:1] in ('"', "}", "") else "eds"
    fmt = sniff_text(text)
    if fmt is None and any(l.lstrip("# \t").startswith("::") for l in text.splitlines() if l.startswith("#")):
        return "amr"  # only PENMAN metadata ('# ::id', '# ::snt') before the head's end
    return fmt


def detect_format(path: str, head: bytes | None = None) -> str | None:
    """The format of ``path`` from its suffix, else from its first bytes (``head``, read
    from the file when not given; ``-`` is standard input and has no suffix)."""
    if path != "-":
        fmt = guess_format(path)
        if fmt is not None:
            return fmt
        if head is None:
            try:
                with open(path, "rb") as fh:
                    head = fh.read(4096)
            except OSError:
                return None  # the reader reports it, naming the file
    return sniff_format(head or b"")


def read_graphs(path: str, fmt: str, texts: dict[str, str] | None = None,
                framework: str | None = None) -> list[Graph]:
    """Read ``path`` in format ``fmt`` into graphs in the MRP conventions."""
    if fmt == "mrp":
        from .mrp import read_mrp

        return read_mrp(path)
    if fmt == "amr":
        from .amr_mrp import convert_amr_id, penman_to_mrp
        from .penman import iter_penman

        out = []
        for g in iter_penman(path):
            gid = convert_amr_id(g.id)
            out.append(penman_to_mrp(g, texts.get(gid, texts.get(g.id)) if texts else None))
        return out
    if fmt == "sdp":
        from .sdp import iter_sdp

        return list(iter_sdp(path, framework=framework, texts=texts))
    if fmt == "eds":
        from .eds import iter_eds

        return list(iter_eds(path, texts=texts))
    if fmt == "conllu":
        from .conllu import iter_conllu

        return list(iter_conllu(path, texts=texts))
    if fmt == "ucca":
        from .ucca import iter_ucca, ucca_paths

        return list(iter_ucca(ucca_paths(path), texts=texts))
    raise MrkitError(f"unknown input format {fmt!r} (one of {', '.join(READ_FORMATS)})")


def dumps_graphs(graphs: list[Graph], fmt: str) -> str:
    """Serialize graphs in format ``fmt``."""
    if fmt == "mrp":
        from .mrp import dumps_mrp

        return dumps_mrp(graphs)
    if fmt == "amr":
        from .amr_mrp import mrp_to_penman
        from .penman import dumps

        wrong = [g for g in graphs if g.framework not in (None, "amr")]
        if wrong:
            g = wrong[0]
            raise InputError(f"{g.framework} graph, not AMR: cannot write PENMAN", g.source_file,
                             g.source_line, g.id)
        try:
            return dumps([mrp_to_penman(g) for g in graphs])
        except ValueError as exc:  # an empty or disconnected graph: the writer names it
            raise MrkitError(str(exc)) from None
    if fmt == "sdp":
        from .sdp import dumps_sdp

        return dumps_sdp(graphs)
    if fmt == "eds":
        from .eds import dumps_eds

        return dumps_eds(graphs)
    if fmt == "conllu":
        from .conllu import dumps_conllu

        return dumps_conllu(graphs)
    if fmt == "ucca":  # one passage per XML file: several graphs go to a directory (mrkit convert)
        from .ucca import ucca_xml

        if len(graphs) != 1:
            raise MrkitError(f"UCCA XML holds one passage per file, and there are {len(graphs)} graphs: "
                             "write them to a directory")
        return ucca_xml(graphs[0])
    raise MrkitError(f"cannot write format {fmt!r} (one of {', '.join(WRITE_FORMATS)})")


# ---------------------------------------------------------------- coreference formats
# Rows read by ``mrkit coref`` / ``mrkit hierarchy`` (see :mod:`mrkit.pipeline.coref`):
# documents of clusters (``conll``, ``jsonl``, ``scico`` topics as documents), SciCo topics,
# and MS-AMR chains over AMR files (``msamr`` XML, ``chains`` JSON; they also take the AMR).

class CorefCodec:
    """One coreference format: its reader (``module:function``, imported on use), the
    suffixes that name it, and a test of a file's first bytes (``None``: suffix only)."""

    __slots__ = ("name", "reader", "suffixes", "sniff", "unit")

    def __init__(self, name: str, reader: str, suffixes: tuple[str, ...], sniff, unit: str) -> None:
        self.name, self.reader, self.suffixes, self.sniff, self.unit = name, reader, suffixes, sniff, unit

    def read(self, path: str, *args):
        from importlib import import_module

        module, function = self.reader.split(":")
        return getattr(import_module(f"mrkit.codecs.{module}"), function)(path, *args)


def _first_content(head: str) -> str:
    for line in head.splitlines():
        if line.strip():
            return line.lstrip()
    return ""


def _sniff_conll(head: str) -> bool:
    return _first_content(head).startswith("#")


def _sniff_jsonl(head: str) -> bool:
    return _first_content(head).startswith("{") and '"clusters"' in head and not _sniff_scorch(head)


def _sniff_scico(head: str) -> bool:
    return _first_content(head).startswith("{") and '"mentions"' in head and '"clusters"' not in head


def _sniff_scorch(head: str) -> bool:
    text = head.lstrip()
    return text.startswith("{") and '"type"' in text and ('"graph"' in text or '"clusters"' in text) \
        and '"doc_key"' not in text


def _sniff_msamr(head: str) -> bool:
    return _first_content(head).startswith("<")


COREF_CODECS: dict[str, CorefCodec] = {
    "conll": CorefCodec("conll", "conll:read_conll", (".conll", ".key", ".response", ".gold_conll",
                                                      ".v4_gold_conll", ".conllu"), _sniff_conll, "document"),
    "jsonl": CorefCodec("jsonl", "coref_jsonl:read_jsonlines", (".jsonl", ".jsonlines", ".json"), _sniff_jsonl,
                        "document"),
    "scico": CorefCodec("scico", "scico:read_scico", (".jsonl",), _sniff_scico, "topic"),
    "scorch": CorefCodec("scorch", "scorch_json:read_scorch", (".json",), _sniff_scorch, "document"),
    "msamr": CorefCodec("msamr", "msamr:read_msamr", (".xml",), _sniff_msamr, "chains"),
    "chains": CorefCodec("chains", "msamr:read_chain_json", (".json",), None, "chains"),
}
"""Coreference formats by name (``jsonlines`` is another name of ``jsonl``)."""

COREF_ALIASES = {"jsonlines": "jsonl", "conllu": "conll", "conll2012": "conll"}


def guess_coref_format(path: str, head: str | None, choices: tuple[str, ...]) -> str | None:
    """The format among ``choices`` of a file named ``path`` whose first characters are
    ``head`` (``None``: not read): its content decides between formats that share a
    suffix (jsonl clusters or SciCo topics), then its suffix, then its content alone."""
    suffix = suffix_of(path).lower()
    by_suffix = [n for n in choices if suffix in COREF_CODECS[n].suffixes]
    if head is not None:
        for n in by_suffix:
            sniff = COREF_CODECS[n].sniff
            if sniff is not None and sniff(head):
                return n
    if by_suffix:
        return by_suffix[0]
    if head is not None:
        for n in choices:
            sniff = COREF_CODECS[n].sniff
            if sniff is not None and sniff(head):
                return n
    return None
