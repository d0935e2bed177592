"""The engine kernel's work memory (align/_arena.h) and the coder's (code_graph's work of
_triples.c) are taken again pair after pair of a chunk: a chunk's results must not depend
on which pairs came before.  Chunks of small, large and mixed pairs in several orders
are checked against each pair coded and staged on its own (a fresh work memory per call)."""

from __future__ import annotations

import math
import random
from array import array

import pytest

from mrkit.align import _kernel
from mrkit.features import _triples
from mrkit.model.inverted_roles import NON_INVERTED_OF

KEEP = tuple(sorted(NON_INVERTED_OF))
STAGE = (3e8, 4, 0)


def _graph(rng: random.Random, n: int, concepts: int, roles: int) -> str:
    """A PENMAN graph of n variables: a random tree written depth first, a few reentrancies
    and attributes (small vocabularies, so that gold and system share labels)."""
    children: dict[int, list[int]] = {i: [] for i in range(n)}
    for i in range(1, n):
        children[rng.randrange(i)].append(i)
    extra = [(rng.randrange(n), rng.randrange(n)) for _ in range(n // 3)]

    def node(i: int) -> str:
        parts = [f"(v{i} / c{rng.randrange(concepts)}"]
        for j in children[i]:
            parts.append(f" :r{rng.randrange(roles)} {node(j)}")
        for a, b in extra:
            if a == i:
                parts.append(f" :r{rng.randrange(roles)} v{b}")
        if rng.random() < 0.3:
            parts.append(f' :polarity -' if rng.random() < 0.5 else f' :value "{rng.randrange(5)}"')
        return "".join(parts) + ")"

    return node(0)


def _pairs(seed: int, sizes: list[int]) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [(_graph(rng, n, 6, 4), _graph(rng, max(1, n + rng.randrange(-2, 3)), 6, 4)) for n in sizes]


def _units_of(texts: list[str]) -> tuple[bytes, bytes]:
    buf, units, line = bytearray(), array("q"), 1
    for t in texts:
        raw = t.encode()
        units.extend((len(buf), len(buf) + len(raw), line))
        buf += raw + b"\n\n"
        line += t.count("\n") + 2
    return bytes(buf), units.tobytes()


def _alone(pairs):
    """Per pair, coded and staged by the one-pair calls: (codes, score or None)."""
    out = []
    for g, s in pairs:
        c = _triples.code_pair(g, s, KEEP)
        assert c is not None
        out.append((bytes(c[3]), _kernel.smatch_stage(c[3], *STAGE)))
    return out


ORDERS = {
    "growing": lambda sizes: sorted(sizes),
    "shrinking": lambda sizes: sorted(sizes, reverse=True),
    "alternating": lambda sizes: [x for pair in zip(sorted(sizes)[: len(sizes) // 2],
                                                    sorted(sizes, reverse=True)) for x in pair],
}


@pytest.mark.parametrize("order", sorted(ORDERS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_chunk_scores_each_pair_as_alone(order, seed):
    sizes = ORDERS[order]([1, 2, 3, 5, 8, 12, 18, 25, 30, 4, 9, 16, 22, 2, 1, 28])
    pairs = _pairs(seed, sizes)
    alone = _alone(pairs)
    gbuf, gunits = _units_of([g for g, _ in pairs])
    sbuf, sunits = _units_of([s for _, s in pairs])
    ids, counts, codes, offsets, refused = _triples.code_pairs_units(gbuf, 0, gunits, sbuf, 0, sunits, KEEP, 0)
    assert refused == [] or not refused
    off = array("q")
    off.frombytes(offsets)
    raw = memoryview(codes).cast("B")
    for k, (c, _) in enumerate(alone):
        assert bytes(raw[8 * off[k]:8 * off[k + 1]]) == c, k
    scores = array("d")
    scores.frombytes(_kernel.smatch_stages(codes, offsets, *STAGE))
    for k, (_, want) in enumerate(alone):
        if want is None:
            assert math.isnan(scores[k]), k
        else:
            assert scores[k] == want, k
    # the same chunk again, in reverse: the same per-pair results
    rev = pairs[::-1]
    gbuf, gunits = _units_of([g for g, _ in rev])
    sbuf, sunits = _units_of([s for _, s in rev])
    _, _, codes2, offsets2, _ = _triples.code_pairs_units(gbuf, 0, gunits, sbuf, 0, sunits, KEEP, 0)
    again = array("d")
    again.frombytes(_kernel.smatch_stages(codes2, offsets2, *STAGE))
    assert [x if x == x else None for x in again] == [x if x == x else None for x in scores][::-1]


def test_identical_graphs_score_their_triples():
    """A graph against itself is certified at its number of triples, after pairs of other
    sizes in the same chunk (what a stale work array would spoil first)."""
    pairs = _pairs(7, [30, 1, 20, 3])
    pairs = [(g, s) for g, s in pairs] + [(g, g) for g, _ in pairs]
    gbuf, gunits = _units_of([g for g, _ in pairs])
    sbuf, sunits = _units_of([s for _, s in pairs])
    ids, counts, codes, offsets, refused = _triples.code_pairs_units(gbuf, 0, gunits, sbuf, 0, sunits, KEEP, 0)
    n = len(pairs)
    cnt = array("q")
    cnt.frombytes(counts)
    scores = array("d")
    scores.frombytes(_kernel.smatch_stages(codes, offsets, *STAGE))
    for k in range(4, 8):
        assert cnt[k] == cnt[n + k]
        assert scores[k] == cnt[k]
