"""The AMR role conventions of :mod:`mrkit.model.amr`, each against a hand-written table
of what its reference tool does (Smatch 1.0.4's ``amr.py``; the MRP ``normal`` labels the
converter writes; the MRP metric's reading of an edge without ``normal``)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mrkit.model.amr import (MRP_NON_INVERTED_OF, MRP_NORMAL, MRP_SCORE, NON_INVERTED_OF, SMATCH,
                             is_inverted, normalize_relation)

# role -> base direction under (SMATCH, MRP_NORMAL, MRP_SCORE); None: not an inversion
TABLE = {
    "ARG0-of": ("ARG0", "ARG0", "ARG0"),
    "part-of-of": ("part-of", "part-of", "part-of"),
    "consist-of": (None, None, None),
    "prep-on-behalf-of": (None, None, None),
    "prep-out-of": (None, None, None),
    "subset-of": ("subset", None, None),
    "prep-with-of": ("prep-with", None, "prep-with"),
    "prep-on-behalf-of-of": ("prep-on-behalf-of", None, "prep-on-behalf-of"),
    "mod": (None, "domain", "domain"),
    "domain": (None, None, None),
    "ARG1": (None, None, None),
    "-of": (None, None, None),
}


@pytest.mark.parametrize("role", sorted(TABLE))
def test_each_convention_as_its_reference_tool(role):
    for convention, expected in zip((SMATCH, MRP_NORMAL, MRP_SCORE), TABLE[role]):
        assert convention.base(role) == expected, (convention.name, role)


def test_the_conventions_are_named_and_their_lists_documented():
    assert NON_INVERTED_OF == {"consist-of", "prep-on-behalf-of", "prep-out-of"}
    assert MRP_NON_INVERTED_OF == NON_INVERTED_OF | {"subset-of"}
    assert {c.name for c in (SMATCH, MRP_NORMAL, MRP_SCORE)} == {"smatch", "mrp-normal", "mrp-score"}


def test_smatch_convention_is_the_function_api():
    for role in TABLE:
        assert SMATCH.is_inverted(role) == is_inverted(role)
    assert normalize_relation("b", ":ARG0-of", "a") == ("a", "arg0", "b")
    assert normalize_relation("a", "Consist-Of", "b") == ("a", "consist-of", "b")
    assert normalize_relation("a", "mod", "b") == ("a", "mod", "b")


def test_invert_writes_an_edge_backwards_and_round_trips():
    assert SMATCH.invert("ARG0") == "ARG0-of" and SMATCH.invert("ARG0-of") == "ARG0"
    assert SMATCH.invert("consist-of") == "consist-of-of"  # not an inversion: gets its own -of
    for role in TABLE:
        double = SMATCH.is_inverted(role) and SMATCH.is_inverted(SMATCH.invert(role))
        if role != "-of" and not double:
            # reading the inverted edge back gives the role in the original direction
            assert normalize_relation("t", SMATCH.invert(role), "s") == normalize_relation("s", role, "t")
    # an inversion of an inversion has no backwards spelling: ``part-of-of`` written backwards
    # is ``part-of``, which reads as ``part`` (the PENMAN writer's one lossy case)
    assert SMATCH.invert("part-of-of") == "part-of"
    assert normalize_relation("t", "part-of", "s") != normalize_relation("s", "part-of-of", "t")


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,12}", fullmatch=True))
def test_case_and_colon_do_not_change_whether_a_role_is_inverted(role):
    assert is_inverted(role) == is_inverted(":" + role.upper()) == is_inverted(role.lower())
    base = SMATCH.base(role)
    assert (base is None) == (not is_inverted(role))
    if base is not None:
        assert base + "-of" == role
