"""``report.json_text.dumps`` writes what ``json.dumps(obj, indent=2, ensure_ascii=False)``
writes, byte for byte (the report writer of every ``--json``, without importing json)."""

from __future__ import annotations

import enum
import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from mrkit.report.json_text import dumps
from mrkit.report.result import to_json


def reference(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)


scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**80, max_value=2**80)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text()
           | st.text(alphabet=st.characters(max_codepoint=0x40)) | st.sampled_from(["\ud800", "a\x00b", "\u2028"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(values)
def test_same_text_as_json_dumps(obj):
    assert dumps(obj) == reference(obj)


class Count(int):
    pass


class Share(float):
    pass


class Name(str):
    pass


class Colour(enum.IntEnum):
    RED = 1


def test_subclasses_special_floats_and_empty_containers():
    obj = {"a": [Count(3), Share(0.5), Name("x\ty"), Colour.RED, True, False, None],
           "b": {}, "c": [], "d": (), "e": [math.nan, math.inf, -math.inf, -0.0, 1e300, 5e-324],
           "\"k\\": {"nested": [[], {}, [1, [2, [3]]]]}, "": "\x1f\x7f\u00e9\U0001f600"}
    assert dumps(obj) == reference(obj)
    assert dumps("top\n") == reference("top\n") and dumps(7) == reference(7) and dumps(None) == "null"


def test_values_it_does_not_write_go_to_json():
    assert dumps({1: "a", 2.5: [None], None: True}) == reference({1: "a", 2.5: [None], None: True})
    try:
        dumps({"x": [1, {2, 3}]})
    except TypeError as exc:
        assert "not JSON serializable" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an object json refuses was written")


def test_report_json_is_the_cleaned_json():
    obj = {"f1": math.nan, "t": (1, 2), 3: "three", "deep": {"inf": math.inf, "ok": 0.25}}
    assert to_json(obj) == reference({"f1": None, "t": [1, 2], "3": "three", "deep": {"inf": None, "ok": 0.25}})
