"""coval's NP-only and minimum-span (MINA) evaluation, from the key's parse column.

coval (Moosavi et al.; ``coval/conll/reader.py`` ``extract_annotated_parse`` and
``set_annotated_parse_trees``, ``coval/conll/mention.py`` ``set_min_span``) reads, for
every mention of the key *and* of the response, the tree of the mention's own tokens
from the CoNLL-2012 parse bits of the *key* file (word column 3, POS column 4, parse
column 5), and then

* **NP-only** drops every mention whose tree is a ``VP``; a cluster that loses a mention
  keeps the others if at least two are left, and is dropped otherwise;
* **minimum span** replaces a mention by its minimum span (MINA, Moosavi et al. 2019):
  the shallowest content words of its tree (no punctuation, brackets, and no word tagged
  CC, DT or IN), searched in the top-level NPs (or VPs) separately; two mentions of a
  sentence match when their minimum spans are the same words at the same positions.

The tree is coval's, not a full parse tree: CoNLL parse bits do not bracket single words,
so the words that sit directly under one constituent, side by side, make one terminal
(``the big dog`` in ``(NP the big dog)``), and a minimum span is made of such terminals.
mrkit builds the same trees and applies the same rules (:func:`mention_tree`,
:func:`min_span`), so that scores equal coval's.  Two differences, on purpose: a mention
repeated in a file is kept once (the reference scorer's rule, as everywhere in mrkit),
and two mentions of one side that get the same minimum span count once.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError
from ...model.clusters import Clusters, CorefDocument, Span

WORD, POS, PARSE = 3, 4, 5
"""coval's columns: word, part of speech, parse bit."""

_NP_TAGS = ("NP", "NM", "QP", "NX")
_VP_TAGS = ("VP",)


class Node:
    """A node of coval's mention tree: a constituent (``tag``), or a terminal whose
    ``tag`` is its words joined by spaces, ``pos`` their parts of speech."""

    __slots__ = ("tag", "pos", "index", "terminal", "children", "span")

    def __init__(self, tag: str, pos, index: int, terminal: bool, span: tuple[int, int] | None = None) -> None:
        self.tag, self.pos, self.index, self.terminal = tag, pos, index, terminal
        self.children: list[Node] = []
        self.span = span
        """A terminal's first and last word (positions in the sentence); coval's
        ``index`` is where the terminal was closed, which is not always its last word."""

    def __repr__(self) -> str:
        inner = " ".join(map(repr, self.children))
        return f"{self.tag!r}@{self.index}" if self.terminal else f"({self.tag} {inner})"


@dataclass(frozen=True)
class MinSpan:
    """A mention compared by its minimum span: sentence and (words, position) pairs."""

    sentence: int
    words: frozenset

    def __repr__(self) -> str:
        shown = " ".join(w for w, _ in sorted(self.words, key=lambda e: e[1]))
        return f"min-span {self.sentence}:{shown!r}"


def _has_content(words: list[str]) -> bool:
    return any(w.isalpha() for w in words) or any(w.isdigit() for w in words)


