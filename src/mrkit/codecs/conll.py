"""Reader for CoNLL-2012 / CoNLL-U-like column files with coreference in the last column.

The coreference field of a token holds ``(3`` (mention of entity 3 starts), ``3)`` (it
ends), ``(3)`` (one-token mention), several of them joined directly or with ``|``, or
``-`` / ``_`` for none.  Documents are delimited by ``#begin document NAME`` and
``#end document``; other lines that start with ``#`` are comments, blank lines separate
sentences.  A mention is a :class:`~mrkit.model.clusters.Span`
``(first token, last token)``, tokens numbered from 0 over the whole document, as the
reference scorer does.  Mentions of one entity that overlap are
closed last-opened-first.

A compiled scanner (``_conll.c``) reads the plain case (ASCII where whitespace matters, no
``\r``, no error) in one pass over the bytes; whenever it declines, this module's Python
reader reads the file, and it stays the reference (differential tests compare both).

Bad input (a bracket that closes nothing, a mention never closed, a document that never
ends, a token outside any document) raises :class:`mrkit.errors.InputError` naming the
file, the document and the line.
"""

from __future__ import annotations

import os
import re
from typing import Iterator

from ..errors import InputError
from ._files import gc_paused, numbered_lines
from ..model.clusters import CorefDocument, Span, TokenColumns

# Both patterns are anchored prefixes without nested or adjacent repetitions that could
# match the same text: linear in the line.  The coreference field is read by a scanner
# (_parts), not a regular expression.
_BEGIN = re.compile(r"#\s*begin document")
_END = re.compile(r"#\s*end document")
_DIGITS = frozenset("0123456789")
_SEPARATORS = frozenset("|-_")


def iter_conll(path: str | os.PathLike, unclosed: str = "error", tokens: bool = False,
               entity_ids: bool = False) -> Iterator[CorefDocument]:
    """Yield the documents of a column file in order.  ``unclosed="drop"`` drops a
    mention that begins and never ends (as coval does silently; SciCo's CoNLL writer
    makes such files) instead of failing.  ``tokens=True`` also keeps every token's
    columns and the sentence boundaries (:attr:`CorefDocument.tokens`, for heads and
    parse trees; read by the Python reader).  ``entity_ids=True``: the file's identifier
    of every cluster (:attr:`CorefDocument.entity_ids`; the Python reader always sets it)."""
    if unclosed not in ("error", "drop"):
        raise ValueError(f"unclosed must be 'error' or 'drop', not {unclosed!r}")
    name = os.fspath(path)
    if tokens or entity_ids:
        yield from iter_conll_python(name, unclosed, tokens=tokens)
        return
    docs = _compiled(name)
    if docs is not None:
        yield from docs
        return
    yield from iter_conll_python(name, unclosed)


def _compiled(name: str) -> list[CorefDocument] | None:
    """The documents read by the compiled scanner, or None (not built, the file cannot be
    read, not UTF-8, or a case the scanner leaves to the Python reader)."""
    try:
        from . import _conll
    except ImportError:
        return None
    try:
        with open(name, "rb") as fh:
            data = fh.read()
    except OSError:
        return None  # the Python reader says why
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    with gc_paused():
        found = _conll.scan(data, Span)
        if found is None:
            return None
        return [CorefDocument(doc_id, clusters, name, line, lines, repeats)
                for doc_id, line, clusters, lines, repeats in found]


def iter_conll_python(path: str | os.PathLike, unclosed: str = "error", tokens: bool = False
                      ) -> Iterator[CorefDocument]:
    """The Python reader (the reference of the compiled one; it reads every case)."""
    name = os.fspath(path)
    kept: TokenColumns | None = None
    doc: CorefDocument | None = None
    entity_index: dict[str, int] = {}
    open_: dict[str, list[tuple[int, int]]] = {}
    token = 0
    for lineno, line in numbered_lines(name):
        if line[:1] == "#":
            m = _BEGIN.match(line)
            if m:
                if doc is not None:
                    raise InputError("document never ends (no '#end document' before the next '#begin document')",
                                     name, doc.source_line, doc.id, unit="document")
                doc = CorefDocument(line[m.end():].strip(), [], name, lineno)
                entity_index, open_, token = {}, {}, 0
                if tokens:
                    kept = doc.tokens = TokenColumns()
            elif _END.match(line):
                if doc is None:
                    raise InputError("'#end document' without '#begin document'", name, lineno)
                _check_closed(doc, open_, entity_index, unclosed)
                yield doc
                doc = None
            continue
        fields = line.rsplit(None, 1)
        if not fields:
            if kept is not None:
                kept.end_sentence()
            continue
        if doc is None:
            raise InputError("token line outside a document (missing '#begin document')", name, lineno)
        if kept is not None:
            kept.add(line.split(), lineno)
        coref = fields[-1]
        if coref != "-" and coref != "_":
            _parse_field(coref, doc, entity_index, open_, token, lineno)
        token += 1
    if doc is not None:
        raise InputError("document never ends (no '#end document')", name, doc.source_line, doc.id, unit="document")


