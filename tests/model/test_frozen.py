"""``model.frozen.Frozen`` classes behave as the frozen dataclasses they replace
(``Inversion`` here; ``Declaration`` in tests/metrics/test_registry_declaration.py)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrkit.model.amr import MRP_NORMAL, MRP_SCORE, NON_INVERTED_OF, SMATCH, Inversion


@dataclasses.dataclass(frozen=True)
class Inversion_:
    """The reference: Inversion as the dataclass it was."""

    name: str
    keep: frozenset = NON_INVERTED_OF
    keep_prefixes: tuple = ()
    mod_domain: bool = False


fields = st.tuples(st.sampled_from(["smatch", "mrp", ""]), st.sampled_from([NON_INVERTED_OF, frozenset()]),
                   st.sampled_from([(), ("prep-",)]), st.booleans())


@given(fields, fields)
def test_equality_hash_and_repr_are_the_dataclasses(a, b):
    x, y, rx, ry = Inversion(*a), Inversion(*b), Inversion_(*a), Inversion_(*b)
    assert (x == y) == (rx == ry) and (x != y) == (rx != ry)
    assert hash(x) == hash(rx) and repr(x) == repr(rx).replace("Inversion_", "Inversion")
    assert x != rx and pickle.loads(pickle.dumps(x)) == x and copy.deepcopy(x) == x and copy.copy(x) == x


def test_defaults_keywords_immutability_and_the_named_conventions():
    assert Inversion("smatch") == SMATCH == Inversion(name="smatch", keep=NON_INVERTED_OF)
    assert MRP_NORMAL.keep_prefixes == ("prep-",) and MRP_SCORE.mod_domain and not SMATCH.mod_domain
    with pytest.raises(dataclasses.FrozenInstanceError):
        SMATCH.name = "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del SMATCH.keep
    with pytest.raises(AttributeError):
        SMATCH.other = 1
    with pytest.raises(TypeError):
        Inversion()
    assert {SMATCH: 1}[Inversion("smatch")] == 1
    assert SMATCH.invert("ARG0-of") == "ARG0" and MRP_NORMAL.base("mod") == "domain"