def mention_tree(rows: list[tuple[str, str, str]], start: int) -> Node | None:
    """coval's tree of a mention from its tokens' (word, POS, parse bit) rows; ``start``:
    the position of its first token in its sentence (terminals are numbered from it)."""
    open_: list[Node] = []
    started = False
    name: list[str] = []
    words: list[str] = []
    tags: list[str] = []
    where: list[int] = []
    root = None
    roots: list[Node] = []
    last = len(rows) - 1

    def put_terminal(index: int) -> None:
        node = Node(" ".join(words), tags, index, True, (where[0], where[-1]))
        if open_:
            open_[-1].children.append(node)
        else:
            open_.append(node)

    for i, (word, pos, bits) in enumerate(rows):
        index = start + i
        for j, c in enumerate(bits):
            if c == "(":
                if started:
                    node = Node("".join(name), tags, index, False)
                    if open_:
                        open_[-1].children.append(node)
                    open_.append(node)
                    name = []
                if words:
                    if _has_content(words):  # commas, quotes, brackets are skipped here
                        put_terminal(index)
                    words, tags, where = [], [], []
                started = True
            elif c == "*":
                words.append(word)
                tags.append(pos)
                where.append(index)
                node = Node("".join(name), None, index, False)
                if started:
                    if open_:
                        open_[-1].children.append(node)
                    open_.append(node)
                    name = []
                    started = False
                elif name:
                    roots.append(node)
            elif c == ")":
                if words:
                    put_terminal(index)
                    words, tags, where = [], [], []
                if open_:
                    root = open_.pop()
                    if not open_:
                        roots.append(root)
                started = False
            elif c.isalpha():
                name.append(c)
            if i == last and j == len(bits) - 1 and words:
                put_terminal(index)
                words, tags, where = [], [], []
    while open_:  # constituents that go on beyond the mention
        root = open_.pop()
        if not open_:
            roots.append(root)
    if len(roots) > 1:
        top = Node("NP", None, start, False)
        top.children = roots
        return top
    return root


def _valid_terminal(tag: str, pos) -> bool:
    """coval's content terminal: letters, digits or '%', not a bracket, not CC/DT/IN."""
    parts = tag.split()
    if len(parts) == 1:
        return ((any(c.isalpha() for c in tag) or any(c.isdigit() for c in tag) or tag == "%")
                and tag not in ("-LRB-", "-RRB-") and pos[0] not in ("CC", "DT", "IN"))
    return any(_valid_terminal(t, [pos[i]]) for i, t in enumerate(parts))


def _valid_tags(root: Node):
    head = root.tag[0:2]
    if head == "VP":
        return _VP_TAGS
    if head in ("NP", "NM"):
        return _NP_TAGS
    if root.children:
        below = [n.tag[0:2] for n in root.children]
        if "NP" in below or "NM" in below:
            return _NP_TAGS
        if "VP" in below:
            return _VP_TAGS
        return _NP_TAGS
    return None


def _search(root: Node, tags, found: set, fixed: bool, nodes: dict) -> None:
    """Breadth-first search for the shallowest content terminals below ``root`` through
    constituents of ``tags`` (``fixed=False``: ``tags`` is taken from the first NP or VP
    met, coval's search when no top-level phrase qualifies)."""
    shortest = float("inf")
    queue = [(root, 0)]
    while queue:
        node, depth = queue.pop(0)
        if not fixed and not tags:
            if node.tag[0:2] in ("NP", "NM"):
                tags = _NP_TAGS
            elif node.tag[0:2] == "VP":
                tags = _VP_TAGS
        if node.terminal and depth <= shortest:
            if _valid_terminal(node.tag, node.pos):
                found.add((node.tag, node.index))
                nodes[(node.tag, node.index)] = node
                shortest = min(shortest, depth)
        elif ((not found or depth < shortest) and node.children
              and (depth == 0 or not tags or node.tag[0:2] in tags)):
            for child in node.children:
                if not child.terminal or (tags and node.tag[0:2] in tags):
                    queue.append((child, depth + 1))


def min_span(root: Node | None, words: list[str], nodes: dict | None = None) -> set | None:
    """coval's minimum span of a mention's tree: a set of (terminal words, position);
    ``None`` without a tree (the mention then keeps its bounds).  ``nodes``, when given,
    receives the terminal node of every element (none for the whole-mention fallback)."""
    if root is None:
        return None
    nodes = {} if nodes is None else nodes
    found: set = set()
    tags = _valid_tags(root)
    top: list[Node] = []
    if root.terminal and _valid_terminal(root.tag, root.pos):
        found.add((root.tag, root.index))
        nodes[(root.tag, root.index)] = root
    elif root.children:
        for node in root.children:
            if node.terminal and _valid_terminal(node.tag, node.pos):
                found.add((node.tag, node.index))
                nodes[(node.tag, node.index)] = node
        if not found:
            top = [n for n in root.children if n.children and n.tag[0:2] in tags]
    if found:
        return found
    if top:  # in conjunctions, each top-level phrase has its own minimum span
        for node in top:
            _search(node, tags, found, True, nodes)
    else:
        _search(root, None, found, False, nodes)
    if not found:  # no content word (a parsing error): the whole mention, positions from 0
        found.update((w, i) for i, w in enumerate(words))
    return found


