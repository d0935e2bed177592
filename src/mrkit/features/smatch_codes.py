"""Two graphs' Smatch triples as the integer codes the compiled stage reads
(:func:`mrkit.align._kernel.mapped_stage`, the layout of ``smatch_stage``), without numpy.

The codes describe the alignment problem :func:`mrkit.align.problem.build_problem` builds from
:func:`mrkit.metrics.amr.smatch.smatch_features`: per node the sorted codes of its unary
features (instance, attributes, top; a feature shared by both graphs has one code), and the
relation edges of each graph in order, their labels numbered by first appearance over the
gold then the system edges (the label ids ``build_problem`` gives them).

Layout (int64): ``nA, nB, nEa, nEb, nFa, nFb``, the gold nodes' feature offsets (``nA + 1``),
their feature codes (``nFa``), the same for the system (``nB + 1``, ``nFb``), then
``(source, target, label)`` of every gold edge and of every system edge.
"""

from __future__ import annotations

from array import array

from .triples import Triples


def _node_features(t: Triples, codes: dict) -> list[list[int]]:
    feats: list[list[int]] = [[] for _ in t.variables]
    for i, concept in t.instances:
        feats[i].append(codes.setdefault(("instance", concept), len(codes)))
    for i, role, value in t.attributes:
        feats[i].append(codes.setdefault(("attr", role, value), len(codes)))
    for i in t.tops:
        feats[i].append(codes.setdefault(("top",), len(codes)))
    return feats


def smatch_codes(ta: Triples, tb: Triples) -> bytes:
    """The integer codes of the Smatch problem of gold ``ta`` and system ``tb``."""
    codes: dict = {}
    fa, fb = _node_features(ta, codes), _node_features(tb, codes)
    labels: dict = {}
    edges = []
    for t in (ta, tb):
        seen = dict.fromkeys(t.relations)  # duplicates removed, order kept (as build_problem)
        edges.append([(s, o, labels.setdefault(r, len(labels))) for s, r, o in seen])
    out = array("q", (len(fa), len(fb), len(edges[0]), len(edges[1]),
                      sum(map(len, fa)), sum(map(len, fb))))
    for feats in (fa, fb):
        offset = 0
        out.append(0)
        for f in feats:
            offset += len(f)
            out.append(offset)
        for f in feats:
            out.extend(sorted(f))
    for es in edges:
        for e in es:
            out.extend(e)
    return out.tobytes()