def read_conll(path: str | os.PathLike, unclosed: str = "error", tokens: bool = False,
               entity_ids: bool = False) -> list[CorefDocument]:
    """All documents of a column file."""
    return list(iter_conll(path, unclosed, tokens, entity_ids))


def _entity(ident: str, doc: CorefDocument, entity_index: dict[str, int]) -> list:
    i = entity_index.get(ident)
    if i is None:
        i = entity_index[ident] = len(doc.clusters)
        doc.clusters.append([])
    return doc.clusters[i]


def _parse_field(coref: str, doc: CorefDocument, entity_index: dict[str, int],
                 open_: dict[str, list[tuple[int, int]]], token: int, lineno: int) -> None:
    parts = _parts(coref)
    if parts is None:
        shown = coref if len(coref) <= 60 else coref[:60] + "..."
        raise InputError(f"cannot read coreference field {shown!r}", doc.source_file, lineno, doc.id,
                         unit="document")
    # The reference scorer's order: double antecedents "(1+2)" dropped, then one-token
    # mentions, then openings, then closings (which pop the latest opening of their entity).
    for ident, _, _ in parts:
        if ident:
            _add(doc, _entity(ident, doc, entity_index), Span(token << 32 | token), lineno)
    for _, ident, _ in parts:
        if ident:
            _entity(ident, doc, entity_index)
            open_.setdefault(ident, []).append((token, lineno))
    for _, _, ident in parts:
        if ident:
            stack = open_.get(ident)
            if not stack:
                raise InputError(f"mention of entity {ident} ends here but never began ({coref!r})",
                                 doc.source_file, lineno, doc.id, unit="document")
            start, _ = stack.pop()
            _add(doc, _entity(ident, doc, entity_index), Span(start << 32 | token), lineno)


def _parts(field: str) -> list[tuple[str, str, str]] | None:
    """The mentions of a coreference field as ``(one-token id, opening id, closing id)``
    triples (one of the three set), in the order written; ``None`` if the field is not
    made of ``(N)``, ``(N``, ``N)``, ``(N+M)`` (dropped), ``|``, ``-`` and ``_``.
    One pass over the field (no backtracking)."""
    parts = []
    i, n = 0, len(field)
    while i < n:
        c = field[i]
        if c in _SEPARATORS:
            i += 1
            continue
        opening = c == "("
        j = i + 1 if opening else i
        k = j
        while k < n and field[k] in _DIGITS:
            k += 1
        if k == j:
            return None
        ident = field[j:k]
        if opening and k < n and field[k] == "+":  # double antecedent "(N+M)": dropped
            m = k + 1
            while m < n and field[m] in _DIGITS:
                m += 1
            if m == k + 1 or m >= n or field[m] != ")":
                return None
            i = m + 1
        elif k < n and field[k] == ")":
            parts.append((ident, "", "") if opening else ("", "", ident))
            i = k + 1
        elif opening:
            parts.append(("", ident, ""))
            i = k
        else:
            return None
    return parts


def _add(doc: CorefDocument, cluster: list, mention: Span, lineno: int) -> None:
    cluster.append(mention)
    if mention in doc.mention_lines:
        doc.repeats = True
    else:
        doc.mention_lines[mention] = lineno


def _check_closed(doc: CorefDocument, open_: dict[str, list[tuple[int, int]]],
                  entity_index: dict[str, int], drop: str = "error") -> None:
    unclosed = [(line, ident) for ident, stack in open_.items() for _, line in stack]
    if unclosed and drop == "drop":
        unclosed = []
    if unclosed:
        line, ident = min(unclosed)
        raise InputError(f"mention of entity {ident} begins here but never ends",
                         doc.source_file, line, doc.id, unit="document")
    # entities whose only mentions never closed cannot remain (checked above); drop
    # nothing else: an entity opened and closed always has a mention
    doc.entity_ids = [ident for ident, i in entity_index.items() if doc.clusters[i]]
    doc.clusters[:] = [c for c in doc.clusters if c]
    if doc.repeats is None:
        doc.repeats = False
