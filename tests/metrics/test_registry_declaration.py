"""``Declaration`` is written out as ``@dataclass(frozen=True)`` would generate it (start-up,
issue 14), and ``MetricResult`` is built on first use: both behave as the dataclasses."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrkit.aggregate.resampling import prf_reduce
from mrkit.metrics import registry
from mrkit.metrics.registry import Declaration


@dataclasses.dataclass(frozen=True)
class Declaration_:  # the reference: the dataclass as it was
    """How a metric's corpus score is made from its per-pair rows."""

    columns: tuple | None
    reduce: object
    corpus: str
    aligns: bool = False


fields = (st.none() | st.tuples(st.text(max_size=3)), st.sampled_from([None, prf_reduce, len]), st.text(max_size=5),
          st.booleans())


def both(*args):
    return Declaration(*args), Declaration_(*args)


@given(*fields, *fields)
def test_equality_hash_and_repr_are_the_dataclasses(c1, r1, k1, a1, c2, r2, k2, a2):
    (x, rx), (y, ry) = both(c1, r1, k1, a1), both(c2, r2, k2, a2)
    assert (x == y) == (rx == ry) and (x != y) == (rx != ry)
    assert hash(x) == hash(rx)
    assert repr(x) == repr(rx).replace("Declaration_", "Declaration")
    assert (x == rx) is False  # another class, as two dataclasses are never equal


def test_defaults_keywords_and_immutability():
    d = Declaration(("m", "g", "s"), prf_reduce, "micro F1")
    assert d.aligns is False and d == Declaration(columns=("m", "g", "s"), reduce=prf_reduce, corpus="micro F1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.corpus = "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del d.aligns
    with pytest.raises(TypeError):
        Declaration(("m",), None)  # corpus is required
    assert registry.declaration("sema").columns == ("matched", "gold", "system")
    assert pickle.loads(pickle.dumps(Declaration(("a",), None, "mean", True))) == Declaration(("a",), None, "mean", True)


def test_metric_result_is_the_former_dataclass():
    MetricResult = registry.MetricResult
    assert registry.MetricResult is MetricResult  # built once
    assert dataclasses.is_dataclass(MetricResult) and MetricResult.__qualname__ == "MetricResult"
    r = MetricResult("m", [0.5, 1.0], 0.7)
    assert r.details == {} and r.pair_scores == [0.5, 1.0] and r.macro == 0.75
    assert repr(r) == "MetricResult(name='m', per_pair=[0.5, 1.0], corpus=0.7, details={})"
    assert pickle.loads(pickle.dumps(r)) == r
    from mrkit.metrics.registry import MetricResult as again

    assert again is MetricResult
