"""What the fine-grained AMR subscores count (Damonte et al. 2017, amr-evaluation).

Pure functions over a :class:`~mrkit.model.graph.Graph` or its Smatch
:class:`~mrkit.features.triples.Triples`; :mod:`mrkit.metrics.amr.subscores` scores them.
One line per subscore, as amr-evaluation (``evaluation.sh``, ``scores.py``, ``utils.py``)
defines it:

* **Unlabeled** -- Smatch after every role is renamed ``label`` (edges keep the direction
  they are written in, as the script's ``sed`` renames ``:ARG0-of`` before Smatch could
  invert it).
* **No WSD** -- Smatch after the sense of every concept ``x-NN`` is set to ``x-01``.
* **Reentrancies** -- Smatch over the relation triples that enter a node with more than one
  incoming relation, with the instance triples of their nodes and one top triple.
* **SRL** -- Smatch over the ``:ARGn`` triples (relations and attributes), with the instance
  triples of their nodes and one top triple.
* **Concepts** -- multiset F1 of the concepts.
* **Named Ent.** -- multiset F1 of the concepts of the nodes that have a ``:name``.
* **Negations** -- multiset F1 of the concepts of the nodes that have a ``:polarity``.
* **Wikification** -- multiset F1 of the ``:wiki`` values.

Where mrkit departs from the script (each difference is rare; none occurs on the Little
Prince or Bio data of the benchmark):

* No WSD: the script's regex ``s/(\\/ [a-zA-Z0-9\\-][a-zA-Z0-9\\-]*)-[0-9][0-9]*/\\1-01/g``
  works on the text: it needs exactly one space after ``/``, skips concepts with other
  characters (``don't-02``), rewrites the first ``-NN`` even in mid-concept
  (``a-02-b``) and also text inside quoted constants.  mrkit rewrites the final ``-NN`` of
  each concept, whatever the layout.
* Unlabeled: the script's ``sed s/:[a-zA-Z0-9-]*/:label/g`` also rewrites ``:`` inside
  quoted constants (``"12:30"`` becomes ``"12:label"``); mrkit renames roles only.
* Duplicate triples count once (mrkit's Smatch convention), where the script's Smatch
  counts a repeated triple twice (``:day 5 :month 5`` after relabelling).
* ``-of`` roles follow mrkit's Smatch convention (``:consist-of`` is not an inversion; the
  script inverts every ``-of``); roles are compared lower-cased (``:arg0`` is SRL); ``:wiki``
  values are compared without their quotes (the script keeps a marker of quoting).
* The top triple of a Reentrancies/SRL subset sits, as in the script, on the source of the
  first triple of the subset (nodes in reading order); its form follows the ``top`` style
  of the whole score (``(TOP, v, top)`` by default; the script's Smatch writes the
  root's concept, mrkit's ``--top concept``).  As in the script, that makes these two
  subscores depend on the order the nodes are written in: a graph against a reordered
  copy of itself can lose that one top triple.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterator

from ..model.amr import NON_INVERTED_OF, normalize_relation
from ..model.graph import Graph
from .triples import Triples

SUBSCORES = ("unlabeled", "no_wsd", "reentrancies", "srl", "concepts", "named_ent", "negations", "wikification")
"""The eight subscores, in report order (alignment-based first)."""

ALIGNED = ("unlabeled", "no_wsd", "reentrancies", "srl")
"""Subscores computed as Smatch (an optimal alignment); the others are multiset comparisons."""

TITLES = {"unlabeled": "Unlabeled", "no_wsd": "No WSD", "reentrancies": "Reentrancies", "srl": "SRL",
          "concepts": "Concepts", "named_ent": "Named Ent.", "negations": "Negations",
          "wikification": "Wikification"}
"""The names amr-evaluation prints."""

DEFINITIONS = {
    "unlabeled": "Smatch with every role renamed 'label' (edges as written, not inverted)",
    "no_wsd": "Smatch with every concept sense -NN set to -01",
    "reentrancies": "Smatch over the relations entering a node with >1 incoming relations (+ their nodes' instances, one top)",
    "srl": "Smatch over the :ARGn relations and attributes (+ their nodes' instances, one top)",
    "concepts": "multiset F1 of the concepts",
    "named_ent": "multiset F1 of the concepts of nodes with a :name",
    "negations": "multiset F1 of the concepts of nodes with a :polarity",
    "wikification": "multiset F1 of the :wiki values",
}

LABEL = "label"
"""The one role of the Unlabeled graphs."""

_SENSE = re.compile(r"-\d+$")


# ------------------------------------------------------------------ relabelled graphs

def unlabeled(graph: Graph) -> Triples:
    """The Smatch triples of ``graph`` with every role renamed ``label``: relations as
    written (an ``:ARG0-of`` edge keeps its written direction), attributes
    ``(v, label, value)``; concepts and tops as in :func:`~mrkit.features.triples.triples`."""
    variables = list(graph.nodes)
    index = {v: i for i, v in enumerate(variables)}
    t = Triples(variables)
    seen_attr: set[tuple[int, str, str]] = set()
    for i, node in enumerate(graph.nodes.values()):
        if node.label is not None:
            t.instances.append((i, node.label.lower()))
        for p in node.properties:
            a = (i, LABEL, p.value.lower())
            if a not in seen_attr:
                seen_attr.add(a)
                t.attributes.append(a)
    seen_rel: set[tuple[int, str, int]] = set()
    for e in graph.edges:
        rel = (index[e.source], LABEL, index[e.target])
        if rel not in seen_rel:
            seen_rel.add(rel)
            t.relations.append(rel)
    seen_top: set[int] = set()
    for top in graph.tops:
        if top in index and index[top] not in seen_top:
            seen_top.add(index[top])
            t.tops.append(index[top])
    return t


def strip_sense(concept: str) -> str:
    """``want-02`` -> ``want-01``; a concept without a final ``-NN`` is unchanged."""
    return _SENSE.sub("-01", concept)


def no_wsd(t: Triples) -> Triples:
    """``t`` with every concept's sense set to ``-01`` (:func:`strip_sense`)."""
    return Triples(t.variables, [(i, strip_sense(c)) for i, c in t.instances], list(t.attributes),
                   list(t.relations), list(t.tops))


