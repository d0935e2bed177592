"""``AlignConfig`` is written out (``align/config.py``: ``dataclasses`` imports ``re``, ``enum``,
``copy`` and ``weakref`` at every ``mrkit smatch``) and behaves as the frozen dataclass it was:
constructor, keywords, defaults, repr, equality, hash, refused assignment, pickling, copying,
pattern matching and ``dataclasses.fields``/``replace``/``asdict``/``is_dataclass``."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest
from hypothesis import given, strategies as st

from mrkit.align import AlignConfig


@dataclasses.dataclass(frozen=True)
class Twin:
    """The reference: AlignConfig as the dataclass it was (session 28)."""

    restarts: int = 4
    seed: int = 0
    exact: str = "auto"
    time_limit: float | None = 10.0


settings = st.fixed_dictionaries({}, optional={
    "restarts": st.integers(-2, 10), "seed": st.integers(-(2 ** 70), 2 ** 70),
    "exact": st.sampled_from(["auto", "always", "never", "x"]),
    "time_limit": st.one_of(st.none(), st.floats(allow_nan=False), st.integers(0, 5))})


def mine_and_twin(kw: dict) -> tuple[AlignConfig, Twin]:
    return AlignConfig(**kw), Twin(**kw)


@given(settings, settings)
def test_repr_equality_and_hash_are_the_dataclasses(k1, k2):
    (a, ra), (b, rb) = mine_and_twin(k1), mine_and_twin(k2)
    assert repr(a) == repr(ra).replace("Twin", "AlignConfig")
    assert (a == b) == (ra == rb) and (a != b) == (ra != rb)
    assert hash(a) == hash(ra)
    assert a != ra and (a == ra) is False  # another class, as two dataclasses are never equal
    assert pickle.loads(pickle.dumps(a)) == a and copy.copy(a) == a and copy.deepcopy(a) == a
    assert vars(a) == vars(ra)
    assert dataclasses.astuple(a) == dataclasses.astuple(ra) and dataclasses.asdict(a) == dataclasses.asdict(ra)


@given(settings, settings)
def test_dataclasses_replace_and_fields_work_as_before(k1, k2):
    a, ra = mine_and_twin(k1)
    assert dataclasses.replace(a, **k2) == AlignConfig(**{**k1, **k2})
    assert a.__replace__(**k2) == dataclasses.replace(a, **k2)  # copy.replace from Python 3.13 on
    assert repr(dataclasses.replace(a, **k2)) == repr(dataclasses.replace(ra, **k2)).replace("Twin", "AlignConfig")


def test_defaults_positions_and_the_class_shape():
    assert AlignConfig() == AlignConfig(4, 0, "auto", 10.0) == AlignConfig(restarts=4, seed=0, exact="auto",
                                                                          time_limit=10.0)
    assert AlignConfig(1, 2, "never", None) == AlignConfig(restarts=1, seed=2, exact="never", time_limit=None)
    def params(cls):
        return [(p.name, p.default, p.kind) for p in inspect.signature(cls).parameters.values()]

    assert params(AlignConfig) == params(Twin)
    assert (AlignConfig.restarts, AlignConfig.seed, AlignConfig.exact, AlignConfig.time_limit) == (4, 0, "auto", 10.0)
    assert AlignConfig.__match_args__ == Twin.__match_args__
    assert list(AlignConfig.__annotations__) == list(Twin.__annotations__)
    assert dataclasses.is_dataclass(AlignConfig) and dataclasses.is_dataclass(AlignConfig())
    assert [(f.name, f.default, f.init) for f in dataclasses.fields(AlignConfig)] == \
        [(f.name, f.default, f.init) for f in dataclasses.fields(Twin)]
    with pytest.raises(TypeError):
        AlignConfig(1, 2, "auto", 1.0, 5)
    with pytest.raises(TypeError):
        AlignConfig(restart=2)
    match AlignConfig(3, 7):
        case AlignConfig(r, s, e, t):
            assert (r, s, e, t) == (3, 7, "auto", 10.0)
    assert {AlignConfig(): 1}[AlignConfig()] == 1


@pytest.mark.parametrize("cls", [AlignConfig, Twin])
def test_assignment_and_deletion_are_refused(cls):
    c = cls()
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'seed'"):
        c.seed = 3
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
        c.other = 3
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'seed'"):
        del c.seed
    with pytest.raises(dataclasses.FrozenInstanceError):
        dataclasses.replace(c, seed=1).seed = 2


def test_a_subclass_behaves_as_a_subclass_of_the_dataclass():
    class Mine(AlignConfig):
        pass

    class Theirs(Twin):
        pass

    for c in (Mine(), Theirs()):
        c.extra = 1  # not a field, not the class itself: allowed, as dataclasses allow it
        assert c.extra == 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            c.seed = 1
    assert repr(Mine(seed=2)) == "test_a_subclass_behaves_as_a_subclass_of_the_dataclass.<locals>.Mine(" \
        "restarts=4, seed=2, exact='auto', time_limit=10.0)"
    assert Mine() != AlignConfig() and Theirs() != Twin()
