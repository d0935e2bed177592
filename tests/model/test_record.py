"""``mrkit.model.record.Record`` (the corpus results' base, written out so that ``mrkit
score`` does not import ``dataclasses`` and ``re``) behaves as the dataclass of the same
fields: repr, equality, no hash, ``replace``; and ``CorpusResult``/``MetricScores`` keep the
dataclass semantics they had (field order, defaults, a new ``detail`` dict per result)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, strategies as st

from mrkit.aggregate.corpus import CorpusResult
from mrkit.metrics.result import MetricScores
from mrkit.model.record import Record


class R(Record):
    _fields = ("a", "b", "c")

    def __init__(self, a, b=1, c=None) -> None:
        self.a, self.b, self.c = a, b, c


@dataclasses.dataclass
class D:
    """The dataclass twin of ``R``."""

    a: object
    b: object = 1
    c: object = None


values = st.one_of(st.integers(), st.text(max_size=3), st.none(), st.lists(st.integers(), max_size=2))


@given(values, values, values, values, values, values)
def test_repr_and_equality_are_the_dataclasses(a1, b1, c1, a2, b2, c2):
    r1, r2, d1, d2 = R(a1, b1, c1), R(a2, b2, c2), D(a1, b1, c1), D(a2, b2, c2)
    assert repr(r1).removeprefix("R") == repr(d1).removeprefix("test_record.D").removeprefix("D")
    assert (r1 == r2) == (d1 == d2)
    assert (r1 != r2) == (d1 != d2)
    assert (r1 == d1) is False  # another class, as two dataclasses are never equal
    assert r1.replace(b=b2) == R(a1, b2, c1) and dataclasses.replace(d1, b=b2) == D(a1, b2, c1)


def test_unhashable_and_replace_refuses_unknown_fields():
    with pytest.raises(TypeError):
        hash(R(1))
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        R(1).replace(z=2)
    with pytest.raises(TypeError):
        dataclasses.replace(D(1), z=2)


def test_corpus_results_keep_their_fields_and_defaults():
    res = CorpusResult("m", [[1.0, 2.0]], None, ["a"])
    assert res._fields == ("metric", "table", "reduce", "ids", "certified", "average", "records", "detail")
    assert (res.certified, res.average, res.records, res.detail) == (None, "micro", None, {})
    assert CorpusResult("m", [], None, []).detail is not CorpusResult("m", [], None, []).detail
    assert CorpusResult("m", [], None, [], detail=None).detail is None  # given, kept as given
    scores = MetricScores("sema", [[1.0, 1.0, 1.0]], None, ["a"], None, "micro", None, {"k": 1}, ("m", "g", "s"))
    assert scores._fields[-1] == "columns" and scores.columns == ("m", "g", "s")
    assert MetricScores("sema", [], None, []).columns == ()
    macro = scores.replace(average="macro")
    assert type(macro) is MetricScores and macro.average == "macro" and macro.columns == scores.columns
    assert macro.detail is scores.detail  # a shallow copy, as dataclasses.replace
    assert repr(scores).startswith("MetricScores(metric='sema', table=array([[1., 1., 1.]]), reduce=None")
