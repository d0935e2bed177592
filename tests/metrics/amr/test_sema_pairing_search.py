"""mrkit.metrics.amr.sema_pairing.most_carried: the largest node pairing carried by a one-to-one pairing
of same-key edges, against a brute force written here (every pairing of the edges, every
matching of the node pairs they carry), and its search against its integer program."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.metrics.amr.sema_pairing import most_carried


def brute_force(gold, system) -> int:
    """Every one-to-one pairing of same-key edges (maximal or not), and for each every
    matching of the node pairs it carries: the most node pairs."""
    seen: dict = {}

    def pairings(i: int, used: frozenset):
        if i == len(gold):
            yield []
            return
        for rest in pairings(i + 1, used):  # gold edge i unpaired
            yield rest
        for j, s in enumerate(system):
            if j not in used and s[0] == gold[i][0]:
                for rest in pairings(i + 1, used | {j}):
                    yield [(i, j)] + rest

    def matching(pairs: tuple, used_v: frozenset) -> int:  # pairs sorted by gold node
        if not pairs:
            return 0
        u = pairs[0][0]
        rest = tuple(p for p in pairs if p[0] != u)
        best = matching(rest, used_v)  # u unpaired
        for _, v in (p for p in pairs if p[0] == u):
            if v not in used_v:
                best = max(best, 1 + matching(rest, used_v | {v}))
        return best

    best = 0
    for chosen in pairings(0, frozenset()):
        carried = set()
        for i, j in chosen:
            for u, v in ((gold[i][1], system[j][1]), (gold[i][2], system[j][2])):
                if u is not None and v is not None:
                    carried.add((u, v))
        key = tuple(sorted(carried))
        if key not in seen:
            seen[key] = matching(key, frozenset())
        best = max(best, seen[key])
    return best


def edges(max_nodes: int, max_edges: int):
    node = st.one_of(st.integers(0, max_nodes - 1), st.none())
    return st.lists(st.tuples(st.sampled_from(["k1", "k2"]), node, node), max_size=max_edges)


def test_hand_cases():
    # j pairs (0, 0) and (1, 4); the one system k edge with gold 1's carries (1, 5), but
    # gold 1 is taken by (1, 4), and (3, 6): 3 in all; with gold 2's: (2, 5), (4, 6): 4
    gold = [("j", 0, 1), ("k", 1, 3), ("k", 2, 4)]
    system = [("j", 0, 4), ("k", 5, 6)]
    # (0, 0) and (1, 4) by j; k: (1, 5), (3, 6) or (2, 5), (4, 6): the second adds two
    assert most_carried(gold, system) == 4
    assert most_carried(system, gold) == 4
    assert most_carried([], system) == 0
    assert most_carried([("k", None, None)], [("k", None, None)]) == 0
    # a loop carries its node once; an edge against a loop: one of its two node pairs
    assert most_carried([("k", 0, 0)], [("k", 0, 0)]) == 1
    assert most_carried([("k", 0, 0)], [("k", 0, 1)]) == 1


@settings(max_examples=150, deadline=None)
@given(edges(4, 5), edges(4, 5))
def test_equals_the_brute_force(gold, system):
    want = brute_force(gold, system)
    assert most_carried(gold, system) == want
    assert most_carried(system, gold) == want
    assert most_carried(gold[::-1], system[::-1]) == want


@settings(max_examples=40, deadline=None)
@given(edges(4, 5), edges(4, 5))
def test_the_integer_program_equals_the_brute_force(gold, system):
    assert most_carried(gold, system, budget=0) == brute_force(gold, system)


@settings(max_examples=60, deadline=None)
@given(edges(8, 12), edges(8, 12))
def test_the_search_equals_the_integer_program(gold, system):
    assert most_carried(gold, system) == most_carried(gold, system, budget=0)


def test_a_larger_block_where_the_first_choices_are_wrong():
    # SEMA's minimal case grown: gold nodes 1..n hang under hub 0 by keys own_i and each
    # has a k edge to 100 + i; the system's nodes 1..n-m hang under hub 0 by the same
    # own_i, and its m k edges hang under 50 + j.  The own keys pair the hub and nodes
    # 1..n-m; each system k edge pairs its child whatever gold k edge it takes, its parent
    # only with a gold parent not already paired: n-m+1..n, listed last
    n, m = 12, 6
    gold = [(f"own{i}", 0, i) for i in range(1, n + 1)] + [("k", i, 100 + i) for i in range(1, n + 1)]
    system = ([(f"own{i}", 0, i) for i in range(1, n - m + 1)]
              + [("k", 50 + j, 150 + j) for j in range(1, m + 1)])
    want = 1 + (n - m) + m + m  # hub, the own nodes, the k parents, the k children
    assert most_carried(gold, system) == want
    assert most_carried(gold, system, budget=3) == want  # through HiGHS
