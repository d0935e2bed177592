"""Anchoring tokens in the raw input string, shared by the token-based codecs (SDP, UCCA).

Tokenized corpora (PTB-style SDP, UCCA terminals) spell some tokens differently from the
raw sentence (quotes, dashes, ellipses).  :class:`Anchorer` walks the text left to right
and returns the character span ``[start, end)`` of each token in turn.
"""

from __future__ import annotations

from ..errors import InputError
from ._files import numbered_lines

# token spellings of characters that the raw text may write differently
_VARIANTS = (
    ("``", '"', "\u201c", "``"), ("''", '"', "\u201d", "''"), ("`", "'", "\u2018", "`"),
    ("'", "\u2019", "'"), ("--", "\u2014", "\u2013", "--", "---"), ("...", "\u2026", ". . .", "..."),
    ("-LRB-", "("), ("-RRB-", ")"), ("-LCB-", "{"), ("-RCB-", "}"), ("-LSB-", "["), ("-RSB-", "]"),
)
_OPENING = ("\u201c", '"', "``", "\u2018", "`")
_CLOSING = ("\u201d", '"', "''", "\u2019", "'")


class TokenText(str):
    """A sentence that also knows its tokens' spans (a companion tokenization, e.g. the
    UDPipe CoNLL-U trees of MRP 2019): :class:`Anchorer` anchors each token at the next
    companion token that spells it, and searches the text only where none does."""

    spans: tuple[tuple[int, int], ...]

    def __new__(cls, text: str, spans) -> "TokenText":
        obj = super().__new__(cls, text)
        obj.spans = tuple(spans)
        return obj


class Anchorer:
    """Find successive tokens in ``text``; :meth:`anchor` returns ``(start, end)``."""

    def __init__(self, text: str, graph: str | None = None, file: str | None = None) -> None:
        self.text = text
        self.i = 0
        self.graph = graph
        self.file = file
        self.spans = getattr(text, "spans", None)
        self.k = 0

    def _companion(self, form: str) -> tuple[int, int] | None:
        """The next companion token at or after the position that spells ``form``."""
        spans = self.spans
        while self.k < len(spans) and spans[self.k][0] < self.i:  # type: ignore[arg-type]
            self.k += 1
        if self.k < len(spans):  # type: ignore[arg-type]
            a, b = spans[self.k]  # type: ignore[index]
            if self.text[a:b] in self._candidates(form) or self.text[a:b].replace(" ", "") == form:
                self.k += 1
                self.i = b
                return a, b
        return None

    def _skip(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def _candidates(self, form: str) -> list[str]:
        out = [form, form.replace("\u2018", "`").replace("\u2019", "'")]
        for group in _VARIANTS:
            if form in group:
                out.extend(group)
        if form in _OPENING or form in _CLOSING:
            out.extend(_OPENING + _CLOSING)
        return out

    def anchor(self, form: str) -> tuple[int, int]:
        self._skip()
        if self.spans is not None:
            found = self._companion(form)
            if found is not None:
                return found
        for cand in self._candidates(form):
            if cand and self.text.startswith(cand, self.i):
                start = self.i
                self.i += len(cand)
                return start, self.i
        raise InputError(f"cannot anchor token {form!r} at character {self.i} of {self.text!r}",
                         self.file, None, self.graph)


def open_lines(source, name: str | None = None):
    """``(label, lines)`` of a path (decoded line by line, so that a byte that is not UTF-8
    is an :class:`InputError` naming its line) or of an open text file."""
    import os

    if isinstance(source, (str, os.PathLike)):
        label = name or str(source)
        try:
            fh = open(source, "rb")
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", label) from None
        return label, _decoded(fh, label)
    return name or getattr(source, "name", "<input>"), source


def _decoded(fh, label: str):
    with fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start + 1} of the line)",
                                 label, lineno) from None
            yield line[:-2] + "\n" if line.endswith("\r\n") else line  # as text mode reads it


def read_text_map(path: str) -> dict[str, str]:
    """An ``id<TAB>sentence`` file (as ``wsj.txt`` of the MRP sample) as a dict; a CoNLL-U
    file or a companion MRP file (``udpipe.mrp``) gives the sentences with their tokens
    (:class:`TokenText`, :func:`mrkit.codecs.conllu.read_token_map`).  A pipe (``<(...)``)
    is read once, into a temporary file, since the file is sniffed first."""
    import os
    import stat

    try:
        piped = not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        piped = False
    if piped:
        import shutil
        import tempfile

        with open(path, "rb") as src, tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as tmp:
            shutil.copyfileobj(src, tmp)
        try:
            out = read_text_map(tmp.name)
        except InputError as exc:
            raise InputError(exc.detail, path, exc.line, exc.graph, exc.unit) from None
        finally:
            os.unlink(tmp.name)
        return out
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).lstrip(b"\xef\xbb\xbf").lstrip()
    except OSError:
        head = b""
    first = head.split(b"\n", 1)[0]
    if head.startswith(b"{") or (head.startswith(b"#") and not head.startswith(b"#SDP")) \
            or first.count(b"\t") == 9:
        from .conllu import read_token_map

        return read_token_map(path)
    out: dict[str, str] = {}
    for lineno, line in numbered_lines(path):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        gid, tab, text = line.partition("\t")
        if not tab:
            raise InputError("expected 'id<TAB>text'", path, lineno)
        out[gid] = text
    return out
