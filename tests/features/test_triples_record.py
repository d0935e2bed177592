"""``Triples`` is a plain class written as ``@dataclass`` generated it (start-up, issue 14):
compared here with the dataclass it was -- construction with and without the defaulted
fields, repr, equality (also with other classes), no hash, pattern matching, copies,
pickling."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given, strategies as st

from mrkit.features.triples import Triples


@dataclass
class RefTriples:
    variables: list[str]
    instances: list[tuple[int, str]] = field(default_factory=list)
    attributes: list[tuple[int, str, str]] = field(default_factory=list)
    relations: list[tuple[int, str, int]] = field(default_factory=list)
    tops: list[int] = field(default_factory=list)


small = st.integers(0, 3)
text = st.text(max_size=3)
args = st.tuples(st.lists(text, max_size=3), st.lists(st.tuples(small, text), max_size=2),
                 st.lists(st.tuples(small, text, text), max_size=2), st.lists(st.tuples(small, text, small), max_size=2),
                 st.lists(small, max_size=2)).flatmap(lambda t: st.integers(1, 5).map(lambda k: t[:k]))


def _fields(x) -> tuple:
    return (x.variables, x.instances, x.attributes, x.relations, x.tops)


@given(a=args, b=args)
def test_same_as_the_dataclass(a, b):
    got, want = Triples(*a), RefTriples(*a)
    assert _fields(got) == _fields(want)
    assert repr(got) == repr(want).replace("RefTriples(", "Triples(", 1)
    assert (got == Triples(*b)) == (want == RefTriples(*b))
    assert got != want and (got == 1) is False
    kw = dict(zip(("variables", "instances", "attributes", "relations", "tops"), a))
    assert _fields(Triples(**kw)) == _fields(RefTriples(**kw))
    assert _fields(copy.deepcopy(got)) == _fields(got) and pickle.loads(pickle.dumps(got)) == got
    match got:
        case Triples(v, i, at, r, t):
            assert (v, i, at, r, t) == _fields(want)


def test_defaults_are_fresh_lists_and_no_hash():
    a, b = Triples(["x"]), Triples(["x"])
    a.instances.append((0, "c"))
    assert b.instances == [] and b.attributes == [] and b.relations == [] and b.tops == []
    assert Triples(["x"], None).instances is None  # an explicit value is kept, as dataclasses do
    with pytest.raises(TypeError):
        hash(a)
    with pytest.raises(TypeError):
        Triples()
    assert len(Triples(["a"], [(0, "b")], [(0, "r", "v")], [], [0])) == 3