def min_span_region(trees: "ParseTrees", mention: Span) -> tuple[int, int]:
    """The document tokens from the first to the last word of a mention's minimum span
    (the whole mention when it has none): the "head" of ``--heads minspan``."""
    nodes: dict = {}
    found = min_span(trees.tree(mention), trees.words(mention), nodes)
    if not found or not nodes:
        return mention.first, mention.last
    sentence_start = mention.first - trees.locate(mention)[1]
    lo = min(n.span[0] for n in nodes.values())
    hi = max(n.span[1] for n in nodes.values())
    return sentence_start + lo, sentence_start + hi


class ParseTrees:
    """The key document's sentences, to read the tree of any span of its tokens."""

    def __init__(self, doc: CorefDocument) -> None:
        if doc.tokens is None:
            raise InputError("parse trees need a column file read with its columns", doc.source_file,
                             doc.source_line, doc.id, unit="document")
        self.doc = doc
        self.tokens = doc.tokens

    def _row(self, t: int) -> tuple[str, str, str]:
        cols = self.tokens.columns[t]
        if len(cols) <= PARSE + 1:  # the last column is the coreference
            raise InputError(f"no parse column {PARSE} (the line has {len(cols)} columns; NP-only and minimum "
                             "spans read the CoNLL-2012 parse bits of the key)", self.doc.source_file,
                             self.tokens.lines[t], self.doc.id, unit="document")
        return cols[WORD], cols[POS], cols[PARSE]

    def locate(self, mention: Span) -> tuple[int, int]:
        """(sentence, position of the first token in it) of a span of the document."""
        if mention.last >= len(self.tokens.columns):
            raise InputError(f"mention {mention!r} lies beyond the key's {len(self.tokens.columns)} tokens",
                             self.doc.source_file, self.doc.source_line, self.doc.id, unit="document")
        sentence = self.tokens.sentence_of(mention.first)
        return sentence, mention.first - self.tokens.sentence_starts[sentence]

    def tree(self, mention: Span) -> Node | None:
        _, start = self.locate(mention)
        return mention_tree([self._row(t) for t in range(mention.first, mention.last + 1)], start)

    def words(self, mention: Span) -> list[str]:
        return [self.tokens.columns[t][WORD] if len(self.tokens.columns[t]) > WORD + 1 else ""
                for t in range(mention.first, mention.last + 1)]


def apply_parse_options(clusters: Clusters, trees: ParseTrees, np_only: bool = False,
                        min_spans: bool = False) -> Clusters:
    """coval's ``set_annotated_parse_trees`` on one side's clusters: NP-only pruning,
    then mentions replaced by their :class:`MinSpan` (``min_spans``)."""
    out: Clusters = []
    seen: set = set()
    for cluster in clusters:
        kept = []
        pruned = False
        for m in cluster:
            if not isinstance(m, Span):
                kept.append(m)
                continue
            tree = trees.tree(m)
            if np_only and tree is not None and tree.tag == "VP":
                pruned = True
                continue
            if min_spans:
                found = min_span(tree, trees.words(m))
                if found is not None:
                    m = MinSpan(trees.locate(m)[0], frozenset(found))
            kept.append(m)
        if pruned and len(kept) <= 1:
            continue  # coval: a pruned cluster of one mention is dropped
        kept = [m for m in kept if not (m in seen or seen.add(m))]
        if kept:
            out.append(kept)
    return out
