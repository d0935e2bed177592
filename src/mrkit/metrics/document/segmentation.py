"""Document Smatch when the system segments the text into other sentences than the gold.

The sentence constraint of document Smatch pairs sentence *k* of the system with
sentence *k* of the gold; a system that splits or joins sentences differently cannot be
scored that way (nor by any other tool).  Here the system's sentences are aligned to the
gold's by their text: each side's sentence texts (the document graph's ``# ::snt`` or
``# ::tok``, sentences separated by ``<next_sent>``, as ``mrkit docamr build`` and IBM's
docAMR write them) are joined into one character stream without white space (case
folded); when the two streams are equal the sentences overlap where their character
ranges do, otherwise the streams are aligned with :class:`difflib.SequenceMatcher` and a
system sentence overlaps the gold sentences its matched characters fall in.

A system node may then be aligned to any gold node of a gold sentence that one of its
system sentences overlaps: the system graph's provenance is rewritten into gold sentence
numbers and the usual constraint applies.  A system sentence that overlaps no gold
sentence gets a sentence number of its own, which no gold node has.

The text must hold exactly the graph's sentences (:func:`sentence_texts`): text sentence
*k* is the text of ``:snt<k>``, so a text with fewer or more sentences than the graph's
highest ``:sntN`` (or sentence named by a node's provenance) is an input error, as
``mrkit docamr build`` and IBM's docAMR write one ``:sntN`` and one text per sentence.
When the two sides' texts are the same sentence for sentence (white space and case
aside), sentence *k* goes to sentence *k*, so a file scores 1.0 against itself even when
a sentence's text is empty (``mrkit docamr build`` writes an empty text for a sentence
graph without ``# ::tok`` / ``# ::snt``); otherwise a sentence of the graph with an empty
text cannot be placed by its text, and is an input error.
"""

from __future__ import annotations

import bisect
from difflib import SequenceMatcher

from ...errors import InputError
from ...features.provenance import sentence_roots
from ...model.graph import Graph

SEPARATOR = "<next_sent>"


def _text_key(g: Graph) -> str:
    return "snt" if g.metadata.get("snt") else "tok"


def graph_sentences(g: Graph) -> set[int]:
    """The sentences (0-based) a document graph has: its ``:sntN`` roles and every
    sentence a node's provenance names."""
    out = set(sentence_roots(g) or ())
    for n in g.nodes.values():
        out |= n.provenance
    return out


def sentence_texts(g: Graph) -> list[str]:
    """The sentence texts of a document graph (``# ::snt`` / ``# ::tok`` split at
    ``<next_sent>``), one for each of its sentences (else an input error)."""
    text = g.metadata.get("snt") or g.metadata.get("tok")
    if not text:
        raise InputError("cannot align sentences by text: the graph has no '# ::snt' or '# ::tok' line",
                         g.source_file, g.source_line, g.id)
    texts = [t.strip() for t in text.split(SEPARATOR)]
    have = graph_sentences(g)
    if have and max(have) + 1 != len(texts):
        n, m = len(texts), max(have) + 1
        raise InputError(f"cannot align sentences by text: the '# ::{_text_key(g)}' line holds {n} "
                         f"sentence{'s' if n != 1 else ''} (split at {SEPARATOR}) but the graph has "
                         f"{m} (:snt1 to :snt{m})", g.source_file, g.source_line, g.id)
    return texts


def _check_no_empty(g: Graph, texts: list[str]) -> None:
    for k in sorted(graph_sentences(g)):
        if not _squeeze(texts[k]):
            raise InputError(f"cannot align sentences by text: sentence {k + 1} (:snt{k + 1}) has no text "
                             f"in the '# ::{_text_key(g)}' line", g.source_file, g.source_line, g.id)


def align_graphs(gold: Graph, system: Graph) -> tuple[list[list[int]], int]:
    """For every sentence of the system's text (0-based), the gold sentences it overlaps
    (:func:`align_sentences` on the two document graphs' texts, checked as the module doc
    says), and the number of gold text sentences."""
    gold_texts, system_texts = sentence_texts(gold), sentence_texts(system)
    if [_squeeze(t) for t in gold_texts] == [_squeeze(t) for t in system_texts]:
        return [[k] for k in range(len(system_texts))], len(gold_texts)
    _check_no_empty(gold, gold_texts)
    _check_no_empty(system, system_texts)
    return align_sentences(gold_texts, system_texts), len(gold_texts)


def _squeeze(t: str) -> str:
    return "".join(t.split()).casefold()


def _stream(texts: list[str]) -> tuple[str, list[int]]:
    chars, starts = [], []
    n = 0
    for t in texts:
        starts.append(n)
        s = _squeeze(t)
        chars.append(s)
        n += len(s)
    return "".join(chars), starts


def align_sentences(gold_texts: list[str], system_texts: list[str]) -> list[list[int]]:
    """For every system sentence (0-based), the gold sentences (0-based) it overlaps."""
    gs, gstart = _stream(gold_texts)
    ss, sstart = _stream(system_texts)
    send = sstart[1:] + [len(ss)]
    out: list[list[int]] = []
    if gs == ss:
        gend = gstart[1:] + [len(gs)]
        for a, b in zip(sstart, send):
            out.append([k for k, (c, d) in enumerate(zip(gstart, gend)) if c < b and a < d and d > c])
        return out
    # character map system -> gold through the matching blocks
    sm = SequenceMatcher(None, gs, ss, autojunk=False)
    hits: list[set[int]] = [set() for _ in system_texts]
    for gi, si, size in sm.get_matching_blocks():
        if not size:
            continue
        # the block covers system chars si..si+size-1 and gold chars gi..gi+size-1
        k = bisect.bisect_right(sstart, si) - 1
        pos = si
        while pos < si + size:
            while k + 1 < len(sstart) and sstart[k + 1] <= pos:
                k += 1
            stop = min(si + size, send[k])
            g0 = gi + (pos - si)
            g1 = gi + (stop - 1 - si)
            first = bisect.bisect_right(gstart, g0) - 1
            last = bisect.bisect_right(gstart, g1) - 1
            hits[k].update(range(first, last + 1))
            pos = stop if stop > pos else pos + 1
    return [sorted(h) for h in hits]


def regroup(system: Graph, alignment: list[list[int]], n_gold: int) -> Graph:
    """A copy of ``system`` whose provenance is in gold sentence numbers."""
    out = system.copy()
    for v, n in out.nodes.items():
        if n.provenance:
            new: set[int] = set()
            for k in n.provenance:
                if 0 <= k < len(alignment) and alignment[k]:
                    new.update(alignment[k])
                else:
                    new.add(n_gold + 1 + k)  # overlaps no gold sentence: a number of its own
            n.provenance = frozenset(new)
    return out
