"""Coreference documents: clusters of hashable mentions, and how they are cleaned.

A mention is any hashable value: a :class:`Span` (first and last token) for column and
jsonlines files, ``(paragraph, start, end)`` for SciCo topics, ``(sentence, variable)``
for AMR documents.  Every metric compares mentions by equality only.

:func:`prepare` applies the two options every scorer needs, in the reference scorer's
order: repeated mentions first (keep the first occurrence, in cluster order), then
singletons (removed from each side separately, as coval and SciCo do).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Sequence

from ..errors import InputError

Mention = Hashable
Clusters = list[list[Mention]]

_MAX_TOKEN = 1 << 32


class Span(int):
    """A token span ``(first, last)``, last included, coded as the integer
    ``first << 32 | last``.

    Hashing and comparing an integer is several times cheaper than a tuple, and looking
    up every mention of both sides is most of the time spent building the key/response
    contingency of a large corpus.  A span unpacks and prints like the tuple
    (``first, last = span``; ``repr`` is ``(first, last)``) but is not equal to it:
    make spans with :func:`span`.
    """

    __slots__ = ()

    @property
    def first(self) -> int:
        return int(self) >> 32

    @property
    def last(self) -> int:
        return int(self) & (_MAX_TOKEN - 1)

    def __iter__(self):
        return iter((self.first, self.last))

    def __repr__(self) -> str:
        return f"({self.first}, {self.last})"

    __str__ = __repr__


def span(first: int, last: int) -> Span:
    """The span of tokens ``first`` to ``last`` (0 <= first <= last < 2**32)."""
    if not 0 <= first <= last < _MAX_TOKEN:
        raise ValueError(f"not a token span: ({first}, {last})")
    return Span(first << 32 | last)


@dataclass
class TokenColumns:
    """The columns of a column file's tokens (document order) and where sentences begin."""

    columns: list[list[str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    """The line of every token."""
    sentence_starts: list[int] = field(default_factory=list)
    """The first token of every sentence."""
    _open: bool = field(default=False, repr=False)

    def add(self, columns: list[str], line: int) -> None:
        if not self._open:
            self.sentence_starts.append(len(self.columns))
            self._open = True
        self.columns.append(columns)
        self.lines.append(line)

    def end_sentence(self) -> None:
        """A blank line: the next token begins a sentence."""
        self._open = False

    def sentence_of(self, token: int) -> int:
        """The sentence (from 0) that holds ``token``."""
        from bisect import bisect_right

        return bisect_right(self.sentence_starts, token) - 1


@dataclass
class CorefDocument:
    """One document: its id and its clusters (entities) of mentions."""

    id: str
    clusters: Clusters = field(default_factory=list)
    source_file: str | None = None
    source_line: int | None = None
    mention_lines: dict = field(default_factory=dict, repr=False)
    """Where each mention was written (line number), for error messages."""
    repeats: bool | None = None
    """Whether a mention is written twice; ``None``: not known (checked when scoring)."""
    entity_ids: list | None = field(default=None, repr=False, compare=False)
    """The file's identifier of every cluster (column files read by the Python reader;
    ``None`` when not known): what ties entities of several documents together."""
    tokens: "TokenColumns | None" = field(default=None, repr=False, compare=False)
    """The columns of every token and the sentences, when a reader was asked to keep them
    (heads and parse trees of column files); ``None`` otherwise."""

    @property
    def n_mentions(self) -> int:
        return sum(len(c) for c in self.clusters)


def dedupe(doc: CorefDocument, repeated: str = "first") -> Clusters:
    """The clusters with every mention kept once.

    ``repeated="first"`` keeps the first occurrence (clusters in order, mentions in order
    within a cluster) and drops later ones, like the CoNLL-2012 reference scorer;
    ``repeated="error"`` raises :class:`InputError` naming the repeated mention.
    Clusters that become empty are dropped.
    """
    if repeated not in ("first", "error"):
        raise ValueError(f"repeated must be 'first' or 'error', not {repeated!r}")
    if doc.repeats is False or (doc.repeats is None and
                                len(set().union(*doc.clusters)) == sum(map(len, doc.clusters))):
        return [c for c in doc.clusters if c]
    seen: set = set()
    out: Clusters = []
    for cluster in doc.clusters:
        kept = []
        for m in cluster:
            if m in seen:
                if repeated == "error":
                    raise InputError(f"mention {m!r} is repeated", doc.source_file,
                                     doc.mention_lines.get(m, doc.source_line), doc.id, unit="document")
                continue
            seen.add(m)
            kept.append(m)
        if kept:
            out.append(kept)
    return out


def prepare(doc: CorefDocument, keep_singletons: bool = True, repeated: str = "first",
            remove_nested: bool = False) -> Clusters:
    """Clusters ready for scoring: deduplicated, singletons removed unless kept, then
    (``remove_nested``) nested coreferent mentions removed as coval does."""
    clusters = dedupe(doc, repeated)
    if not keep_singletons:
        clusters = [c for c in clusters if len(c) > 1]
    if remove_nested:
        clusters = remove_nested_mentions(clusters, keep_singletons)
    return clusters


def remove_nested_mentions(clusters: Clusters, keep_singletons: bool = True) -> Clusters:
    """coval's ``remove_nested``: in each cluster, a token span (:class:`Span`) inside
    another span of the same cluster is removed (once for every span holding it, as
    coval counts).  When that would leave one mention of a cluster of several, coval
    drops the cluster if singletons are removed, and otherwise keeps the cluster
    *unchanged*; mrkit does the same.  Mentions that are not spans are left alone."""
    out: Clusters = []
    for c in clusters:
        removed = []
        for i, a in enumerate(c):
            if not isinstance(a, Span):
                continue
            for b in c[i + 1:]:
                if not isinstance(b, Span) or a == b:
                    continue
                if b.first <= a.first and a.last <= b.last:
                    removed.append(a)
                elif a.first <= b.first and b.last <= a.last:
                    removed.append(b)
        if len(c) != 1 and len(c) - len(removed) == 1:
            if keep_singletons:
                out.append(c)
            continue
        gone = set(removed)
        out.append([m for m in c if m not in gone])
    return out


def pair_documents(keys: Sequence[CorefDocument], responses: Sequence[CorefDocument],
                   response_file: str | None = None) -> list[tuple[CorefDocument, CorefDocument]]:
    """Pair key and response documents by id (key order); ids must match exactly."""
    by_id: dict[str, CorefDocument] = {}
    for d in responses:
        if d.id in by_id:
            raise InputError("document id appears twice", d.source_file, d.source_line, d.id, unit="document")
        by_id[d.id] = d
    pairs = []
    seen: set[str] = set()
    for k in keys:
        if k.id in seen:
            raise InputError("document id appears twice", k.source_file, k.source_line, k.id, unit="document")
        seen.add(k.id)
        r = by_id.get(k.id)
        if r is None:
            raise InputError("document of the key is missing from the response",
                             response_file or (responses[0].source_file if responses else None), None,
                             k.id, unit="document")
        pairs.append((k, r))
    for d in responses:
        if d.id not in seen:
            raise InputError("document of the response is not in the key", d.source_file, d.source_line,
                             d.id, unit="document")
    return pairs
