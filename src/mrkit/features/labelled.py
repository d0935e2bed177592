"""A node-labelled view of an AMR graph, shared by the alignment-free metrics.

SemBLEU, WLK, WWLK and SIMPLE do not align variables: they compare labels.  They all
read a graph as :class:`LabelledGraph`, built from the Smatch triples of
:mod:`mrkit.model.amr` (so inverted roles are un-inverted the one correct way, labels are
lower-cased, constants lose their quotes, duplicate triples count once):

* one node per variable, labelled with its concept;
* one node per attribute value (``:polarity -`` gives a node ``-``), reached by an edge
  labelled with the attribute's role;
* one edge per relation triple, in its normal direction.

Variable names never appear, so every metric built on this view is invariant to
variable renaming.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.amr import NON_INVERTED_OF
from .triples import Triples, triples
TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (start-up, issue 14)
    from ..model.graph import Graph


@dataclass
class LabelledGraph:
    """A graph as node labels and labelled edges between label indices."""

    labels: list[str]
    """Node labels: concepts of the variables first, then attribute values."""
    edges: list[tuple[int, str, int]] = field(default_factory=list)
    """(source, role, target), roles without colon, in normal direction."""
    n_variables: int = 0
    tops: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.labels)

    def out_edges(self) -> list[list[tuple[str, int]]]:
        out: list[list[tuple[str, int]]] = [[] for _ in self.labels]
        for s, r, t in self.edges:
            out[s].append((r, t))
        return out

    def in_edges(self) -> list[list[tuple[str, int]]]:
        inc: list[list[tuple[str, int]]] = [[] for _ in self.labels]
        for s, r, t in self.edges:
            inc[t].append((r, s))
        return inc


def labelled_graph(graph: Graph, keep: frozenset[str] = NON_INVERTED_OF) -> LabelledGraph:
    """The labelled view of a graph (see the module docstring)."""
    return labelled_from_triples(triples(graph, keep))


def labelled_from_triples(t: Triples) -> LabelledGraph:
    """The labelled view of a graph's Smatch triples (:func:`labelled_graph` is this of
    ``triples(graph, keep)``)."""
    n = len(t.variables)
    labels = [""] * n
    for i, concept in t.instances:
        labels[i] = concept
    edges = list(t.relations)
    for i, role, value in t.attributes:
        labels.append(value)
        edges.append((i, role, len(labels) - 1))
    return LabelledGraph(labels, edges, n, list(t.tops))


def labelled_graphs(graphs, keep: frozenset[str] = NON_INVERTED_OF) -> list[LabelledGraph]:
    return [labelled_graph(g, keep) for g in graphs]


def check_pairs(golds, systems) -> None:
    """Raise :class:`mrkit.errors.InputError` when the two lists differ in length."""
    from ..errors import InputError

    if len(golds) != len(systems):
        raise InputError(f"gold has {len(golds)} graphs but system has {len(systems)}")


def to_levi(lg: LabelledGraph, edge_label: str = "edge") -> LabelledGraph:
    """The Levi graph: every labelled edge ``s -r-> t`` becomes a node labelled ``r``
    with edges ``s -edge-> n -edge-> t`` (the ``e2n`` transform of WLK / WWLK)."""
    labels = list(lg.labels)
    edges: list[tuple[int, str, int]] = []
    for s, r, t in lg.edges:
        labels.append(r)
        k = len(labels) - 1
        edges.append((s, edge_label, k))
        edges.append((k, edge_label, t))
    return LabelledGraph(labels, edges, lg.n_variables, list(lg.tops))
