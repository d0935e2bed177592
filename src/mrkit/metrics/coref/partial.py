"""Partial credit for head matches, as the CoNLL reference scorer's README describes.

The README of the reference scorer (v7.0 onwards, section "Identification of mentions")
counts two kinds of matching response mentions: *strictly correct* ones (the same tokens
as a key mention) and *partially correct* ones (the response mention lies within the
bounds of a key mention and holds that key mention's head token), and gives the second
kind a weight (0.5 in its example) in mention recall and precision.  The code is the
block under "Partial identificaiton" of ``IdentifMentions`` in ``lib/CorScorer.pm``
(commented out in every release); mrkit does what that block does:

1. exact matches first: a key mention with the same span in the response is taken;
2. then every response mention that is not a key mention, in file order (entities in
   order of first appearance, mentions in order of appearance), takes the first key
   mention (same order) that is not taken yet, holds it (``key.first <= first`` and
   ``last <= key.last``) and holds its head (``first <= head <= last``);
3. a response mention so matched *is* that key mention for every metric (the block maps
   it to the key mention's id), and mention identification counts it ``weight``
   instead of 1 in both numerators.

One difference, on purpose: after a match, the block's ``last`` leaves only the loop over
the mentions of one key entity, so the same response mention can be matched again to the
first free mention of a later entity (counted twice, the first key mention left behind).
mrkit matches a response mention once.

Heads (the head token of every key mention):

* ``("columns", ID, HEAD)``: the reference scorer's rule on a dependency tree, from the
  token number column ``ID`` and the head column ``HEAD`` (the scorer's: 0 and 8, the
  SemEval-2010 layout; CoNLL-U: 0 and 6): the first token of the mention whose head lies
  outside the mention's token numbers, else the first token;
* ``"first"`` / ``"last"``: the first or last token of the mention;
* ``"minspan"``: the mention's minimum span (coval's MINA, :mod:`.mina`, from the key's
  CoNLL-2012 parse column) in place of a head token: a response mention must hold it
  whole (its first to its last word) and stay within the key mention.
"""

from __future__ import annotations

from typing import Sequence

from ...errors import InputError
from ...model.clusters import Clusters, CorefDocument, Span

HEAD_MODES = ("columns", "first", "last", "minspan")
DEFAULT_HEAD_COLUMNS = (0, 8)
"""The reference scorer's: ``ID`` is column 0, ``$HEAD_COLUMN = 8``."""


def parse_head_spec(text: str) -> tuple:
    """``first``, ``last``, ``minspan``, ``columns`` (0,8) or ``ID,HEAD`` (column numbers
    from 0)."""
    if text in ("first", "last", "minspan"):
        return (text,)
    if text == "columns":
        return ("columns", *DEFAULT_HEAD_COLUMNS)
    parts = text.split(",")
    if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
        return ("columns", int(parts[0]), int(parts[1]))
    raise ValueError(f"heads must be first, last, minspan, columns or ID,HEAD column numbers (e.g. 0,6), "
                     f"not {text!r}")


def _number(doc: CorefDocument, token: int, column: int, what: str) -> int:
    cols = doc.tokens.columns[token]
    line = doc.tokens.lines[token]
    if column >= len(cols) - 1:  # the last column is the coreference
        raise InputError(f"no {what} column {column} (the line has {len(cols)} columns, the last one coreference)",
                         doc.source_file, line, doc.id, unit="document")
    value = cols[column]
    try:
        return int(value)
    except ValueError:
        raise InputError(f"{what} column {column} holds {value!r}, not a token number", doc.source_file, line,
                         doc.id, unit="document") from None


def mention_heads(doc: CorefDocument, clusters: Clusters, spec: Sequence = ("first",)) -> dict:
    """The head token of every mention of ``clusters`` (spans of ``doc``); with
    ``minspan``, the (first, last) tokens of its minimum span."""
    mode = spec[0]
    if mode == "minspan":
        from .mina import ParseTrees, min_span_region

        trees = ParseTrees(doc)
        return {m: min_span_region(trees, m) for c in clusters for m in c}
    if mode == "first":
        return {m: m.first for c in clusters for m in c}
    if mode == "last":
        return {m: m.last for c in clusters for m in c}
    if mode != "columns":
        raise ValueError(f"unknown head mode {mode!r}")
    if doc.tokens is None:
        raise InputError("heads from columns need a column file read with its columns", doc.source_file,
                         doc.source_line, doc.id, unit="document")
    _, id_col, head_col = spec
    heads = {}
    for c in clusters:
        for m in c:
            first, last = m.first, m.last
            lo, hi = _number(doc, first, id_col, "ID"), _number(doc, last, id_col, "ID")
            head = first
            for t in range(first, last + 1):
                h = _number(doc, t, head_col, "HEAD")
                if h < lo or h > hi:
                    head = t
                    break
            heads[m] = head
    return heads


def match_partial(key: Clusters, response: Clusters, heads: dict) -> tuple[Clusters, int]:
    """The response clusters with every partially correct mention replaced by the key
    mention it matches, and how many there are (see the module's rules).  ``heads``:
    key mention -> head token, or (first, last) tokens that must be held whole."""
    key_order: dict = {}
    by_head: dict[int, list] = {}
    last_of: dict = {}
    for c in key:
        for m in c:
            if m not in key_order:
                key_order[m] = len(key_order)
                h = heads[m]
                lo, hi = (h, h) if isinstance(h, int) else h
                last_of[m] = hi
                by_head.setdefault(lo, []).append(m)
    taken = {m for c in response for m in c if m in key_order}
    part = 0
    out: Clusters = []
    for c in response:
        new = []
        for r in c:
            if r not in key_order and isinstance(r, Span):
                first, last = r.first, r.last
                best = None
                for t in range(first, last + 1):
                    for k in by_head.get(t, ()):
                        if k not in taken and k.first <= first and last <= k.last and last_of[k] <= last and (
                                best is None or key_order[k] < key_order[best]):
                            best = k
                if best is not None:
                    taken.add(best)
                    part += 1
                    r = best
            new.append(r)
        out.append(new)
    return out, part