# ------------------------------------------------------------------ triple subsets

def _subset(t: Triples, attributes: list[tuple[int, str, str]], relations: list[tuple[int, str, int]],
            first: int | None) -> Triples:
    """The subset graph: the given triples, the instances of the nodes they touch, and
    one top on ``first`` (none when the subset is empty); nodes renumbered."""
    involved = sorted({i for i, _, _ in attributes} | {i for i, _, _ in relations} | {k for _, _, k in relations})
    new = {old: n for n, old in enumerate(involved)}
    concept = dict(t.instances)
    out = Triples([t.variables[i] for i in involved])
    out.instances = [(new[i], concept[i]) for i in involved if i in concept]
    out.attributes = [(new[i], r, v) for i, r, v in attributes]
    out.relations = [(new[i], r, new[k]) for i, r, k in relations]
    if first is not None:
        out.tops = [new[first]]
    return out


def _holder_first(triples: list[tuple]) -> int | None:
    """The source of the first triple when triples are listed by source node (smatch's
    order of the triples: node by node, in reading order)."""
    return min((tr[0] for tr in triples), default=None)


def reentrant_relations(t: Triples) -> list[tuple[int, str, int]]:
    """The relation triples of ``t`` that enter a node with more than one incoming
    relation (de-inverted, duplicates once): the one definition of a reentrancy, shared by
    the sentence subscore and document Smatch's reentrancy subscore."""
    incoming = Counter(k for _, _, k in t.relations)
    return [rel for rel in t.relations if incoming[rel[2]] > 1]


def reentrancies(t: Triples) -> Triples:
    """The Reentrancies subset of ``t``: every relation entering a node that has more than
    one incoming relation; the top sits on the source of the first of them (the
    first reentrant node's parent read first, as amr-evaluation lists them)."""
    chosen = reentrant_relations(t)
    first = None
    if chosen:
        target = min(k for _, _, k in chosen)
        first = _holder_first([rel for rel in chosen if rel[2] == target])
    return _subset(t, [], chosen, first)


def is_srl(role: str) -> bool:
    """Whether a (lower-case, de-inverted) role is an ``:ARGn`` role."""
    return role.startswith("arg")


def srl(t: Triples) -> Triples:
    """The SRL subset of ``t``: the ``:ARGn`` relations (de-inverted) and attributes; the
    top sits on the source of the first of them (attributes are listed before
    relations, as amr-evaluation lists them)."""
    attrs = [a for a in t.attributes if is_srl(a[1])]
    rels = [rel for rel in t.relations if is_srl(rel[1])]
    first = _holder_first(attrs) if attrs else _holder_first(rels)
    return _subset(t, attrs, rels, first)


# ------------------------------------------------------------------ multisets

def _role_triples(graph: Graph, keep: frozenset[str]) -> Iterator[tuple[str, str, str]]:
    """(role, holder variable, value or variable), de-inverted, roles lower-cased."""
    for var, node in graph.nodes.items():
        for p in node.properties:
            yield p.key.lower().lstrip(":"), var, p.value
    for e in graph.edges:
        s, r, o = normalize_relation(e.source, e.label, e.target, keep)
        yield r, s, o


def concepts(graph: Graph) -> Counter:
    """The concepts of ``graph`` as a multiset (as written: the script compares them
    case-sensitively)."""
    return Counter(node.label for node in graph.nodes.values() if node.label is not None)


def _holders(graph: Graph, role: str, keep: frozenset[str]) -> Counter:
    out: Counter = Counter()
    for r, holder, _ in _role_triples(graph, keep):
        if r == role:
            label = graph.nodes[holder].label
            out[label if label is not None else ""] += 1
    return out


def named_entities(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> Counter:
    """The concepts of the nodes that hold a ``:name`` (one per ``:name`` triple)."""
    return _holders(graph, "name", keep)


def negations(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> Counter:
    """The concepts of the nodes that hold a ``:polarity`` (one per triple)."""
    return _holders(graph, "polarity", keep)


def wikification(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> Counter:
    """The ``:wiki`` values (without quotes) as a multiset."""
    return Counter(o for r, _, o in _role_triples(graph, keep) if r == "wiki")


def multiset_counts(gold: Counter, system: Counter) -> tuple[int, int, int]:
    """(matched, gold, system) of two multisets: matched is the size of their intersection."""
    return sum((gold & system).values()), sum(gold.values()), sum(system.values())
