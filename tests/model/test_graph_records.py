"""``Anchor``, ``Node`` and ``Edge`` are plain classes written as ``@dataclass(slots=True)``
generates them (start-up, issue 14): compared here with the dataclasses they were."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, strategies as st

from mrkit.model import graph as model
from mrkit.model.graph import Anchor, Edge, Node, Property


@dataclass(slots=True)
class RefAnchor:
    start: int
    end: int


@dataclass(slots=True)
class RefNode:
    id: str
    label: str | None = None
    properties: list[Property] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    provenance: frozenset[int] = frozenset()
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class RefEdge:
    source: str
    target: str
    label: str
    attributes: list[Property] = field(default_factory=list)
    normal: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


PAIRS = [(Anchor, RefAnchor), (Node, RefNode), (Edge, RefEdge)]

text = st.text(max_size=4)
maybe = st.none() | text
props = st.lists(st.builds(Property, text, text, st.booleans()), max_size=2)
anchors = st.lists(st.builds(Anchor, st.integers(0, 9), st.integers(0, 9)), max_size=2)
extra = st.dictionaries(text, st.integers() | text | st.lists(st.integers(), max_size=2), max_size=2)
prov = st.frozensets(st.integers(0, 5), max_size=3)


def node_args():
    return st.tuples(text, maybe, props, anchors, prov, extra).flatmap(
        lambda t: st.integers(1, 6).map(lambda k: t[:k]))


def edge_args():
    return st.tuples(text, text, text, props, maybe, extra).flatmap(
        lambda t: st.integers(3, 6).map(lambda k: t[:k]))


def same_repr(mine, ref) -> bool:
    return repr(mine) == repr(ref).replace("Ref", "", 1)


@given(node_args(), node_args())
def test_node_is_its_dataclass(a, b):
    x, y, rx, ry = Node(*a), Node(*b), RefNode(*a), RefNode(*b)
    assert same_repr(x, rx)
    assert (x == y) == (rx == ry) and (x != y) == (rx != ry)
    assert x == Node(*a) and x != RefNode(*a) and (x == 1) is False
    assert pickle.loads(pickle.dumps(x)) == x and copy.deepcopy(x) == x and copy.copy(x) == x


@given(edge_args(), edge_args())
def test_edge_is_its_dataclass(a, b):
    x, y, rx, ry = Edge(*a), Edge(*b), RefEdge(*a), RefEdge(*b)
    assert same_repr(x, rx)
    assert (x == y) == (rx == ry)
    assert pickle.loads(pickle.dumps(x)) == x and copy.deepcopy(x) == x


@given(st.integers(), st.integers(), st.integers(), st.integers())
def test_anchor_is_its_dataclass(a, b, c, d):
    assert same_repr(Anchor(a, b), RefAnchor(a, b))
    assert (Anchor(a, b) == Anchor(c, d)) == (RefAnchor(a, b) == RefAnchor(c, d))


@pytest.mark.parametrize("mine, ref", PAIRS)
def test_class_level_behaviour_is_the_dataclasses(mine, ref):
    assert mine.__slots__ == ref.__slots__ and mine.__match_args__ == ref.__match_args__
    assert mine.__hash__ is None and ref.__hash__ is None
    with pytest.raises(TypeError):
        hash(mine(*["x"] * len(ref.__match_args__)))
    obj = mine(*["x"] * (1 if mine is Node else 3 if mine is Edge else 2))
    with pytest.raises(AttributeError):
        obj.no_such_field = 1
    assert not hasattr(obj, "__dict__") and not hasattr(obj, "__weakref__")


def test_keywords_defaults_and_errors_are_the_dataclasses():
    assert Node("a", label="b", extra={"k": 1}) == Node("a", "b", [], [], frozenset(), {"k": 1})
    n1, n2 = Node("a"), Node("a")
    assert n1.properties is not n2.properties and n1.extra is not n2.extra and n1.anchors is not n2.anchors
    assert Node("a", properties=None).properties is None  # an explicit value is kept, as dataclasses do
    assert Edge("a", "b", "r", normal="x").normal == "x" and Edge("a", "b", "r").attributes == []
    for mine, ref, args in ((Node, RefNode, ()), (Edge, RefEdge, ("a",)), (Anchor, RefAnchor, (1,))):
        with pytest.raises(TypeError) as e_mine:
            mine(*args)
        with pytest.raises(TypeError) as e_ref:
            ref(*args)
        assert str(e_mine.value).replace("Ref", "") .split("(")[1:] == str(e_ref.value).replace("Ref", "").split("(")[1:]


def test_a_record_that_contains_itself_prints():
    n = Node("a")
    n.extra["self"] = n
    r = RefNode("a")
    r.extra["self"] = r
    assert repr(n) == repr(r).replace("Ref", "", 1) and "..." in repr(n)


def test_match_statement_reads_fields_in_order():
    match Edge("a", "b", "ARG0"):
        case Edge(s, t, label):
            assert (s, t, label) == ("a", "b", "ARG0")
    assert model._FACTORY is not None
